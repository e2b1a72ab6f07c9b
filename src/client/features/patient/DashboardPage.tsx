import { CalendarDays, CheckCircle2, Clock, FileUp, FolderOpen, LifeBuoy, Plus } from "lucide-react";
import { Link } from "react-router";
import { JOURNEY_TONES } from "../../../shared/domain/journey";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import type { RequestSummary } from "../../../shared/schemas/requests";
import { AppointmentStatusBadge, appointmentWhen } from "../../components/appointments/AppointmentCard";
import { NextAction } from "../../components/journey/JourneyCard";
import { PageHeader } from "../../components/PageHeader";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { StatCard } from "../../components/ui/StatCard";
import { useUpcomingAppointments } from "../../lib/appointments";
import { useSession } from "../../lib/session";
import { usePatientDashboard } from "./api";

/** Issue 16: what to do when there is no appointment yet, from the requests' journeys. */
function nextStepWithoutAppointment(recent: RequestSummary[] | undefined): { label: string; path: string } {
  const order = ["accepted", "compare"] as const;
  for (const state of order) {
    const request = recent?.find((r) => r.journey.state === state && r.journey.next);
    if (request?.journey.next) return request.journey.next;
  }
  if (recent && recent.length > 0) return { label: "Voir mes demandes", path: "/patient/requests" };
  return { label: "Déposer mon devis", path: "/patient/upload" };
}

/** 'Mes rendez-vous': the next three appointments, each leading to its request. */
function MyAppointments({ recent }: { recent: RequestSummary[] | undefined }) {
  const list = useUpcomingAppointments(1);
  const items = list.data?.items.slice(0, 3) ?? [];
  return (
    <section aria-labelledby="my-appointments" className="mt-8 grid gap-4">
      <h2 id="my-appointments" className="text-xl font-semibold text-slate-900">
        Mes rendez-vous
      </h2>
      {list.isPending ? (
        <Card aria-busy="true">
          <p className="sr-only">Chargement...</p>
          <div className="flex h-[4.5rem] items-center justify-between gap-4 px-5">
            <div className="grid gap-2">
              <Skeleton className="h-5 w-56" />
              <Skeleton className="h-4 w-32" />
            </div>
            <Skeleton className="h-6 w-24 rounded-full" />
          </div>
        </Card>
      ) : list.isError ? (
        <LoadError title="Impossible de charger vos rendez-vous" onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <Card className="grid gap-4 p-5 text-slate-600 sm:flex sm:items-center sm:justify-between">
          <div className="flex items-start gap-3">
            <CalendarDays className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
            <p>
              Aucun rendez-vous à venir. Après avoir accepté la proposition d'un dentiste, choisissez votre
              rendez-vous depuis votre demande.
            </p>
          </div>
          <div className="shrink-0">
            <NextAction next={nextStepWithoutAppointment(recent)} size="sm" />
          </div>
        </Card>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-200">
            {items.map((appointment) => (
              <li
                key={appointment.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-5 py-4 sm:min-h-[4.5rem]"
              >
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-medium text-slate-900">{appointmentWhen(appointment)}</p>
                  <p className="text-sm text-slate-600">
                    Dr {appointment.dentist.full_name} · {treatmentLabel(appointment.treatment_type)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <AppointmentStatusBadge side="patient" view={appointment.view} />
                  <Button asChild variant="outline" size="sm">
                    <Link
                      to={`/patient/request/${appointment.request_id}`}
                      aria-label={`Voir le rendez-vous avec le Dr ${appointment.dentist.full_name}`}
                    >
                      Voir
                    </Link>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}

/** /patient/dashboard (spec §2; D17: the 5 most recent requests). */
export function PatientDashboardPage() {
  const { profile } = useSession();
  const dashboard = usePatientDashboard();
  const data = dashboard.data;
  const loading = dashboard.isPending;

  return (
    <>
      <PageHeader
        title={`Bonjour ${profile?.first_name ?? ""}`.trim()}
        documentTitle="Tableau de bord"
        description="Déposez un devis ou des documents, puis suivez ici les réponses des dentistes."
        actions={
          <>
            <Button asChild>
              <Link to="/patient/upload">
                <Plus aria-hidden="true" />
                Nouvelle demande
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/patient/upload">
                <FileUp aria-hidden="true" />
                Téléverser un document
              </Link>
            </Button>
          </>
        }
      />

      <section aria-label="Mes chiffres" className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard icon={Clock} label="Demandes actives" value={data?.counts.active ?? 0} loading={loading} />
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
        />
      </section>

      <section aria-labelledby="recent-requests" className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="recent-requests" className="text-xl font-semibold text-slate-900">
            Mes demandes récentes
          </h2>
          {data && data.recent.length > 0 ? (
            <Link
              to="/patient/requests"
              className="font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              Voir toutes mes demandes
            </Link>
          ) : null}
        </div>
        {loading ? (
          <Card aria-busy="true">
            <p className="sr-only">Chargement...</p>
            <ul className="divide-y divide-slate-200">
              {["a", "b", "c"].map((key) => (
                <li key={key} className="flex h-[4.5rem] items-center justify-between gap-4 px-5">
                  <div className="grid gap-2">
                    <Skeleton className="h-5 w-40" />
                    <Skeleton className="h-4 w-24" />
                  </div>
                  <Skeleton className="h-6 w-20 rounded-full" />
                </li>
              ))}
            </ul>
          </Card>
        ) : dashboard.isError ? (
          <LoadError title="Impossible de charger vos demandes" onRetry={() => void dashboard.refetch()} />
        ) : data && data.recent.length > 0 ? (
          <Card>
            <ul className="divide-y divide-slate-200">
              {data.recent.map((request) => (
                <li
                  key={request.id}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-5 py-4 sm:min-h-[4.5rem]"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <p className="font-medium text-slate-900">{treatmentLabel(request.treatment_type)}</p>
                    <p className="text-sm text-slate-600 tabular-nums">
                      {formatListDate(request.created_at)}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-3">
                    <Badge tone={JOURNEY_TONES[request.journey.state]}>{request.journey.label}</Badge>
                    {request.journey.next ? (
                      // The request's next step is the row's main button (issue 16).
                      <NextAction
                        next={request.journey.next}
                        size="sm"
                        label={`${request.journey.next.label} — ${treatmentLabel(request.treatment_type)} du ${formatListDate(request.created_at)}`}
                      />
                    ) : null}
                    <Button asChild variant="outline" size="sm">
                      <Link
                        to={`/patient/request/${request.id}`}
                        aria-label={`Voir la demande ${treatmentLabel(request.treatment_type)} du ${formatListDate(request.created_at)}`}
                      >
                        Voir
                      </Link>
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        ) : (
          <EmptyState
            as="h3"
            icon={FolderOpen}
            title="Aucune demande pour le moment"
            description="Déposez le devis de votre dentiste : des dentistes vérifiés vous répondront, en général sous 48 heures."
            action={
              <Button asChild>
                <Link to="/patient/upload">Créer ma première demande</Link>
              </Button>
            }
          />
        )}
      </section>

      <MyAppointments recent={data?.recent} />

      <Card className="mt-8 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <LifeBuoy className="size-5" aria-hidden="true" />
          </span>
          <div className="grid gap-0.5">
            <h2 className="font-semibold text-slate-900">Besoin d'aide ?</h2>
            <p className="text-sm text-slate-600">
              Une question sur votre demande ou sur Sourio ? Notre équipe vous répond.
            </p>
          </div>
        </div>
        <Button asChild variant="outline">
          <Link to="/patient/help">Écrire à l'équipe</Link>
        </Button>
      </Card>
    </>
  );
}
