import { CalendarCheck } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { formatAppointmentTime } from "../../../../shared/format/dates";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../../shared/schemas/appointments";
import { isApiError } from "../../../lib/api";
import { useConfirmAppointment } from "../../../lib/appointments";
import { SlotsError, slotsFieldError } from "../../SlotPicker";
import { Button } from "../../ui/Button";
import { RadioCard } from "../../ui/RadioCard";
import { toastFailure } from "./text";

/** 'awaiting_me': choose one of the proposed times, then 'Confirmer ce créneau'. */
export function ConfirmOptions({ appointment, now }: { appointment: Appointment; now: Date }) {
  const id = useId();
  const confirm = useConfirmAppointment();
  const options = appointment.options;
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const errorId = `${id}-error`;
  const future = (option: string) => new Date(option).getTime() > now.getTime();
  // A time the dentist has since confirmed for another appointment cannot be picked (issue 32).
  const taken = new Set(appointment.taken_options);
  const selectable = options.filter((option) => future(option) && !taken.has(option));
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
        {/* The patient asks for these: one or more of the offer's, or times of her own (the
            appointment does not say which). */}
        {appointment.my_side === "patient"
          ? "Créneaux proposés par le dentiste"
          : options.length > 1
            ? "Créneaux demandés par le patient"
            : "Créneau demandé par le patient"}
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
              disabled={past || taken.has(option)}
              invalid={Boolean(error)}
              onChange={() => {
                setError(undefined);
                setChosen(option);
              }}
            >
              {formatAppointmentTime(option)}
              {past ? (
                <span className="text-slate-600"> (passé)</span>
              ) : taken.has(option) ? (
                APPOINTMENT_MESSAGES.takenHint
              ) : null}
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
