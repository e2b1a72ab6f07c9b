import { AccountInfoCard } from "../../../components/AccountInfoCard";
import { ProfileLayout } from "../../../components/profile/ProfileLayout";
import { CoverSection } from "../CoverSection";
import { ProfileForm } from "./ProfileForm";

/** /patient/profile 'Mon profil': personal information, photo, insurance cover, security and data. */
export function PatientProfilePage() {
  return (
    <ProfileLayout
      description="Vos informations personnelles, votre photo et votre mutuelle."
      formTitle="Informations personnelles"
      form={(profile) => <ProfileForm profile={profile} />}
      aside={(profile) => <AccountInfoCard profile={profile} className="self-start" />}
      more={<CoverSection className="mt-8" />}
    />
  );
}
