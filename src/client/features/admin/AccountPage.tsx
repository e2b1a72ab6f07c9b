import { AccountInfoCard } from "../../components/AccountInfoCard";
import { SecuritySection } from "../../components/account/SecuritySection";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/ui/Spinner";
import { useSession } from "../../lib/session";

/**
 * /admin/account 'Mon compte': an administrator who is neither patient nor dentist has no profile
 * page in those areas (issue 13): their account, password and connected devices are here.
 */
export function AdminAccountPage() {
  const { profile } = useSession();
  if (!profile) return <PageSpinner />;
  return (
    <>
      <PageHeader
        title="Mon compte"
        description="Votre compte d'administration, votre mot de passe et vos appareils."
      />
      <AccountInfoCard profile={profile} className="max-w-xl" />
      <SecuritySection email={profile.email} className="mt-8" />
    </>
  );
}
