import { SECURITY_ANCHOR } from "../../../shared/schemas/account";
import { AccountCard, AccountSection } from "./AccountSection";
import { DevicesList } from "./DevicesList";
import { EmailChangeForm } from "./EmailChangeForm";
import { PasswordChangeForm } from "./PasswordChangeForm";
import { TwoFactorCard } from "./TwoFactorCard";

/**
 * 'Sécurité' of the patient's and the dentist's profile pages, and of the admin's account page
 * (without the change of address: an administrator's is the server's ADMIN_EMAIL).
 */
export function SecuritySection({
  email,
  canChangeEmail = false,
  className,
}: {
  email: string;
  canChangeEmail?: boolean;
  className?: string;
}) {
  return (
    <AccountSection id={SECURITY_ANCHOR} title="Sécurité" className={className}>
      <AccountCard
        title="Changer mon mot de passe"
        description="Saisissez votre mot de passe actuel, puis le nouveau deux fois."
      >
        <PasswordChangeForm email={email} />
      </AccountCard>
      <TwoFactorCard email={email} />
      <AccountCard
        title="Appareils connectés"
        description="Les appareils où votre compte est ouvert. Si vous n'en reconnaissez pas un, déconnectez-le et changez votre mot de passe."
      >
        <DevicesList />
      </AccountCard>
      {canChangeEmail ? (
        <AccountCard
          title="Changer mon adresse e-mail"
          description="Un lien de confirmation est envoyé à la nouvelle adresse : elle ne remplace l'actuelle qu'une fois ce lien ouvert."
        >
          <EmailChangeForm email={email} />
        </AccountCard>
      ) : null}
    </AccountSection>
  );
}
