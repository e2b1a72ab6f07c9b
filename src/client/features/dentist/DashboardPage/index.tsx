import { PageHeader } from "../../../components/PageHeader";
import { LoadError } from "../../../components/ui/LoadError";
import { useSession } from "../../../lib/session";
import { useDentistDashboard } from "../api";
import { TodoCard } from "../TodoCard";
import { VerificationPending } from "../VerificationPending";
import { NextAppointments, RecentMessages, RecentRequests } from "./DashboardLists";
import { MonthlyPerformance, PracticeStatus } from "./PracticeCards";

/** /dentist/dashboard (issue 5): what to do, requests, appointments, messages and activity. */
export function DentistDashboardPage() {
  const { profile } = useSession();
  const dashboard = useDentistDashboard();
  const data = dashboard.data;
  const loading = dashboard.isPending;
  // The API's answer wins; until it comes (or if it fails), the session's profile tells.
  const verified = data ? data.verified : Boolean(profile?.is_verified);

  return (
    <>
      <PageHeader
        title={`Bonjour ${profile?.first_name ?? ""}`.trim()}
        documentTitle="Tableau de bord"
        description="Les demandes des patients, vos messages et votre activité."
      />
      {dashboard.isError ? (
        <LoadError
          title="Impossible de charger votre tableau de bord"
          className="mb-6"
          onRetry={() => void dashboard.refetch()}
        />
      ) : null}
      {!verified ? (
        <div className="mb-6">
          <VerificationPending />
        </div>
      ) : null}
      <div className="mb-6">
        <TodoCard todo={data?.todo} loading={loading} verified={verified} />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <RecentRequests data={data} loading={loading} />
          <NextAppointments verified={verified} />
          <RecentMessages data={data} loading={loading} />
        </div>
        <div className="grid gap-6">
          <PracticeStatus data={data} loading={loading} />
          <MonthlyPerformance data={data} loading={loading} />
        </div>
      </div>
    </>
  );
}
