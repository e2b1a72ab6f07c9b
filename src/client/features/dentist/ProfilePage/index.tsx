import { AccountInfoCard } from "../../../components/AccountInfoCard";
import { ProfileLayout } from "../../../components/profile/ProfileLayout";
import { BillingSection } from "./BillingSection";
import { ProfileForm } from "./ProfileForm";
import { VerificationCard } from "./VerificationCard";

/** /dentist/profile 'Mon profil': information, presentation, the verification of the practice (its workflow: the team checks the RPPS number), security and data. */
export function DentistProfilePage() {
  return (
    <ProfileLayout
      description="Vos informations, votre présentation aux patients et la vérification de votre cabinet."
      formTitle="Mes informations"
      form={(profile) => <ProfileForm profile={profile} />}
      asideFirst
      aside={(profile) => (
        <div className="grid gap-6 self-start lg:order-2">
          <section aria-label="Statut du compte">
            <VerificationCard profile={profile} />
          </section>
          <AccountInfoCard profile={profile} />
        </div>
      )}
      more={<BillingSection />}
    />
  );
}
