import { useId } from "react";
import type { PatientOffer } from "../../../../shared/schemas/offers";
import { cn } from "../../../lib/cn";
import { type CompareRow, OfferDentist } from "./CompareCards";

const criteria =
  "sticky left-0 z-10 w-28 min-w-28 border-r border-slate-200 bg-slate-50 px-3 py-3 sm:w-48 sm:min-w-48";

/**
 * The comparison from a tablet up: one column per offer, the criteria in a sticky first column
 * (it scrolls sideways when the offers do not fit).
 */
export function CompareTable({
  offers,
  rows,
  isBest,
  treatment,
}: {
  offers: PatientOffer[];
  rows: CompareRow[];
  isBest: (offer: PatientOffer) => boolean;
  treatment: string;
}) {
  const captionId = useId();
  // `relative`: the table's screen-reader-only texts are absolutely positioned; without a
  // positioned scroll container they escape its clipping and widen the page on a phone.
  return (
    <section
      className="relative overflow-x-auto rounded-ui border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700"
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone it scrolls sideways; the keyboard must reach it.
      tabIndex={0}
    >
      <table className="w-full border-collapse text-left text-sm tabular-nums">
        <caption id={captionId} className="sr-only">
          Comparaison des propositions pour votre demande : {treatment}
        </caption>
        <thead className="border-b border-slate-200">
          <tr>
            <td className={cn(criteria, "z-20")}>
              <span className="sr-only">Critère</span>
            </td>
            {offers.map((o) => (
              <th
                key={o.id}
                scope="col"
                // Equal columns: no offer looks bigger because its text is longer.
                style={{ width: `${100 / offers.length}%` }}
                className={cn("min-w-52 px-3 py-3 sm:px-4 align-top font-normal", isBest(o) && "bg-green-50")}
              >
                <OfferDentist offer={o} as="span" />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className={cn(criteria, "align-top font-semibold text-slate-700")}>
                {row.label}
              </th>
              {offers.map((o) => (
                <td
                  key={o.id}
                  className={cn(
                    "min-w-52 px-3 py-3 sm:px-4 align-top text-slate-900",
                    isBest(o) && "bg-green-50/60",
                  )}
                >
                  {row.cell(o)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
