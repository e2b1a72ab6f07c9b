import { SECURITY_ANCHOR } from "../../../shared/schemas/account";
import { AccountCard, AccountSection } from "./AccountSection";
import { DevicesList } from "./DevicesList";
import { PasswordChangeForm } from "./PasswordChangeForm";

/** 'Sécurité' of the patient's and the dentist's profile pages. */
export function SecuritySection({ email, className }: { email: string; className?: string }) {
  return (
    <AccountSection id={SECURITY_ANCHOR} title="Sécurité" className={className}>
      <AccountCard
        title="Changer mon mot de passe"
        description="Saisissez votre mot de passe actuel, puis le nouveau deux fois."
      >
        <PasswordChangeForm email={email} />
      </AccountCard>
      <AccountCard
        title="Appareils connectés"
        description="Les appareils où votre compte est ouvert. Si vous n'en reconnaissez pas un, déconnectez-le et changez votre mot de passe."
      >
        <DevicesList />
      </AccountCard>
    </AccountSection>
  );
}
