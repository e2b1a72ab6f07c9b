import { CalendarDays, CheckCircle2, Clock, FileUp, LifeBuoy } from "lucide-react";
import { Link } from "react-router";
import { formatListDate } from "../../../../shared/format/dates";
import { countLabel } from "../../../../shared/format/plural";
import { PageHeader } from "../../../components/PageHeader";
import { Button } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Card";
import { StatCard } from "../../../components/ui/StatCard";
import { useConfig } from "../../../lib/config";
import { useSession } from "../../../lib/session";
import { usePatientDashboard } from "../api";
import { ReviewInvitations } from "../ReviewInvitations";
import { UploadLink } from "../UploadLink";
import { MyAppointments } from "./MyAppointments";
import { RecentRequests } from "./RecentRequests";

/** /patient/dashboard (its five most recent requests). */
export function PatientDashboardPage() {
  const { profile } = useSession();
  const { brand_name: brand } = useConfig();
  const dashboard = usePatientDashboard();
  const data = dashboard.data;
  const loading = dashboard.isPending;
  // The team answered and she has not read it: the help card says so first.
  const supportUnread = data?.counts.support_unread ?? 0;
  const teamAnswered = supportUnread > 0;

  return (
    <>
      <PageHeader
        title={`Bonjour ${profile?.first_name ?? ""}`.trim()}
        documentTitle="Tableau de bord"
        description="Déposez un devis ou des documents, puis suivez ici les réponses des dentistes."
        actions={
          <>
            <UploadLink />
            <UploadLink icon={FileUp} variant="outline">
              Téléverser un document
            </UploadLink>
          </>
        }
      />

      <ReviewInvitations />

      {/* Not loaded: no « 0 » nor « Aucune demande » as if they were true (the error is in the list below). */}
      {dashboard.isError && !data ? null : (
        <section aria-label="Mes chiffres" className="mb-8 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
          <StatCard
            icon={Clock}
            label="Demandes actives"
            value={data?.counts.active ?? 0}
            loading={loading}
          />
          <StatCard
            icon={CheckCircle2}
            label="Demandes terminées"
            value={data?.counts.completed ?? 0}
            loading={loading}
          />
          <StatCard
            icon={CalendarDays}
            label="Dernière demande"
            value={
              data?.counts.latest_at ? (
                formatListDate(data.counts.latest_at)
              ) : (
                <span className="text-lg">Aucune demande</span>
              )
            }
            loading={loading}
            className="col-span-2 sm:col-span-1"
          />
        </section>
      )}

      <RecentRequests dashboard={dashboard} />

      <MyAppointments recent={data?.recent} />

      <Card className="mt-8 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <LifeBuoy className="size-5" aria-hidden="true" />
          </span>
          <div className="grid gap-0.5">
            {teamAnswered ? (
              <>
                <h2 className="font-semibold text-slate-900">L'équipe vous a répondu</h2>
                <p className="text-sm text-slate-600">
                  {countLabel(supportUnread, "nouveau message", "nouveaux messages")} de notre équipe à lire.
                </p>
              </>
            ) : (
              <>
                <h2 className="font-semibold text-slate-900">Besoin d'aide ?</h2>
                <p className="text-sm text-slate-600">
                  Une question sur votre demande ou sur {brand} ? Notre équipe vous répond.
                </p>
              </>
            )}
          </div>
        </div>
        <Button asChild variant={teamAnswered ? "primary" : "outline"}>
          <Link to="/patient/help">{teamAnswered ? "Lire la réponse" : "Écrire à l'équipe"}</Link>
        </Button>
      </Card>
    </>
  );
}
