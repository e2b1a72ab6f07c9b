import { TZDate } from "@date-fns/tz";
import type { OfferState } from "../domain/offers";

/**
 * Offer rules shared by the server (which enforces them) and the proposal form (which explains
 * them early): the state as people see it, the patient's saving, and time in Europe/Paris.
 */
const TZ = "Europe/Paris";

const PARIS_PARTS = new Intl.DateTimeFormat("en-CA", {
  timeZone: TZ,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** The wall-clock time in Paris at `now`, as 'YYYY-MM-DDTHH:mm'. */
export function parisLocalNow(now: Date): string {
  const parts = Object.fromEntries(PARIS_PARTS.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Today's calendar day in Paris, 'YYYY-MM-DD'. */
export function parisToday(now: Date): string {
  return parisLocalNow(now).slice(0, 10);
}

/** Adds days to a 'YYYY-MM-DD' calendar day. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 'YYYY-MM-DDTHH:mm' read as Paris wall-clock time (summer and winter time) → the instant. */
export function parisLocalToDate(local: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) throw new RangeError(`not a local date-time: ${local}`);
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, TZ).getTime());
}

/** Is 'YYYY-MM-DDTHH:mm' (Paris) a real calendar time, after `now`? */
export function isFutureSlot(local: string, now: Date): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return false;
  return parisLocalToDate(local).getTime() > now.getTime();
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
