import { useId } from "react";
import { useNavigate } from "react-router";
import { placeLabel } from "../../../shared/domain/geo";
import { BOOKING_ANCHOR } from "../../../shared/domain/journey";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { drName, ofName } from "../../../shared/format/names";
import { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { OFFER_MESSAGES, type PatientOffer } from "../../../shared/schemas/offers";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { EstimateDetails } from "../../components/estimate/EstimateDetails";
import { RestFigure, restSaving, SanteBadge } from "../../components/estimate/EstimateParts";
import {
  OfferLines,
  OfferSlots,
  OfferStateBadge,
  VerifiedBadge,
  validityText,
} from "../../components/OfferDetails";
import { DentistRating } from "../../components/reviews/Rating";
import { Avatar } from "../../components/ui/Avatar";
import { Badge } from "../../components/ui/Badge";
import { Checkbox } from "../../components/ui/Checkbox";
import { Label } from "../../components/ui/Label";
import { AcceptOfferButton } from "./AcceptOfferDialog";
import { dentistReviewsPath, savingText, untreatedText } from "./offerList";

/** Said of an offer without lines, where the others show their reste à charge. */
export const NOT_DETAILED = "Proposition non détaillée : reste à charge non estimé";

/**
 * One offer on the request page: the dentist; the estimated reste à charge as the main figure with
 * the price beside it and the saving against the patient's own quote (issue 15) — or the price alone
 * while the estimate is unknown or the offer is not detailed; then its terms, lines, slots and the
 * patient's choices.
 */
export function OfferItem({
  offer,
  request,
  comparison,
  othersToClose,
  compare,
}: {
  offer: PatientOffer;
  request: RequestDetail;
  comparison: Comparison | undefined;
  othersToClose: number;
  compare: { checked: boolean; onChange: (checked: boolean) => void } | null;
}) {
  const { dentist } = offer;
  const entry = comparison?.offers.find((o) => o.offer_id === offer.id);
  // An offer without lines (sent before issue 15) has no reste à charge worth the name: price only.
  const estimated = entry?.structured ? entry : undefined;
  // Like with like: a partial offer's saving is on the part of the devis it treats (the comparison's).
  const originalRest = estimated?.original_rest_cents ?? comparison?.original?.total.rest_cents ?? null;
  const restSaved = estimated ? restSaving(estimated.saving_cents, originalRest) : null;
  // Without a structured quote of the patient's, the saving is on the price (as before issue 15); a
  // partial offer's price against the whole devis's would not be a saving at all.
  const saving =
    estimated && (estimated.saving_cents !== null || estimated.partial)
      ? restSaved &&
        `Économie estimée sur votre reste à charge\u202f: ${restSaved}${estimated.partial ? ", sur la partie de votre devis qu'elle traite" : ""}`
      : savingText(request.quote_amount_cents, offer.amount_cents);
  const compareId = useId();
  const navigate = useNavigate();
  const blocker = offerAcceptBlocker(offer.state, request.status, dentist.is_verified);
  const mayAccept = blocker === null;
  // Said where the button would be: the server refuses it (409), and the patient may choose another.
  const unverified = blocker === "dentist_unverified" ? OFFER_MESSAGES.dentistNotVerified : null;
  return (
    <li
      className={
        offer.state === "accepted"
          ? "grid gap-4 rounded-ui border-2 border-green-600 p-4"
          : "grid gap-4 rounded-ui border border-slate-200 p-4"
      }
      aria-label={`Proposition ${ofName(drName(dentist.full_name))}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 gap-3">
          <Avatar name={dentist.full_name} src={dentist.avatar_url} />
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              {drName(dentist.full_name)}
              {dentist.is_verified ? <VerifiedBadge /> : null}
            </h3>
            {placeLabel(dentist.city, dentist.distance_km) ? (
              <p className="text-sm text-slate-600">{placeLabel(dentist.city, dentist.distance_km)}</p>
            ) : null}
            {dentist.specialties.length > 0 ? (
              <p className="text-sm text-slate-600">{dentist.specialties.join(" · ")}</p>
            ) : null}
            <DentistRating
              rating={dentist.rating}
              reviewsPath={dentistReviewsPath(dentist.id)}
              className="mt-1"
            />
          </div>
        </div>
        <div className="grid justify-items-start gap-1 sm:justify-items-end sm:text-right">
          {estimated ? (
            <RestFigure
              restCents={estimated.estimate.total.rest_cents}
              feeCents={offer.amount_cents}
              align="end"
            />
          ) : (
            <p className="text-2xl font-semibold text-slate-900 tabular-nums">
              {formatEuros(offer.amount_cents)}
            </p>
          )}
          {entry && !entry.structured ? <p className="text-sm text-slate-600">{NOT_DETAILED}</p> : null}
          {saving ? <p className="text-sm font-medium text-green-800">{saving}</p> : null}
          {estimated?.partial ? (
            <p className="grid justify-items-start gap-1 text-sm text-slate-700 sm:justify-items-end">
              <Badge tone="yellow">Proposition partielle</Badge>
              {untreatedText(estimated)}
            </p>
          ) : null}
          {estimated?.estimate.all_sante || offer.state !== "sent" ? (
            <div className="flex flex-wrap gap-1.5 sm:justify-end">
              {estimated?.estimate.all_sante ? <SanteBadge /> : null}
              {offer.state !== "sent" ? <OfferStateBadge state={offer.state} /> : null}
            </div>
          ) : null}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Reçue le {formatDetailDateTime(offer.created_at)}
        {offer.valid_until ? ` · ${validityText(offer.valid_until)}` : null}
      </p>
      {offer.comment ? (
        <p className="whitespace-pre-line wrap-anywhere text-slate-800">{offer.comment}</p>
      ) : null}
      <OfferLines lines={offer.lines} showBasket />
      {estimated ? <EstimateDetails estimate={estimated.estimate} cover={comparison?.cover ?? null} /> : null}
      <OfferSlots slots={offer.slots} taken={offer.taken_slots} />
      {compare || mayAccept || unverified ? (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
          {compare ? (
            <div className="flex items-center gap-2">
              <Checkbox
                id={compareId}
                aria-label={`Comparer la proposition ${ofName(drName(dentist.full_name))}`}
                checked={compare.checked}
                onCheckedChange={(value) => compare.onChange(value === true)}
              />
              <Label htmlFor={compareId} className="font-normal text-slate-700">
                Comparer
              </Label>
            </div>
          ) : (
            <span />
          )}
          {unverified ? <p className="text-sm text-slate-700">{unverified}</p> : null}
          {mayAccept ? (
            <AcceptOfferButton
              requestId={request.id}
              offer={offer}
              othersToClose={othersToClose}
              onAccepted={() => navigate(`/patient/request/${request.id}#${BOOKING_ANCHOR}`)}
            />
          ) : null}
        </div>
      ) : null}
      {offer.state === "accepted" ? (
        <p className="border-t border-slate-200 pt-4">
          <a
            href={`#${BOOKING_ANCHOR}`}
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
            onClick={(event) => {
              event.preventDefault();
              navigate(`/patient/request/${request.id}#${BOOKING_ANCHOR}`);
            }}
          >
            {/* No appointment yet: the slot is still to choose. */}
            {request.journey.state === "accepted" ? "Choisir un créneau" : "Voir votre rendez-vous"}
          </a>
        </p>
      ) : null}
    </li>
  );
}
