import { CalendarClock, CheckCircle2, Inbox, type LucideIcon, MessagesSquare } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import { placeLabel } from "../../../shared/domain/geo";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatAppointmentTime, formatListDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { ofName } from "../../../shared/format/names";
import { countLabel } from "../../../shared/format/plural";
import type { DentistTodo } from "../../../shared/schemas/dentist";
import { appointmentAnchor } from "../../components/appointments/anchor";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Skeleton } from "../../components/ui/Skeleton";
import { NewBadge } from "../../components/ui/StatusBadge";
import { SetAsideButton } from "./SetAsideButton";

const linkClasses = "text-sm font-medium text-brand-700 underline-offset-4 hover:underline";

interface Row {
  key: string;
  title: ReactNode;
  detail: string;
  action: { label: string; to: string; name: string };
  /** A second, quieter action beside the button (a request's « Écarter », ADR 091). */
  aside?: ReactNode;
}

/** One kind of work: its title and counter, its first rows with their button, a link to the rest. */
function TodoGroup({
  icon: Icon,
  title,
  count,
  rows,
  empty,
  more,
}: {
  icon: LucideIcon;
  title: string;
  count: number;
  rows: Row[];
  empty: string;
  more: { label: string; to: string };
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid content-start gap-3">
      <h3 id={id} className="flex items-center gap-2 font-semibold text-slate-900">
        <Icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
        {title}
        <span
          className="ml-auto min-w-6 rounded-full bg-brand-50 px-2 text-center text-sm leading-6 font-semibold text-brand-900 tabular-nums"
          data-testid="todo-count"
        >
          {count}
        </span>
      </h3>
      {rows.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <CheckCircle2 className="size-4 shrink-0 text-green-700" aria-hidden="true" />
          {empty}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-labelledby={id}>
          {rows.map((row) => (
            <li key={row.key} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2.5">
              <div className="grid min-w-0 gap-0.5">
                <p className="flex flex-wrap items-center gap-2 font-medium wrap-anywhere text-slate-900">
                  {row.title}
                </p>
                <p className="text-sm text-slate-600 tabular-nums">{row.detail}</p>
              </div>
              <span className="flex items-center gap-2">
                {row.aside}
                <Button asChild size="sm">
                  <Link to={row.action.to} aria-label={row.action.name}>
                    {row.action.label}
                  </Link>
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {count > rows.length ? (
        <Link to={more.to} className={linkClasses}>
          {more.label}
        </Link>
      ) : null}
    </section>
  );
}

/**
 * "À faire", the dashboard's first block (issue 16): requests to answer ('Répondre'), appointments
 * waiting for this dentist ('Confirmer'), conversations with unread messages ('Ouvrir'). The counts
 * come from the server; the live channel refreshes them.
 */
export function TodoCard({
  todo,
  loading,
  verified,
}: {
  todo?: DentistTodo;
  loading: boolean;
  verified: boolean;
}) {
  const total = todo ? todo.requests.count + todo.appointments.count + todo.conversations.count : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">À faire</CardTitle>
        <CardDescription>
          {!loading && total === 0
            ? "Rien ne vous attend pour le moment."
            : "Les demandes, les rendez-vous et les messages qui attendent votre action."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {loading || !todo ? (
          <div aria-busy="true" className="grid gap-3">
            <Skeleton className="h-6 w-48" />
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : (
          <div className="grid gap-6 md:grid-cols-3">
            <TodoGroup
              icon={Inbox}
              title="Demandes à traiter"
              count={todo.requests.count}
              empty={verified ? "Aucune demande à traiter." : "Visible une fois votre compte vérifié."}
              more={{
                label: `Voir les ${countLabel(todo.requests.count, "demande", "demandes")}`,
                to: "/dentist/quote-requests?status=pending",
              }}
              rows={todo.requests.items.map((r) => ({
                key: r.id,
                title: (
                  <>
                    {r.patient_name}
                    {r.is_new ? <NewBadge /> : null}
                  </>
                ),
                detail: [
                  placeLabel(r.patient_city, r.distance_km),
                  treatmentLabel(r.treatment_type),
                  formatListDate(r.created_at),
                  r.quote_amount_cents === null
                    ? "montant du devis non renseigné"
                    : `devis ${formatEuros(r.quote_amount_cents)}`,
                ]
                  .filter(Boolean)
                  .join(" · "),
                action: {
                  label: "Répondre",
                  to: `/dentist/patient-submission/${r.id}`,
                  name: `Répondre à ${r.patient_name} (${treatmentLabel(r.treatment_type)})`,
                },
                // Not for him (too far, not his practice): out of « À faire » without opening it.
                aside: <SetAsideButton request={r} size="sm" />,
              }))}
            />
            <TodoGroup
              icon={CalendarClock}
              title="Rendez-vous à confirmer"
              count={todo.appointments.count}
              empty="Aucun rendez-vous à confirmer."
              more={{ label: "Voir tous les rendez-vous", to: "/dentist/appointments" }}
              rows={todo.appointments.items.map((a) => ({
                key: a.id,
                title: a.patient_name,
                detail: a.first_option
                  ? // The slot she asked for, or the earliest of those she proposed.
                    `${treatmentLabel(a.treatment_type)} · ${a.options_count > 1 ? `premier de ${a.options_count} créneaux` : "créneau demandé"}\u202f: ${formatAppointmentTime(a.first_option)}`
                  : treatmentLabel(a.treatment_type),
                action: {
                  label: "Confirmer",
                  // To this appointment's card, outlined, not the top of the list.
                  to: `/dentist/appointments#${appointmentAnchor(a.id)}`,
                  name: `Confirmer le rendez-vous ${ofName(a.patient_name)}`,
                },
              }))}
            />
            <TodoGroup
              icon={MessagesSquare}
              title="Conversations non lues"
              count={todo.conversations.count}
              empty="Aucun message non lu."
              more={{ label: "Voir tous les messages", to: "/dentist/messages" }}
              rows={todo.conversations.items.map((c) => ({
                key: c.id,
                title: c.patient_name,
                detail: `${countLabel(c.unread_count, "message non lu", "messages non lus")} · ${formatListDate(c.last_message_at)}`,
                action: {
                  label: "Ouvrir",
                  to: `/dentist/messages/${c.id}`,
                  name: `Ouvrir la conversation avec ${c.patient_name}`,
                },
              }))}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
