import { CalendarDays, Inbox, MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { placeLabel } from "../../../../shared/domain/geo";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { oneLine } from "../../../../shared/format/chat";
import { formatListDate } from "../../../../shared/format/dates";
import type { DentistDashboard } from "../../../../shared/schemas/dentist";
import { AppointmentStatusBadge, appointmentWhen } from "../../../components/appointments/AppointmentCard";
import { DashboardRow, ListSkeleton } from "../../../components/dashboard/DashboardList";
import { Badge } from "../../../components/ui/Badge";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { EmptyState } from "../../../components/ui/EmptyState";
import { LoadError } from "../../../components/ui/LoadError";
import { NewBadge } from "../../../components/ui/StatusBadge";
import { useUpcomingAppointments } from "../../../lib/appointments";
import { RequestStatusBadge } from "../requestStatus";

/** The lists of the dentist's dashboard: recent requests, next appointments, recent messages. */

export const linkClasses = "font-medium text-brand-700 underline-offset-4 hover:underline";

/** 'Demandes récentes': once verified, the newest requests with this dentist's status on each. */
export function RecentRequests({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="recent-requests">Demandes récentes</CardTitle>
        {data?.verified ? (
          <Link to="/dentist/quote-requests" className={linkClasses}>
            Voir toutes les demandes
          </Link>
        ) : null}
      </CardHeader>
      <CardContent>
        {loading ? (
          <ListSkeleton />
        ) : !data?.verified ? (
          <p className="text-slate-600">
            Les demandes des patients vous seront montrées une fois votre compte vérifié.
          </p>
        ) : data.recent_requests.length === 0 ? (
          <EmptyState
            as="h3"
            icon={Inbox}
            title="Aucune demande pour le moment"
            description="Les nouvelles demandes des patients apparaîtront ici."
          />
        ) : (
          <ul className="divide-y divide-slate-200" aria-labelledby="recent-requests">
            {data.recent_requests.map((request) => {
              const treatment = treatmentLabel(request.treatment_type);
              return (
                <DashboardRow
                  key={request.id}
                  titleClassName="flex flex-wrap items-center gap-2 wrap-anywhere"
                  title={
                    <>
                      <Link
                        to={`/dentist/patient-submission/${request.id}`}
                        className="underline-offset-4 hover:underline"
                      >
                        {request.patient_name}
                      </Link>
                      {request.is_new ? <NewBadge /> : null}
                    </>
                  }
                  metaClassName="tabular-nums"
                  meta={[
                    placeLabel(request.patient_city, request.distance_km),
                    treatment,
                    formatListDate(request.created_at),
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                >
                  <RequestStatusBadge request={request} />
                </DashboardRow>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The next three appointments (to confirm or to come), soonest first. */
export function NextAppointments({ verified }: { verified: boolean }) {
  const list = useUpcomingAppointments(1, { enabled: verified });
  const items = list.data?.items.slice(0, 3) ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="next-appointments">Prochains rendez-vous</CardTitle>
        {verified ? (
          <Link to="/dentist/appointments" className={linkClasses}>
            Voir tous les rendez-vous
          </Link>
        ) : null}
      </CardHeader>
      <CardContent>
        {!verified ? (
          <p className="text-slate-600">Vos rendez-vous apparaîtront ici une fois votre compte vérifié.</p>
        ) : list.isPending ? (
          <ListSkeleton />
        ) : list.isError ? (
          <LoadError title="Impossible de charger vos rendez-vous" onRetry={() => void list.refetch()} />
        ) : items.length === 0 ? (
          <p className="flex items-center gap-3 text-slate-600">
            <CalendarDays className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            Aucun rendez-vous à venir.
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-labelledby="next-appointments">
            {items.map((appointment) => (
              <DashboardRow
                key={appointment.id}
                title={appointmentWhen(appointment)}
                meta={`${appointment.patient.full_name} · ${treatmentLabel(appointment.treatment_type)}`}
              >
                <AppointmentStatusBadge side="dentist" view={appointment.view} />
              </DashboardRow>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** 'Messages récents': the last message of each conversation, unread ones marked. */
export function RecentMessages({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="recent-messages">Messages récents</CardTitle>
        <Link to="/dentist/messages" className={linkClasses}>
          Voir tous les messages
        </Link>
      </CardHeader>
      <CardContent>
        {loading ? (
          <ListSkeleton />
        ) : !data || data.recent_messages.length === 0 ? (
          <p className="flex items-center gap-3 text-slate-600">
            <MessagesSquare className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            Aucun message pour le moment
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-labelledby="recent-messages">
            {data.recent_messages.map((message) => (
              <li key={message.id} className="py-3 first:pt-0 last:pb-0">
                <Link
                  to={`/dentist/messages/${message.conversation_id}`}
                  className="group grid gap-0.5 rounded-md focus-visible:outline-2"
                >
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span className="flex min-w-0 items-center gap-2 font-medium wrap-anywhere text-slate-900 group-hover:underline">
                      {message.patient_name}
                      {message.read ? null : <Badge tone="blue">Non lu</Badge>}
                    </span>
                    <span className="text-sm text-slate-600 tabular-nums">
                      {formatListDate(message.created_at)}
                    </span>
                  </span>
                  <span className="line-clamp-2 text-sm text-slate-700">
                    {message.from_me ? "Vous : " : null}
                    {oneLine(message.body)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
