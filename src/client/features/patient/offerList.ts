import { formatEuros } from "../../../shared/format/money";
import { listFr } from "../../../shared/forms/profileForm";
import { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { savingOf } from "../../../shared/policies/offers";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { Comparison } from "../../../shared/schemas/quotes";

/** The request's offers as the patient lists, sorts and compares them (issue 15). */

export type OfferOrder = "rest" | "price" | "recent" | "rating";

/** Where patients read a dentist's published reviews (issue 36). */
export const dentistReviewsPath = (dentistId: string) =>
  `/patient/dentists/${encodeURIComponent(dentistId)}/reviews`;

/** Each offer's place when sorted by reste à charge, by offer id (from the comparison). */
export type RestByOffer = ReadonlyMap<string, number>;

/**
 * Each offer's place in the comparison, by offer id: the offers treating the whole devis by reste à
 * charge, then the partial ones (a lower total for fewer teeth is not a lower price), then the ones
 * without lines (not estimated: a price is not a reste à charge).
 */
export function rankByComparison(comparison: Comparison | undefined): RestByOffer {
  return new Map((comparison?.offers ?? []).map((o, rank) => [o.offer_id, rank]));
}

/** 'Ne traite pas les dents 11 et 46.': what of the devis a partial offer leaves untreated. */
export function untreatedText(
  offer: Pick<Comparison["offers"][number], "untreated_teeth" | "untreated_acts">,
): string {
  const teeth = offer.untreated_teeth;
  const parts = [
    ...(teeth.length === 1
      ? [`la dent ${teeth[0]}`]
      : teeth.length > 1
        ? [`les dents ${listFr(teeth.map(String))}`]
        : []),
    ...offer.untreated_acts.map((act) => `l'acte ${act}`),
  ];
  return `Ne traite pas ${listFr(parts)} de votre devis.`;
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
    // Best rated first, only when the patient asks (issue 36); no review yet, or none shown (a
    // dentist not verified): after the others.
    if (order === "rating") {
      const mark = (o: PatientOffer) => o.dentist.rating?.average ?? Number.NEGATIVE_INFINITY;
      const count = (o: PatientOffer) => o.dentist.rating?.count ?? 0;
      if (mark(a) !== mark(b)) return mark(b) - mark(a);
      if (count(a) !== count(b)) return count(b) - count(a);
    }
    if (order === "rest" && rest(a) !== rest(b)) return rest(a) < rest(b) ? -1 : 1;
    return a.amount_cents - b.amount_cents || -byDate(a, b);
  });
}

/**
 * The offers as the request page lists them: the accepted one, then those the patient may still
 * accept, then the others (expired, withdrawn, closed, or of a dentist no longer verified) — each
 * group in the order given. A cheaper offer she cannot take does not come before the ones she can.
 */
export function liveFirst(offers: readonly PatientOffer[], requestStatus: string): PatientOffer[] {
  const group = (offer: PatientOffer) =>
    offer.state === "accepted" ? 0 : stillOpenToHer(offer, requestStatus) ? 1 : 2;
  return [...offers].sort((a, b) => group(a) - group(b));
}

/**
 * An offer the patient took or may still accept: not expired, withdrawn or closed, of a dentist still
 * verified, on a request still open. Only these are put forward (listed first, « le plus bas »).
 */
export function stillOpenToHer(offer: PatientOffer, requestStatus: string): boolean {
  return (
    offer.state === "accepted" ||
    offerAcceptBlocker(offer.state, requestStatus, offer.dentist.is_verified) === null
  );
}

/**
 * 'Économie estimée sur le prix : 420,00 € (35 %)': the offer's price against the amount of the
 * patient's devis (when neither is detailed enough for a reste à charge saving), or null without a
 * saving. Said « sur le prix », as it stands beside the estimated reste à charge, a different figure.
 */
export function savingText(quoteCents: number | null, offerCents: number): string | null {
  const saving = savingOf(quoteCents, offerCents);
  return saving
    ? `Économie estimée sur le prix\u202f: ${formatEuros(saving.cents)} (${saving.percent}\u00a0%)`
    : null;
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
