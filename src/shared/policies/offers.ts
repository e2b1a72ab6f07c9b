import type { OfferState } from "../domain/offers";
import { parisToday, parseParisSlot } from "../format/paris";

/**
 * Offer rules shared by the server (which enforces them) and the proposal form (which explains
 * them early): the state as people see it, the patient's saving, and slots in Europe/Paris time.
 */
// The Paris clock lives in format/paris.ts; its helpers stay importable from here, beside the rules that use them.
export { addDays, parisLocalNow, parisLocalToDate, parisToday } from "../format/paris";

/** Is 'YYYY-MM-DDTHH:mm' (Paris) a real wall-clock time (ADR 038), after `now`? */
export function isFutureSlot(local: string, now: Date): boolean {
  const parsed = parseParisSlot(local);
  return parsed.ok && parsed.instant.getTime() > now.getTime();
}

/**
 * What people see of an offer: a sent offer whose validity day (Paris) has passed is expired;
 * otherwise its stored status.
 */
export function offerStateOf(
  offer: { status: "sent" | "accepted" | "closed" | "withdrawn"; valid_until: string | null },
  now: Date,
): OfferState {
  if (offer.status === "sent" && offer.valid_until !== null && offer.valid_until < parisToday(now))
    return "expired";
  return offer.status;
}

/**
 * 'Économie estimée' against the amount of the patient's original quote: null when the patient
 * gave no amount or the offer saves nothing.
 */
export function savingOf(
  quoteCents: number | null,
  offerCents: number,
): { cents: number; percent: number } | null {
  if (quoteCents === null || quoteCents <= 0 || offerCents >= quoteCents) return null;
  const cents = quoteCents - offerCents;
  return { cents, percent: Math.round((100 * cents) / quoteCents) };
}

/** The sum of the line items' fees, in cents. */
export function linesTotal(lines: readonly { fee_cents: number }[]): number {
  return lines.reduce((sum, line) => sum + line.fee_cents, 0);
}

/**
 * A dentist may send an offer while the request is open for the patient ('Nouvelle' or
 * 'En cours') and their own status is not 'Confirmé'; one live offer at a time (checked apart).
 */
export function mayOffer(requestStatus: string, dentistStatus: string): boolean {
  return (requestStatus === "new" || requestStatus === "in_review") && dentistStatus !== "confirmed";
}
