import { CalendarCheck, CalendarClock, CalendarDays, CalendarX, Download, MapPin } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import {
  APPOINTMENT_LIMITS,
  APPOINTMENT_VIEW_LABELS,
  APPOINTMENT_VIEW_TONES,
  type AppointmentSide,
  type AppointmentView,
} from "../../../shared/domain/appointments";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatAppointmentTime } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../shared/schemas/appointments";
import { isApiError } from "../../lib/api";
import {
  downloadAppointmentCalendar,
  useCancelAppointment,
  useConfirmAppointment,
  useProposeAppointment,
} from "../../lib/appointments";
import { cn } from "../../lib/cn";
import { OfferSlots } from "../OfferDetails";
import { SlotPicker, SlotsError, slotsFieldError, useSlotsDraft } from "../SlotPicker";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { ConfirmDialog } from "../ui/Dialog";
import { RadioCard } from "../ui/RadioCard";

/** An appointment as one side sees it (ADR 011): its state, the other party, the time and what to do. */

const OTHER: Record<AppointmentSide, { the: string; The: string }> = {
  patient: { the: "le dentiste", The: "Le dentiste" },
  dentist: { the: "le patient", The: "Le patient" },
};

/** The appointment's state as its French label (for this side) on its colour. */
export function AppointmentStatusBadge({
  side,
  view,
  className,
}: {
  side: AppointmentSide;
  view: AppointmentView;
  className?: string;
}) {
  return (
    // The longer labels ('En attente de confirmation du dentiste') wrap on a phone: a pill of
    // two lines reads as a blob, a rounded rectangle does not.
    <Badge tone={APPOINTMENT_VIEW_TONES[view] ?? "gray"} className={cn("max-sm:rounded-lg", className)}>
      {APPOINTMENT_VIEW_LABELS[side]?.[view] ?? view}
    </Badge>
  );
}

/** The other party's name: 'Dr Sophie Leroy' for a patient, the patient's name for a dentist. */
/** When: the confirmed time, or the times proposed and still to confirm. */
export function appointmentWhen(appointment: { starts_at: string | null; options: string[] }): string {
  if (appointment.starts_at) return formatAppointmentTime(appointment.starts_at);
  const [first] = [...appointment.options].sort((a, b) => new Date(a).getTime() - new Date(b).getTime());
  if (!first) return "Date à convenir";
  return appointment.options.length === 1
    ? `${formatAppointmentTime(first)} (à confirmer)`
    : `${appointment.options.length} créneaux proposés, dès le ${formatAppointmentTime(first)}`;
}

export function otherPartyName(appointment: Appointment): string {
  return appointment.my_side === "patient"
    ? `Dr ${appointment.dentist.full_name}`
    : appointment.patient.full_name;
}

/** '12 rue de la Paix, 75002 Paris', or null when the dentist gave none of it. */
export function practiceAddress(dentist: Appointment["dentist"]): string | null {
  const town = [dentist.postcode, dentist.city].filter(Boolean).join(" ");
  const text = [dentist.address, town].filter(Boolean).join(", ");
  return text || null;
}

/** Toasts a refused change: the server's French message under a short title. */
function toastFailure(error: unknown) {
  toast.error(APPOINTMENT_MESSAGES.failed, {
    description: isApiError(error) ? error.message : undefined,
  });
}

interface AppointmentCardProps {
  appointment: Appointment;
  /** The card's title (the other party's name by default). */
  title?: string;
  headingLevel?: "h2" | "h3" | "h4";
  /** Added to the card's classes (for instance to drop its frame inside another card). */
  className?: string;
  /** The present (tests); the computer's clock by default. */
  now?: Date;
}

export function AppointmentCard({
  appointment,
  title,
  headingLevel: Heading = "h3",
  className,
  now: nowProp,
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

/** 'awaiting_me': choose one of the proposed times, then 'Confirmer ce créneau'. */
function ConfirmOptions({ appointment, now }: { appointment: Appointment; now: Date }) {
  const id = useId();
  const confirm = useConfirmAppointment();
  const options = appointment.options;
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const errorId = `${id}-error`;
  const future = (option: string) => new Date(option).getTime() > now.getTime();
  const selectable = options.filter(future);
  const selected = chosen ?? (selectable.length === 1 ? (selectable[0] ?? null) : null);

  const onConfirm = () => {
    if (!selected) return setError("Choisissez l'un des créneaux proposés.");
    setError(undefined);
    confirm.mutate(
      { id: appointment.id, starts_at: selected },
      {
        onSuccess: () => toast.success(APPOINTMENT_MESSAGES.confirmed),
        onError: (failure) => {
          if (isApiError(failure)) setError(slotsFieldError(failure.fields) ?? undefined);
          toastFailure(failure);
        },
      },
    );
  };

  return (
    <fieldset className="grid gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 font-medium text-slate-900">
        {appointment.my_side === "patient"
          ? "Créneaux proposés par le dentiste"
          : "Créneaux proposés par le patient"}
      </legend>
      <div className="grid max-w-xl gap-2">
        {options.map((option) => {
          const past = !future(option);
          return (
            <RadioCard
              key={option}
              name={`${id}-option`}
              value={option}
              checked={selected === option}
              disabled={past}
              invalid={Boolean(error)}
              onChange={() => {
                setError(undefined);
                setChosen(option);
              }}
            >
              {formatAppointmentTime(option)}
              {past ? <span className="text-slate-600"> (passé)</span> : null}
            </RadioCard>
          );
        })}
      </div>
      <SlotsError id={errorId} error={error} />
      <div>
        <Button onClick={onConfirm} loading={confirm.isPending}>
          <CalendarCheck aria-hidden="true" />
          Confirmer ce créneau
        </Button>
      </div>
    </fieldset>
  );
}

/** 'Proposer un autre créneau' / 'Déplacer le rendez-vous' and 'Annuler le rendez-vous'. */
function ChangeActions({
  appointment,
  now,
  children,
}: {
  appointment: Appointment;
  now: Date;
  children?: ReactNode;
}) {
  const id = useId();
  const propose = useProposeAppointment();
  const cancel = useCancelAppointment();
  const [proposing, setProposing] = useState(false);
  const { slots, setSlots, error, setError, onSlotsChange } = useSlotsDraft();
  const [cancelOpen, setCancelOpen] = useState(false);
  const other = OTHER[appointment.my_side];
  const panelId = `${id}-propose`;
  const moving = appointment.view === "confirmed";
  const proposeLabel = moving ? "Déplacer le rendez-vous" : "Proposer un autre créneau";

  const onPropose = () => {
    if (slots.length === 0) return setError(APPOINTMENT_MESSAGES.slotsRequired);
    setError(undefined);
    propose.mutate(
      { id: appointment.id, slots },
      {
        onSuccess: () => {
          toast.success(APPOINTMENT_MESSAGES.proposed);
          setProposing(false);
          setSlots([]);
        },
        onError: (failure) => {
          if (isApiError(failure)) setError(slotsFieldError(failure.fields, slots));
          toastFailure(failure);
        },
      },
    );
  };

  const onCancel = () =>
    cancel.mutate(
      { id: appointment.id },
      {
        onSuccess: () => {
          toast.success(APPOINTMENT_MESSAGES.cancelled);
          setCancelOpen(false);
        },
        onError: (failure) => {
          toastFailure(failure);
          setCancelOpen(false);
        },
      },
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-3">
        {children}
        {appointment.may_change ? (
          <>
            <Button
              variant="outline"
              aria-expanded={proposing}
              aria-controls={proposing ? panelId : undefined}
              onClick={() => setProposing((open) => !open)}
            >
              <CalendarClock aria-hidden="true" />
              {proposeLabel}
            </Button>
            {/* Red like the destructive confirmation it opens. */}
            <Button variant="destructive-ghost" onClick={() => setCancelOpen(true)}>
              <CalendarX aria-hidden="true" />
              Annuler le rendez-vous
            </Button>
          </>
        ) : null}
      </div>

      {proposing && appointment.may_change ? (
        <section
          id={panelId}
          aria-label={proposeLabel}
          className="grid gap-4 rounded-ui border border-slate-200 bg-slate-50 p-4"
        >
          <SlotPicker
            value={slots}
            onChange={onSlotsChange}
            legend="Vos nouvelles disponibilités"
            description={`Proposez jusqu'à ${APPOINTMENT_LIMITS.maxOptions} créneaux : ${other.the} choisira celui qui lui convient.${
              moving && appointment.starts_at
                ? ` Le rendez-vous du ${formatAppointmentTime(appointment.starts_at)} sera remplacé par votre proposition.`
                : ""
            }`}
            error={error}
            now={now}
            disabled={propose.isPending}
          />
          <div className="flex flex-wrap gap-3">
            <Button onClick={onPropose} loading={propose.isPending}>
              Envoyer ma proposition
            </Button>
            <Button variant="ghost" onClick={() => setProposing(false)}>
              Fermer
            </Button>
          </div>
        </section>
      ) : null}

      <ConfirmDialog
        open={cancelOpen}
        onOpenChange={setCancelOpen}
        title="Annuler ce rendez-vous ?"
        description={`${other.The} en sera informé.${
          appointment.my_side === "patient" ? " Vous pourrez ensuite demander un nouveau rendez-vous." : ""
        }`}
        confirmLabel="Annuler le rendez-vous"
        cancelLabel="Garder le rendez-vous"
        destructive
        loading={cancel.isPending}
        onConfirm={onCancel}
      />
    </div>
  );
}
