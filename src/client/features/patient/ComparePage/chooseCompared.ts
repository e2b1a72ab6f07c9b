import type { RequestStatus } from "../../../../shared/domain/requests";
import { formatEuros } from "../../../../shared/format/money";
import { savingOf } from "../../../../shared/policies/offers";
import type { PatientOffer } from "../../../../shared/schemas/offers";
import { comparableOffers, liveFirst, MAX_COMPARED, type RestByOffer, sortOffers } from "../offerList";

export interface ComparedOffers {
  offers: PatientOffer[];
  /** Why the offers shown are not exactly the ones asked for, or null. */
  notice: string | null;
}

/**
 * The offers of `?offres=`: the ones named (2 to 4 of the request's comparable offers, in the
 * order given); otherwise all of them when they are 2 to 4, else the four with the lowest estimated
 * reste à charge (`rests`; without it the four cheapest), said so — in both cases the ones she may
 * still accept first (`liveFirst`): an expired offer, or one of a dentist no longer verified, does
 * not take the place of one she can take.
 */
export function chooseCompared(
  all: readonly PatientOffer[],
  param: string | null,
  rests: RestByOffer,
  requestStatus: RequestStatus,
): ComparedOffers {
  const comparable = comparableOffers(all);
  const byRest = rests.size > 0;
  const cheapest = sortOffers(comparable, byRest ? "rest" : "price", rests);
  const byPrice = liveFirst(cheapest, requestStatus);
  const ids = [
    ...new Set(
      (param ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const picked = ids
    .map((id) => comparable.find((offer) => offer.id === id))
    .filter((offer): offer is PatientOffer => offer !== undefined);
  if (picked.length >= 2 && picked.length <= MAX_COMPARED) {
    return {
      offers: picked,
      notice:
        picked.length < ids.length
          ? "Certaines propositions choisies ne sont plus disponibles : elles ne sont pas comparées."
          : null,
    };
  }
  const asked = ids.length > 0;
  if (byPrice.length <= MAX_COMPARED) {
    return {
      offers: byPrice,
      notice:
        asked && byPrice.length >= 2
          ? "Votre sélection n'a pas pu être retrouvée : toutes les propositions sont comparées."
          : null,
    };
  }
  const chosen = byPrice.slice(0, MAX_COMPARED);
  // Some cheaper offer she can no longer take left out for one she can: said so.
  const openFirst = cheapest.slice(0, MAX_COMPARED).some((offer) => !chosen.includes(offer));
  return {
    offers: chosen,
    notice: `${asked ? "Votre sélection n'a pas pu être retrouvée. " : ""}Les quatre propositions ${byRest ? "au reste à charge estimé le plus bas" : "les moins chères"}${openFirst ? " que vous pouvez encore accepter" : ""} sont comparées. Pour en choisir d'autres, cochez-les sur la page de la demande.`,
  };
}

/** '420,00 € (35 %)' saved against the patient's quote, or null. */
export function savingCell(quoteCents: number | null, offerCents: number): string | null {
  const saving = savingOf(quoteCents, offerCents);
  return saving ? `${formatEuros(saving.cents)} (${saving.percent}\u00a0%)` : null;
}
