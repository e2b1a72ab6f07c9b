import { VerificationPending } from "../../../components/dashboard/VerificationPending";
import { PageHeader } from "../../../components/PageHeader";
import { LoadError } from "../../../components/ui/LoadError";
import { useSession } from "../../../lib/session";
import { useDentistDashboard } from "../api";
import { TodoCard } from "../TodoCard";
import { NextAppointments, RecentMessages, RecentRequests } from "./DashboardLists";
import { MonthlyPerformance, PracticeStatus } from "./PracticeCards";

/** /dentist/dashboard (issue 5): what to do, requests, appointments, messages and activity. */
export function DentistDashboardPage() {
  const { profile } = useSession();
  const dashboard = useDentistDashboard();
  const data = dashboard.data;
  const loading = dashboard.isPending;
  // Failed with nothing to show (a failed refresh keeps the answer it had).
  const failed = dashboard.isError && !data;
  // The API's answer wins; until it comes (or if it fails), the session's profile tells.
  const verified = data ? data.verified : Boolean(profile?.is_verified);

  return (
    <>
      <PageHeader
        title={`Bonjour ${profile?.first_name ?? ""}`.trim()}
        documentTitle="Tableau de bord"
        description="Les demandes des patients, vos messages et votre activité."
      />
      {failed ? (
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
      {failed ? (
        // Without the dashboard's answer, its cards would say « rien ne vous attend », « 0 % »: only
        // the appointments, which have their own query, are shown beside the error.
        <NextAppointments verified={verified} />
      ) : (
        <>
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
      )}
    </>
  );
}
