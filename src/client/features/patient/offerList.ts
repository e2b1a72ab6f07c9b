import { formatEuros } from "../../../shared/format/money";
import { savingOf } from "../../../shared/policies/offers";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { Comparison } from "../../../shared/schemas/quotes";

/** The request's offers as the patient lists, sorts and compares them (issue 15). */

export type OfferOrder = "rest" | "price" | "recent" | "rating";

/** Where patients read a dentist's published reviews (issue 36). */
export const dentistReviewsPath = (dentistId: string) =>
  `/patient/dentists/${encodeURIComponent(dentistId)}/reviews`;

/** Each offer's estimated reste à charge, by offer id (from the comparison). */
export type RestByOffer = ReadonlyMap<string, number>;

export function restByOffer(comparison: Comparison | undefined): RestByOffer {
  return new Map((comparison?.offers ?? []).map((o) => [o.offer_id, o.estimate.total.rest_cents]));
}

/**
 * The offers in the patient's chosen order: by estimated reste à charge (an offer without estimate
 * after the others, by price), by amount, or newest first. Equal figures: the oldest offer first.
 */
export function sortOffers(
  offers: readonly PatientOffer[],
  order: OfferOrder,
  rests: RestByOffer = new Map(),
): PatientOffer[] {
  const byDate = (a: PatientOffer, b: PatientOffer) => b.created_at.localeCompare(a.created_at);
  const rest = (o: PatientOffer) => rests.get(o.id) ?? Number.POSITIVE_INFINITY;
  return [...offers].sort((a, b) => {
    if (order === "recent") return byDate(a, b);
    // Best rated first, only when the patient asks (issue 36); no review yet: after the others.
    if (order === "rating") {
      const mark = (o: PatientOffer) => o.dentist.rating.average ?? Number.NEGATIVE_INFINITY;
      if (mark(a) !== mark(b)) return mark(b) - mark(a);
      if (a.dentist.rating.count !== b.dentist.rating.count)
        return b.dentist.rating.count - a.dentist.rating.count;
    }
    if (order === "rest" && rest(a) !== rest(b)) return rest(a) < rest(b) ? -1 : 1;
    return a.amount_cents - b.amount_cents || -byDate(a, b);
  });
}

/** 'Économie estimée : 420,00 € (35 %)' against the patient's quote, or null without a saving. */
export function savingText(quoteCents: number | null, offerCents: number): string | null {
  const saving = savingOf(quoteCents, offerCents);
  return saving ? `Économie estimée\u202f: ${formatEuros(saving.cents)} (${saving.percent}\u00a0%)` : null;
}

/** The offers worth comparing: all but the ones their dentist withdrew. */
export function comparableOffers(offers: readonly PatientOffer[]): PatientOffer[] {
  return offers.filter((offer) => offer.state !== "withdrawn");
}

/** At most this many offers side by side (four columns still fit a laptop screen). */
export const MAX_COMPARED = 4;

/** /patient/request/{id}/compare?offres=id1,id2 */
export function compareUrl(requestId: string, offerIds: readonly string[]): string {
  const base = `/patient/request/${encodeURIComponent(requestId)}/compare`;
  return offerIds.length > 0 ? `${base}?offres=${offerIds.map(encodeURIComponent).join(",")}` : base;
}
