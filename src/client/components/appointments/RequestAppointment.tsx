import { CalendarPlus, Info } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { APPOINTMENT_LIMITS } from "../../../shared/domain/appointments";
import { formatAppointmentTime } from "../../../shared/format/dates";
import { drName, theName } from "../../../shared/format/names";
import { parisLocalNow } from "../../../shared/policies/offers";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../shared/schemas/appointments";
import type { PatientOffer } from "../../../shared/schemas/offers";
import { isApiError } from "../../lib/api";
import { useBookAppointment, useRequestAppointments } from "../../lib/appointments";
import { SlotPicker, SlotsError, slotsFieldError, useSlotsDraft } from "../SlotPicker";
import { Button } from "../ui/Button";
import { LoadError } from "../ui/LoadError";
import { Loading } from "../ui/Loading";
import { RadioCard } from "../ui/RadioCard";
import { Skeleton } from "../ui/Skeleton";
import { AppointmentCard } from "./AppointmentCard";

/*
 * Under the accepted offer of the patient's request page (ADR 011): the appointment in progress, the
 * one that took place, or the panel to book one (one of the dentist's proposed times, or up to three
 * other times).
 */

/** Pending, or confirmed and still ahead: the appointment to show instead of booking again. */
function isLive(appointment: Appointment): boolean {
  return (
    appointment.status === "pending" || (appointment.status === "confirmed" && appointment.view !== "past")
  );
}

/**
 * `finished`: the request is done (its journey says so): nothing more to book, whatever the list
 * holds.
 */
export function RequestAppointment({
  requestId,
  offer,
  finished = false,
}: {
  requestId: string;
  offer: PatientOffer;
  finished?: boolean;
}) {
  const list = useRequestAppointments(requestId, { enabled: offer.state === "accepted" });
  if (offer.state !== "accepted") return null;

  if (list.isPending)
    return (
      <Loading className="grid gap-3">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-full max-w-md" />
        <Skeleton className="h-10 w-64" />
      </Loading>
    );
  if (list.isError)
    return <LoadError title="Impossible de charger votre rendez-vous" onRetry={() => void list.refetch()} />;

  const items = list.data.items;
  const live = items.find(isLive);
  if (live)
    return (
      <AppointmentCard
        appointment={live}
        title="Votre rendez-vous"
        headingLevel="h3"
        className="border-0 p-0 shadow-none"
      />
    );

  // A confirmed appointment that is not live has taken place: the offer is settled, the server
  // refuses another one (409). Said, without a booking form; likewise on a finished request.
  const held = items.find((a) => a.status === "confirmed");
  if (held || finished)
    return (
      <p className="font-medium text-slate-800">
        {held?.starts_at
          ? `Votre rendez-vous du ${formatAppointmentTime(held.starts_at)} est passé.`
          : "Cette demande est terminée."}
      </p>
    );

  const note = items[0]?.status === "cancelled" ? "Votre rendez-vous précédent a été annulé." : null;
  // A dentist who can no longer be booked (the server refuses it, 409): said instead of the form.
  if (offer.dentist.erased || !offer.dentist.is_verified)
    return (
      <div className="grid gap-1">
        {note ? <p className="font-medium text-slate-800">{note}</p> : null}
        <p className="flex items-start gap-2 text-slate-700">
          <Info className="mt-0.5 size-4 shrink-0 text-slate-600" aria-hidden="true" />
          {offer.dentist.erased
            ? APPOINTMENT_MESSAGES.dentistErased
            : APPOINTMENT_MESSAGES.dentistNotVerified}
        </p>
      </div>
    );
  return <BookingPanel requestId={requestId} offer={offer} note={note} />;
}

const OTHER_DATES = "other";

function BookingPanel({
  requestId,
  offer,
  note,
}: {
  requestId: string;
  offer: PatientOffer;
  note: string | null;
}) {
  const id = useId();
  const book = useBookAppointment(offer.id, requestId);
  const now = new Date();
  const proposed = offer.slots.filter((slot) => new Date(slot).getTime() > now.getTime());
  // A time the dentist has since confirmed for another patient is shown, but cannot be picked (issue 32).
  const taken = new Set(offer.taken_slots);
  const free = proposed.filter((slot) => !taken.has(slot));
  const [choice, setChoice] = useState<string | null>(free.length === 0 ? OTHER_DATES : null);
  const { slots, error, setError, onSlotsChange } = useSlotsDraft();
  const headingId = `${id}-heading`;
  const errorId = `${id}-error`;
  const custom = choice === OTHER_DATES;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === null)
      return setError("Choisissez l'un des créneaux proposés, ou proposez d'autres dates.");
    if (custom && slots.length === 0) return setError(APPOINTMENT_MESSAGES.slotsRequired);
    // A proposed time is an instant: the server wants it as Paris wall-clock time.
    const sent = custom ? slots : [parisLocalNow(new Date(choice))];
    setError(undefined);
    book.mutate(sent, {
      onSuccess: () => toast.success(APPOINTMENT_MESSAGES.requested),
      onError: (failure) => {
        if (isApiError(failure)) setError(slotsFieldError(failure.fields, sent));
        toast.error(APPOINTMENT_MESSAGES.failed, {
          description: isApiError(failure) ? failure.message : undefined,
        });
      },
    });
  };

  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <div className="grid gap-1">
        <h3 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <CalendarPlus className="size-5 text-brand-700" aria-hidden="true" />
          Prendre rendez-vous
        </h3>
        {note ? <p className="font-medium text-slate-800">{note}</p> : null}
        <p className="text-slate-600">
          Choisissez l'un des créneaux proposés par {theName(drName(offer.dentist.full_name))}, ou proposez
          vos disponibilités.
        </p>
      </div>

      <form noValidate onSubmit={submit} className="grid gap-4">
        {proposed.length > 0 ? (
          <fieldset className="grid max-w-xl gap-2" aria-describedby={error && !custom ? errorId : undefined}>
            <legend className="mb-2 font-medium text-slate-900">Créneaux proposés par le dentiste</legend>
            {[...proposed, OTHER_DATES].map((value) => (
              <RadioCard
                key={value}
                name={`${id}-choice`}
                value={value}
                checked={choice === value}
                disabled={taken.has(value)}
                invalid={Boolean(error && !custom)}
                onChange={() => {
                  setError(undefined);
                  setChoice(value);
                }}
              >
                {value === OTHER_DATES ? "Proposer d'autres dates" : formatAppointmentTime(value)}
                {taken.has(value) ? APPOINTMENT_MESSAGES.takenHint : null}
              </RadioCard>
            ))}
          </fieldset>
        ) : null}

        {custom ? (
          <SlotPicker
            value={slots}
            onChange={onSlotsChange}
            legend={proposed.length > 0 ? "Vos disponibilités" : "Proposez vos disponibilités"}
            description={`Ajoutez jusqu'à ${APPOINTMENT_LIMITS.maxOptions} créneaux : le dentiste choisira celui qui lui convient.`}
            error={error}
            now={now}
            disabled={book.isPending}
          />
        ) : (
          <SlotsError id={errorId} error={error} />
        )}

        <p className="flex items-start gap-2 text-sm text-slate-600">
          <Info className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          Le dentiste confirmera votre rendez-vous. Vous le retrouverez ici et dans votre tableau de bord.
        </p>
        <div>
          {/* On a phone the label is wider than the nested cards leave: it wraps instead of
              widening the page (Button is nowrap and fixed-height by default). */}
          <Button
            type="submit"
            loading={book.isPending}
            className="h-auto! min-h-10 py-2 text-left whitespace-normal!"
          >
            Envoyer ma demande de rendez-vous
          </Button>
        </div>
      </form>
    </section>
  );
}
