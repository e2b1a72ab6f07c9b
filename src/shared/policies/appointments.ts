import type {
  AppointmentSide,
  AppointmentStatus,
  AppointmentView,
  ReminderKind,
} from "../domain/appointments";
import { REMINDERS } from "../domain/appointments";
import type { OfferState } from "../domain/offers";

/**
 * Rules of accepting an offer and of booking (ADR 011), shared by the server (which
 * enforces them) and the screens (which only show what is possible).
 */

/**
 * Why an offer cannot be accepted, or null when it can: only a sent, unexpired offer on an open
 * request, of a dentist still verified (the server reads his standing itself: offers.service).
 */
export function offerAcceptBlocker(
  offerState: OfferState,
  requestStatus: string,
  dentistVerified = true,
): "already_decided" | "cancelled" | "expired" | "withdrawn" | "dentist_unverified" | null {
  if (requestStatus === "cancelled") return "cancelled";
  if (offerState === "withdrawn") return "withdrawn";
  if (offerState === "expired") return "expired";
  if (requestStatus === "accepted" || requestStatus === "completed" || offerState !== "sent")
    return "already_decided";
  if (!dentistVerified) return "dentist_unverified";
  return null;
}

/**
 * ADR 016: the patient may withdraw their acceptance (the offer back to 'sent', the others
 * reopened) until an appointment on it is confirmed; a pending or cancelled one does not stop it.
 */
export function mayUnacceptOffer(offerState: OfferState, liveAppointment: AppointmentStatus | null): boolean {
  return offerState === "accepted" && liveAppointment !== "confirmed";
}

/** A dentist may withdraw an offer that was not accepted, closed or already withdrawn (expired included). */
export function mayWithdrawOffer(offerState: OfferState): boolean {
  return offerState === "sent" || offerState === "expired";
}

type AppointmentLike = {
  status: AppointmentStatus;
  awaiting: AppointmentSide | null;
  starts_at: string | Date | null;
};

/** What one side sees of an appointment at `now`. */
export function appointmentViewOf(
  appointment: AppointmentLike,
  side: AppointmentSide,
  now: Date,
): AppointmentView {
  if (appointment.status === "cancelled") return "cancelled";
  if (appointment.status === "confirmed")
    return appointment.starts_at !== null && new Date(appointment.starts_at).getTime() <= now.getTime()
      ? "past"
      : "confirmed";
  return appointment.awaiting === side ? "awaiting_me" : "awaiting_other";
}

/** This side chooses one of the proposed times: the appointment waits for them. */
export function mayConfirmAppointment(
  appointment: AppointmentLike,
  side: AppointmentSide,
  now: Date,
): boolean {
  return appointmentViewOf(appointment, side, now) === "awaiting_me";
}

/** Either side may propose other times, or cancel, while the appointment is pending or to come. */
export function mayChangeAppointment(
  appointment: AppointmentLike,
  side: AppointmentSide,
  now: Date,
): boolean {
  const view = appointmentViewOf(appointment, side, now);
  return view === "awaiting_me" || view === "awaiting_other" || view === "confirmed";
}

/** Reminder e-mails of an appointment confirmed at `now`: only those still ahead. */
export function reminderSchedule(startsAt: Date, now: Date): { kind: ReminderKind; due_at: Date }[] {
  return REMINDERS.map((r) => ({ kind: r.kind, due_at: new Date(startsAt.getTime() - r.beforeMs) })).filter(
    (r) => r.due_at.getTime() > now.getTime(),
  );
}
