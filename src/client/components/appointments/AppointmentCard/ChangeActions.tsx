import { CalendarClock, CalendarX } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import { APPOINTMENT_LIMITS } from "../../../../shared/domain/appointments";
import { formatAppointmentTime } from "../../../../shared/format/dates";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../../shared/schemas/appointments";
import { isApiError } from "../../../lib/api";
import { useCancelAppointment, useProposeAppointment } from "../../../lib/appointments";
import { SlotPicker, slotsFieldError, useSlotsDraft } from "../../SlotPicker";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { OTHER, toastFailure } from "./text";

/** 'Proposer un autre créneau' / 'Déplacer le rendez-vous' and 'Annuler le rendez-vous'. */
export function ChangeActions({
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
  // The other party cannot answer new times (ADR 092): said here, not after a refused click.
  const unavailable = appointment.may_change ? unavailableText(appointment) : null;
  const mayPropose = appointment.may_change && unavailable === null;

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
      {unavailable ? <p className="text-sm text-slate-700">{unavailable}</p> : null}
      <div className="flex flex-wrap gap-3">
        {children}
        {appointment.may_change ? (
          <>
            {mayPropose ? (
              <Button
                variant="outline"
                aria-expanded={proposing}
                aria-controls={proposing ? panelId : undefined}
                onClick={() => setProposing((open) => !open)}
              >
                <CalendarClock aria-hidden="true" />
                {proposeLabel}
              </Button>
            ) : null}
            {/* Red like the destructive confirmation it opens. */}
            <Button variant="destructive-ghost" onClick={() => setCancelOpen(true)}>
              <CalendarX aria-hidden="true" />
              Annuler le rendez-vous
            </Button>
          </>
        ) : null}
      </div>

      {proposing && mayPropose ? (
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

/**
 * Why no new times can be proposed to the other party, or null when they can (what the server
 * refuses: refuseGoneDentist, refuseSuspendedPatient). An erased patient's appointment still to
 * change does not exist: the erasure calls off pending ones and waits for confirmed ones to pass.
 */
function unavailableText(appointment: Appointment): string | null {
  const standing = appointment.other_standing;
  if (appointment.my_side === "dentist")
    return standing === "suspended" ? APPOINTMENT_MESSAGES.patientSuspended : null;
  if (standing === "erased") return APPOINTMENT_MESSAGES.dentistErased;
  if (standing !== "unverified") return null;
  return appointment.view === "confirmed"
    ? APPOINTMENT_MESSAGES.dentistUnavailableConfirmed
    : APPOINTMENT_MESSAGES.dentistUnavailable;
}
