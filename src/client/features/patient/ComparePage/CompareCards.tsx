import type { ReactNode } from "react";
import { drName, ofName } from "../../../../shared/format/names";
import type { PatientOffer } from "../../../../shared/schemas/offers";
import { VerifiedBadge } from "../../../components/OfferDetails";
import { DentistRating } from "../../../components/reviews/Rating";
import { Avatar } from "../../../components/ui/Avatar";
import { cn } from "../../../lib/cn";
import { useMediaQuery } from "../../../lib/media";
import { dentistReviewsPath } from "../offerList";

/** A criterion of the comparison: its label, and the cell it shows for an offer. */
export interface CompareRow {
  label: ReactNode;
  cell: (offer: PatientOffer) => ReactNode;
  key: string;
}

const NARROW = "(max-width: 767px)";

/** Whether the screen is narrower than the table needs (below Tailwind's md). */
export function useNarrowScreen(): boolean {
  return useMediaQuery(NARROW);
}

/** Who made the offer: photo, "Dr" and name (a heading in a card), and the verified badge. */
export function OfferDentist({ offer, as: Name }: { offer: PatientOffer; as: "h2" | "span" }) {
  return (
    <div className="flex items-start gap-3">
      <Avatar name={offer.dentist.full_name} src={offer.dentist.avatar_url} />
      <div className="grid min-w-0 justify-items-start gap-1">
        <Name className="font-semibold text-slate-900 wrap-anywhere">{drName(offer.dentist.full_name)}</Name>
        {offer.dentist.is_verified ? <VerifiedBadge /> : null}
        <DentistRating rating={offer.dentist.rating} reviewsPath={dentistReviewsPath(offer.dentist.id)} />
      </div>
    </div>
  );
}

/** One criterion of an offer's card: its label, then the offer's value. */
function Criterion({ row, offer, className }: { row: CompareRow; offer: PatientOffer; className: string }) {
  return (
    <div className={className}>
      <dt className="font-semibold text-slate-700">{row.label}</dt>
      <dd className="min-w-0 wrap-anywhere text-slate-900">{row.cell(offer)}</dd>
    </div>
  );
}

/** The criteria read as short figures, aligned label | value in each card; the others full width. */
const FIGURE_ROWS = ["rest", "amount", "saving", "validity", "state", "received", "city", "specialties"];

/** The comparison on a phone: one card per offer, the same criteria in the same order in each. */
export function CompareCards({
  offers,
  rows,
  isBest,
  caption,
}: {
  offers: PatientOffer[];
  rows: CompareRow[];
  isBest: (offer: PatientOffer) => boolean;
  caption: string;
}) {
  const figures = FIGURE_ROWS.flatMap((key) => rows.filter((row) => row.key === key));
  const details = rows.filter((row) => !FIGURE_ROWS.includes(row.key) && row.key !== "decision");
  const decision = rows.find((row) => row.key === "decision");
  return (
    <ul className="grid gap-4" aria-label={caption}>
      {offers.map((o) => (
        <li
          key={o.id}
          aria-label={`Proposition ${ofName(drName(o.dentist.full_name))}`}
          className={cn(
            "grid min-w-0 gap-4 rounded-ui border bg-white p-4 text-sm shadow-sm tabular-nums",
            isBest(o) ? "border-green-600" : "border-slate-200",
          )}
        >
          <OfferDentist offer={o} as="h2" />
          <dl className="grid grid-cols-[minmax(0,8.5rem)_minmax(0,1fr)] gap-x-3 gap-y-3">
            {figures.map((row) => (
              <Criterion key={row.key} row={row} offer={o} className="contents" />
            ))}
          </dl>
          {decision ? <div className="border-t border-slate-200 pt-3">{decision.cell(o)}</div> : null}
          <dl className="grid gap-3 border-t border-slate-200 pt-3">
            {details.map((row) => (
              <Criterion key={row.key} row={row} offer={o} className="grid min-w-0 gap-1" />
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
