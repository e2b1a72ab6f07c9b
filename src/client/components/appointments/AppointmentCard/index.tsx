import { CalendarCheck, CalendarDays, CalendarX, Download, MapPin } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatAppointmentTime } from "../../../../shared/format/dates";
import { formatEuros } from "../../../../shared/format/money";
import type { Appointment } from "../../../../shared/schemas/appointments";
import { isApiError } from "../../../lib/api";
import { downloadAppointmentCalendar } from "../../../lib/appointments";
import { cn } from "../../../lib/cn";
import { OfferSlots } from "../../OfferDetails";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { AppointmentStatusBadge } from "./AppointmentStatusBadge";
import { ChangeActions } from "./ChangeActions";
import { ConfirmOptions } from "./ConfirmOptions";
import { OTHER, otherPartyName, practiceAddress } from "./text";

export { AppointmentStatusBadge } from "./AppointmentStatusBadge";
export { appointmentWhen, otherPartyName, practiceAddress } from "./text";

/** An appointment as one side sees it (ADR 011): its state, the other party, the time and what to do. */

interface AppointmentCardProps {
  appointment: Appointment;
  /** The card's title (the other party's name by default). */
  title?: string;
  headingLevel?: "h2" | "h3" | "h4";
  /** Added to the card's classes (for instance to drop its frame inside another card). */
  className?: string;
  /** The present (tests); the computer's clock by default. */
  now?: Date;
  /** Shown at the card's foot (a link to the request, on the dentist's list). */
  footer?: ReactNode;
}

export function AppointmentCard({
  appointment,
  title,
  headingLevel: Heading = "h3",
  className,
  now: nowProp,
  footer,
}: AppointmentCardProps) {
  const id = useId();
  const now = nowProp ?? new Date();
  const side = appointment.my_side;
  const other = OTHER[side];
  const headingId = `${id}-heading`;
  const address = side === "patient" ? practiceAddress(appointment.dentist) : null;
  const ahead =
    appointment.view === "confirmed" &&
    appointment.starts_at !== null &&
    new Date(appointment.starts_at).getTime() > now.getTime();

  const [downloading, setDownloading] = useState(false);
  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadAppointmentCalendar(appointment.id);
    } catch (error) {
      toast.error("Impossible de télécharger le fichier d'agenda", {
        description: isApiError(error) ? error.message : undefined,
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card role="article" className={cn("grid gap-4 p-5", className)} aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="grid min-w-0 gap-0.5">
          <Heading id={headingId} className="text-lg font-semibold text-slate-900">
            {title ?? otherPartyName(appointment)}
          </Heading>
          {title && side === "dentist" ? (
            <p className="text-slate-700">Patient : {appointment.patient.full_name}</p>
          ) : null}
          {title && side === "patient" ? (
            <p className="text-slate-700">{otherPartyName(appointment)}</p>
          ) : null}
          <p className="text-sm text-slate-600">
            {treatmentLabel(appointment.treatment_type)} ·{" "}
            <span className="tabular-nums">{formatEuros(appointment.amount_cents)}</span>
          </p>
          {address ? (
            <p className="flex items-center gap-1.5 text-sm text-slate-600">
              <MapPin className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
              {address}
            </p>
          ) : null}
        </div>
        <AppointmentStatusBadge side={side} view={appointment.view} />
      </div>

      <AppointmentTime appointment={appointment} />

      {appointment.view === "awaiting_me" && appointment.may_confirm ? (
        <ConfirmOptions appointment={appointment} now={now} />
      ) : null}

      {appointment.view === "awaiting_other" && appointment.options.length > 0 ? (
        <div className="grid gap-2">
          <OfferSlots
            slots={appointment.options}
            label={appointment.options.length > 1 ? "Créneaux que vous avez proposés" : "Créneau proposé"}
          />
          <p className="text-sm text-slate-600">
            {other.The} doit confirmer{" "}
            {appointment.options.length > 1 ? "l'un de ces créneaux" : "ce créneau"}.
          </p>
        </div>
      ) : null}

      {appointment.view === "cancelled" ? (
        <p className="flex items-center gap-2 text-slate-700">
          <CalendarX className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
          {appointment.cancelled_by === side
            ? "Vous avez annulé ce rendez-vous."
            : appointment.cancelled_by
              ? `${OTHER[side].The} a annulé ce rendez-vous.`
              : "Ce rendez-vous a été annulé."}
        </p>
      ) : null}

      {appointment.may_change || ahead ? (
        <ChangeActions appointment={appointment} now={now}>
          {ahead ? (
            <Button variant="outline" loading={downloading} onClick={() => void onDownload()}>
              <Download aria-hidden="true" />
              Ajouter à mon agenda (.ics)
            </Button>
          ) : null}
        </ChangeActions>
      ) : null}
      {footer}
    </Card>
  );
}

/** The confirmed (or past) time in long French, Paris time. */
function AppointmentTime({ appointment }: { appointment: Appointment }) {
  if (appointment.starts_at === null) return null;
  const when = formatAppointmentTime(appointment.starts_at);
  if (appointment.view === "cancelled") return <p className="text-sm text-slate-600">Prévu le {when}</p>;
  const Icon = appointment.view === "past" ? CalendarDays : CalendarCheck;
  return (
    <p className="flex items-center gap-2 font-medium text-slate-900">
      <Icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
      <span>
        <span className="sr-only">Rendez-vous le </span>
        {when}
      </span>
    </p>
  );
}
