import { CalendarDays } from "lucide-react";
import { Link } from "react-router";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { drName, theName } from "../../../../shared/format/names";
import type { RequestSummary } from "../../../../shared/schemas/requests";
import { AppointmentStatusBadge, appointmentWhen } from "../../../components/appointments/AppointmentCard";
import { DashboardRow, ListSkeleton, ViewLink } from "../../../components/dashboard/DashboardList";
import { NextAction } from "../../../components/journey/JourneyCard";
import { Card } from "../../../components/ui/Card";
import { LoadError } from "../../../components/ui/LoadError";
import { useUpcomingAppointments } from "../../../lib/appointments";

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

/** 'Mes rendez-vous': the next three appointments, each leading to its request, and the way to all. */
export function MyAppointments({ recent }: { recent: RequestSummary[] | undefined }) {
  const list = useUpcomingAppointments(1);
  const items = list.data?.items.slice(0, 3) ?? [];
  return (
    <section aria-labelledby="my-appointments" className="mt-8 grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="my-appointments" className="text-xl font-semibold text-slate-900">
          Mes rendez-vous
        </h2>
        <Link
          to="/patient/appointments"
          className="font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          Voir tous mes rendez-vous
        </Link>
      </div>
      {list.isPending ? (
        <ListSkeleton inCard rows={1} />
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
              <DashboardRow
                key={appointment.id}
                inCard
                title={appointmentWhen(appointment)}
                meta={`${drName(appointment.dentist.full_name)} · ${treatmentLabel(appointment.treatment_type)}`}
              >
                <div className="flex items-center gap-3">
                  <AppointmentStatusBadge side="patient" view={appointment.view} />
                  <ViewLink
                    to={`/patient/request/${appointment.request_id}`}
                    label={`Voir le rendez-vous avec ${theName(drName(appointment.dentist.full_name))}`}
                  />
                </div>
              </DashboardRow>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
