import type { NavigateFunction } from "react-router";
import { Link } from "react-router";
import { placeLabel } from "../../../../shared/domain/geo";
import { BOOKING_ANCHOR } from "../../../../shared/domain/journey";
import { formatDetailDate } from "../../../../shared/format/dates";
import { formatEuros } from "../../../../shared/format/money";
import { offerAcceptBlocker } from "../../../../shared/policies/appointments";
import type { PatientOffer } from "../../../../shared/schemas/offers";
import type { Comparison } from "../../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { EstimateDetails } from "../../../components/estimate/EstimateDetails";
import { RestFigure, restSaving, SanteBadge } from "../../../components/estimate/EstimateParts";
import { OfferLines, OfferSlots, OfferStateBadge, validityText } from "../../../components/OfferDetails";
import { Badge } from "../../../components/ui/Badge";
import { AcceptOfferButton, acceptBlockerText } from "../AcceptOfferDialog";
import { NOT_DETAILED } from "../OfferItem";
import { stillOpenToHer, untreatedText } from "../offerList";
import type { CompareRow } from "./CompareCards";
import { savingCell } from "./chooseCompared";
import { None } from "./None";

/** Under the price saving of an offer without lines, where the others save on the reste à charge. */
const NOT_DETAILED_SAVING = "sur le prix (proposition non détaillée)";

/**
 * The criteria of the comparison, row by row, for the offers compared: with the estimates
 * (issue 15) the reste à charge and its calculation, else the price; the column set apart
 * (`isBest`) is the lowest of that figure among the offers that treat the whole devis (a partial
 * offer's lower total is not a lower price for the same care: it is said partial, never set apart)
 * and that the patient took or may still accept.
 */
export function compareRows({
  request,
  comparison,
  offers,
  requestPath,
  navigate,
}: {
  request: RequestDetail;
  comparison: Comparison | undefined;
  offers: PatientOffer[];
  requestPath: string;
  navigate: NavigateFunction;
}) {
  // The column set apart: the lowest estimated reste à charge, or the lowest price without estimates.
  const estimateOf = (o: PatientOffer) => comparison?.offers.find((e) => e.offer_id === o.id);
  const figureOf = (o: PatientOffer) => estimateOf(o)?.estimate.total.rest_cents ?? o.amount_cents;
  // Prices only while no compared offer is detailed line by line (nothing to estimate then).
  const estimated =
    comparison !== undefined &&
    offers.every((o) => estimateOf(o) !== undefined) &&
    offers.some((o) => estimateOf(o)?.structured);
  // An offer without lines has no real estimate, a partial one leaves devis teeth untreated: neither is
  // ever the lowest reste à charge. Nor is one she can no longer accept (expired, closed, of a dentist
  // no longer verified): the badge does not point at an offer she cannot take.
  const whole = (o: PatientOffer) =>
    !estimated || (estimateOf(o)?.structured === true && !estimateOf(o)?.partial);
  const ranked = offers.filter((o) => whole(o) && stillOpenToHer(o, request.status));
  const figure = (o: PatientOffer) => (estimated ? figureOf(o) : o.amount_cents);
  const lowest = Math.min(...ranked.map(figure));
  const isBest = (o: PatientOffer) => ranked.includes(o) && figure(o) === lowest;
  // A partial offer she may take, lower than the best complete one: the badge says what it compares.
  const partialLower =
    estimated &&
    offers.some(
      (o) =>
        estimateOf(o)?.structured &&
        estimateOf(o)?.partial &&
        stillOpenToHer(o, request.status) &&
        figure(o) < lowest,
    );
  // A lower one she can no longer take (expired, closed, its dentist no longer verified) stands beside
  // the badge: it says which offers it compares.
  const lowerGone = offers.some((o) => whole(o) && !stillOpenToHer(o, request.status) && figure(o) < lowest);
  const bestRest = partialLower
    ? "Le plus bas pour tout le devis"
    : lowerGone
      ? "Le plus bas encore valable"
      : "Reste à charge le plus bas";
  const cheapest = lowerGone ? "Le moins cher encore valable" : "Le moins cher";
  const original = comparison?.original ?? null;
  // The savings are on the reste à charge when both my devis and the offers are detailed.
  const restSavings = estimated && original !== null;
  const allOffers = request.offers ?? [];
  const othersToClose = (id: string) => allOffers.filter((o) => o.id !== id && o.state === "sent").length;
  const quote = request.quote_amount_cents;

  const rows: CompareRow[] = [
    // The commune and, when both postal codes are known, the distance (ADR 019).
    {
      key: "city",
      label: "Ville",
      cell: (o) => placeLabel(o.dentist.city, o.dentist.distance_km) ?? <None />,
    },
    {
      key: "specialties",
      label: "Spécialités",
      cell: (o) => (o.dentist.specialties.length > 0 ? o.dentist.specialties.join(" · ") : <None />),
    },
    estimated
      ? {
          key: "rest",
          label: "Reste à charge estimé",
          cell: (o) => {
            const e = estimateOf(o);
            if (e && !e.structured)
              return (
                <div className="grid justify-items-start gap-1">
                  {/* Its price is no reste à charge: said as a price, under a figure it does not have. */}
                  <None label="Non estimé" />
                  <span className="text-slate-700">
                    Prix :{" "}
                    <span className="font-medium text-slate-900 tabular-nums">
                      {formatEuros(o.amount_cents)}
                    </span>
                  </span>
                  <span className="text-slate-600">{NOT_DETAILED}</span>
                </div>
              );
            return (
              <div className="grid justify-items-start gap-1">
                <RestFigure restCents={figureOf(o)} feeCents={o.amount_cents} size="md" hideLabel />
                <div className="flex flex-wrap gap-1.5">
                  {isBest(o) ? <Badge tone="green">{bestRest}</Badge> : null}
                  {e?.partial ? <Badge tone="yellow">Proposition partielle</Badge> : null}
                  {e?.estimate.all_sante ? <SanteBadge /> : null}
                </div>
                {e?.partial ? <span className="text-slate-700">{untreatedText(e)}</span> : null}
              </div>
            );
          },
        }
      : {
          key: "amount",
          label: "Montant",
          cell: (o) => (
            <div className="grid justify-items-start gap-1">
              <span className="text-xl font-semibold text-slate-900">{formatEuros(o.amount_cents)}</span>
              {isBest(o) ? <Badge tone="green">{cheapest}</Badge> : null}
            </div>
          ),
        },
    {
      key: "saving",
      label: (
        <>
          {/* The price's saving, as the request page names it, unless it is the reste à charge's. */}
          {restSavings ? "Économie estimée" : "Économie estimée sur le prix"}
          {restSavings ? (
            <span className="block font-normal text-slate-600">
              sur le reste à charge de votre devis (
              <span className="tabular-nums">{formatEuros(original.total.rest_cents)}</span>)
              {/* Beside an offer without lines, whose saving is on the price: both bases named. */}
              {quote !== null && quote > 0 && offers.some((o) => estimateOf(o)?.structured === false) ? (
                <>
                  , ou sur son prix (<span className="tabular-nums">{formatEuros(quote)}</span>) pour une
                  proposition non détaillée
                </>
              ) : null}
            </span>
          ) : quote !== null && quote > 0 ? (
            <span className="block font-normal text-slate-600">
              par rapport à votre devis de <span className="tabular-nums">{formatEuros(quote)}</span>
            </span>
          ) : null}
        </>
      ),
      cell: (o) => {
        // Against the reste à charge of my devis when both are detailed, else against its price.
        const e = estimateOf(o);
        // An offer without lines: its price against the devis's, said as such (as on the request page).
        if (restSavings && e && !e.structured) {
          const onPrice = savingCell(quote, o.amount_cents);
          return onPrice ? (
            <span>
              <span className="font-medium text-green-800">{onPrice}</span>
              <span className="block text-slate-700">{NOT_DETAILED_SAVING}</span>
            </span>
          ) : (
            <None label="Non estimée" />
          );
        }
        // A partial offer: against the devis's reste à charge on the teeth it treats only.
        if (restSavings && e?.partial && e.saving_cents === null)
          return <None label="Aucun acte en commun avec votre devis" />;
        const saving = restSavings
          ? restSaving(e?.saving_cents ?? null, e?.original_rest_cents ?? original?.total.rest_cents ?? null)
          : savingCell(quote, o.amount_cents);
        const part =
          restSavings && e?.partial && e.original_rest_cents !== null ? (
            <span className="block text-slate-700">
              sur la partie de votre devis qu'elle traite (
              <span className="tabular-nums">{formatEuros(e.original_rest_cents)}</span>)
            </span>
          ) : null;
        return saving ? (
          <span>
            <span className="font-medium text-green-800">{saving}</span>
            {part}
          </span>
        ) : (
          <span>
            <None label="Aucune économie estimée" />
            {part}
          </span>
        );
      },
    },
    {
      key: "validity",
      label: "Validité",
      cell: (o) =>
        o.state === "expired" ? "Expirée" : o.valid_until ? validityText(o.valid_until) : "Sans date limite",
    },
    { key: "state", label: "État", cell: (o) => <OfferStateBadge state={o.state} /> },
    { key: "received", label: "Reçue le", cell: (o) => formatDetailDate(o.created_at) },
    {
      key: "lines",
      label: "Détail des actes",
      cell: (o) =>
        o.lines.length > 0 ? (
          <OfferLines lines={o.lines} hideLabel showBasket />
        ) : (
          <None label="Non détaillé" />
        ),
    },
    ...(estimated
      ? [
          {
            key: "calculation",
            label: "Calcul du reste à charge",
            cell: (o: PatientOffer) => {
              const e = estimateOf(o);
              return e?.structured ? (
                <EstimateDetails estimate={e.estimate} cover={comparison?.cover ?? null} />
              ) : (
                <None label="Non estimé" />
              );
            },
          },
        ]
      : []),
    {
      key: "slots",
      label: "Créneaux proposés",
      cell: (o) =>
        o.slots.length > 0 ? (
          <OfferSlots slots={o.slots} taken={o.taken_slots} hideLabel />
        ) : (
          <None label="Aucun créneau proposé" />
        ),
    },
    {
      key: "comment",
      label: "Commentaire",
      cell: (o) =>
        o.comment ? (
          <p className="whitespace-pre-line wrap-anywhere">{o.comment}</p>
        ) : (
          <None label="Aucun commentaire" />
        ),
    },
    {
      key: "decision",
      label: "Votre choix",
      cell: (o) => {
        if (o.state === "accepted") {
          return (
            <div className="grid justify-items-start gap-2">
              <p className="font-medium text-green-800">Vous avez accepté cette proposition.</p>
              <Link
                to={requestPath}
                className="font-medium text-brand-700 underline-offset-2 hover:underline"
              >
                Choisir mon rendez-vous
              </Link>
            </div>
          );
        }
        const blocker = offerAcceptBlocker(o.state, request.status, o.dentist.is_verified);
        return blocker === null ? (
          <AcceptOfferButton
            requestId={request.id}
            offer={o}
            othersToClose={othersToClose(o.id)}
            size="sm"
            onAccepted={() => navigate(`${requestPath}#${BOOKING_ANCHOR}`)}
          />
        ) : (
          <span className="text-slate-600">{acceptBlockerText(blocker)}</span>
        );
      },
    },
  ];
  return { rows, isBest, estimated, original, restSavings };
}
