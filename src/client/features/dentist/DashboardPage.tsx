import {
  BadgeCheck,
  CalendarCheck,
  CalendarDays,
  Inbox,
  type LucideIcon,
  MessagesSquare,
  Send,
} from "lucide-react";
import { Link } from "react-router";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import { formatMinutes } from "../../../shared/format/duration";
import type { DentistDashboard } from "../../../shared/schemas/dentist";
import { AppointmentStatusBadge, appointmentWhen } from "../../components/appointments/AppointmentCard";
import { PageHeader } from "../../components/PageHeader";
import { Badge } from "../../components/ui/Badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Progress } from "../../components/ui/Progress";
import { Skeleton } from "../../components/ui/Skeleton";
import { NewBadge } from "../../components/ui/StatusBadge";
import { useUpcomingAppointments } from "../../lib/appointments";
import { useSession } from "../../lib/session";
import { useDentistDashboard } from "./api";
import { RequestStatusBadge } from "./requestStatus";
import { TodoCard } from "./TodoCard";
import { VerificationPending } from "./VerificationPending";

const linkClasses = "font-medium text-brand-700 underline-offset-4 hover:underline";

function ListSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only">Chargement...</p>
      <ul className="divide-y divide-slate-200">
        {["a", "b", "c"].map((key) => (
          <li key={key} className="flex h-[4.5rem] items-center justify-between gap-4">
            <div className="grid gap-2">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-4 w-24" />
            </div>
            <Skeleton className="h-6 w-20 rounded-full" />
          </li>
        ))}
      </ul>
    </div>
  );
}

function RecentRequests({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
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
                <li
                  key={request.id}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                      <Link
                        to={`/dentist/patient-submission/${request.id}`}
                        className="underline-offset-4 hover:underline"
                      >
                        {request.patient_name}
                      </Link>
                      {request.is_new ? <NewBadge /> : null}
                    </p>
                    <p className="text-sm text-slate-600 tabular-nums">
                      {treatment} · {formatListDate(request.created_at)}
                    </p>
                  </div>
                  <RequestStatusBadge request={request} />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The next three appointments (to confirm or to come), soonest first. */
function NextAppointments({ verified }: { verified: boolean }) {
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
              <li
                key={appointment.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0"
              >
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-medium text-slate-900">{appointmentWhen(appointment)}</p>
                  <p className="text-sm text-slate-600">
                    {appointment.patient.full_name} · {treatmentLabel(appointment.treatment_type)}
                  </p>
                </div>
                <AppointmentStatusBadge side="dentist" view={appointment.view} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RecentMessages({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
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
                    <span className="flex items-center gap-2 font-medium text-slate-900 group-hover:underline">
                      {message.patient_name}
                      {message.read ? null : <Badge tone="blue">Non lu</Badge>}
                    </span>
                    <span className="text-sm text-slate-600 tabular-nums">
                      {formatListDate(message.created_at)}
                    </span>
                  </span>
                  <span className="line-clamp-2 text-sm text-slate-700">
                    {message.from_me ? "Vous : " : null}
                    {message.body}
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

function MonthlyPerformance({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  const rows: { label: string; value: number | undefined; icon: LucideIcon }[] = [
    { label: "Demandes reçues", value: data?.monthly.received, icon: Inbox },
    { label: "Réponses envoyées", value: data?.monthly.replies, icon: Send },
    { label: "Confirmations", value: data?.monthly.confirmations, icon: CalendarCheck },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Performance mensuelle</CardTitle>
        <CardDescription>Ce mois-ci</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3">
          {rows.map(({ label, value, icon: Icon }) => (
            <div key={label} className="flex items-center justify-between gap-3">
              <dt className="flex items-center gap-2 text-slate-700">
                <Icon className="size-4 text-brand-700" aria-hidden="true" />
                {label}
              </dt>
              <dd className="font-semibold text-slate-900 tabular-nums">
                {loading ? <Skeleton className="h-5 w-8" /> : (value ?? 0)}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function PracticeStatus({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  const rate = data?.response_rate ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Statut du cabinet</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        {loading ? (
          <Skeleton className="h-6 w-36 rounded-full" />
        ) : data?.verified ? (
          <p>
            <Badge tone="green">
              <BadgeCheck aria-hidden="true" />
              Cabinet vérifié
            </Badge>
          </p>
        ) : (
          <p>
            <Badge tone="yellow">En attente de vérification</Badge>
          </p>
        )}
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-3 text-sm">
            <span id="response-rate-label" className="font-medium text-slate-700">
              Taux de réponse
            </span>
            <span className="font-semibold text-slate-900 tabular-nums">{loading ? "" : `${rate} %`}</span>
          </div>
          <Progress value={rate} aria-labelledby="response-rate-label" aria-valuetext={`${rate} %`} />
        </div>
        <div className="grid gap-0.5">
          <p className="text-sm font-medium text-slate-700">Temps de réponse moyen</p>
          {loading ? (
            <Skeleton className="h-7 w-20" />
          ) : (
            <p className="text-xl font-bold text-slate-900 tabular-nums">
              {data?.average_response_minutes == null ? (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">Pas encore de réponse</span>
                </>
              ) : (
                formatMinutes(data.average_response_minutes)
              )}
            </p>
          )}
          <p className="text-sm text-slate-600">Calculé sur 30 jours</p>
        </div>
        <Link to="/dentist/profile" className={linkClasses}>
          Voir mon profil
        </Link>
      </CardContent>
    </Card>
  );
}

/** /dentist/dashboard (spec §2 dentist screens, issue 5). */
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
