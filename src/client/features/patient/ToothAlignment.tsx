import { useId } from "react";
import { formatEuros } from "../../../shared/format/money";
import { drName } from "../../../shared/format/names";
import type { PatientOffer } from "../../../shared/schemas/offers";
import { ALIGNMENT_FLAGS, type AlignmentFlag, type AlignmentRow } from "../../../shared/schemas/quotes";
import { Badge, type BadgeTone } from "../../components/ui/Badge";
import { cn } from "../../lib/cn";

/*
 * Issue 15: the compared offers tooth by tooth against the patient's own quote. Rows: the teeth (then
 * the acts without a tooth); columns: 'Votre devis', then each offer in the comparison's order. What
 * differs is said in words ('matériau différent', 'dent non traitée dans cette proposition'). Like
 * the comparison above it, on a phone it scrolls sideways under a sticky column of teeth.
 */

const FLAG_TONES: Record<AlignmentFlag, BadgeTone> = {
  same: "gray",
  different_material: "blue",
  different_act: "yellow",
  missing: "yellow",
  extra: "blue",
};

/** 'Dent 36', or the row of the acts on no single tooth (an arch, a free line). */
export const toothLabel = (tooth: number | null) => (tooth === null ? "Sans dent précise" : `Dent ${tooth}`);

/** The rows about the compared offers: their cells in column order, rows where nobody has an act left out. */
export function alignedRows(rows: readonly AlignmentRow[], offerIds: readonly string[]) {
  return rows
    .map((row) => ({
      tooth: row.tooth,
      original: row.original,
      cells: offerIds.map((id) => row.offers.find((o) => o.offer_id === id) ?? null),
    }))
    .filter((row) => row.original.length > 0 || row.cells.some((cell) => cell && cell.acts.length > 0));
}

function Acts({ acts }: { acts: readonly string[] }) {
  if (acts.length === 0)
    return (
      <>
        <span aria-hidden="true" className="text-slate-600">
          —
        </span>
        <span className="sr-only">Aucun acte</span>
      </>
    );
  return (
    <ul className="grid gap-1">
      {acts.map((act, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same act may appear twice on a tooth.
        <li key={index}>{act}</li>
      ))}
    </ul>
  );
}

export function ToothAlignment({
  rows,
  offers,
}: {
  rows: readonly AlignmentRow[];
  /** The compared offers, in the columns' order. */
  offers: readonly PatientOffer[];
}) {
  const captionId = useId();
  const lines = alignedRows(
    rows,
    offers.map((o) => o.id),
  );
  if (lines.length === 0) return null;
  const sticky =
    "sticky left-0 z-10 w-20 min-w-20 border-r border-slate-200 bg-slate-50 px-3 py-3 sm:w-32 sm:min-w-32";
  const cell = "min-w-44 px-3 py-3 align-top sm:px-4";
  return (
    <div className="mt-8 grid gap-2">
      <h2 id={`${captionId}-title`} className="text-lg font-semibold text-slate-900">
        Dent par dent
      </h2>
      <p className="text-sm text-slate-600">
        Les actes de votre devis et ceux de chaque proposition, sur chaque dent, avec le reste à charge estimé
        de chaque proposition. Les différences sont signalées.
      </p>
      {/* On a phone the columns run past the screen's edge: say so (the first stays in place). */}
      <p className="text-sm text-slate-600 sm:hidden">
        Faites glisser le tableau pour voir chaque proposition.
      </p>
      <section
        className="relative overflow-x-auto rounded-ui border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone it scrolls sideways; the keyboard must reach it.
        tabIndex={0}
        aria-labelledby={`${captionId}-title`}
      >
        <table className="w-full border-collapse text-left text-sm tabular-nums">
          <caption id={captionId} className="sr-only">
            Votre devis et les propositions, dent par dent
          </caption>
          <thead className="border-b border-slate-200">
            <tr>
              <th scope="col" className={cn(sticky, "z-20 font-semibold text-slate-700")}>
                Dent
              </th>
              <th scope="col" className={cn(cell, "bg-slate-50/60 font-semibold text-slate-900")}>
                Votre devis
              </th>
              {offers.map((o) => (
                <th key={o.id} scope="col" className={cn(cell, "font-semibold text-slate-900")}>
                  {drName(o.dentist.full_name)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {lines.map((row) => (
              <tr key={row.tooth ?? "none"}>
                <th scope="row" className={cn(sticky, "align-top font-semibold text-slate-700")}>
                  {toothLabel(row.tooth)}
                </th>
                <td className={cn(cell, "bg-slate-50/60 text-slate-900")}>
                  <Acts acts={row.original} />
                </td>
                {row.cells.map((c, index) => (
                  <td key={offers[index]?.id ?? index} className={cn(cell, "text-slate-900")}>
                    <div className="grid justify-items-start gap-1.5">
                      <Acts acts={c?.acts ?? []} />
                      {c && c.acts.length > 0 ? (
                        <span className="text-slate-600">
                          {/* An offer without lines: its one line is its price, not an estimate. */}
                          {offers[index]?.lines.length === 0 ? "Prix :" : "Reste à charge :"}{" "}
                          <span className="text-slate-900">{formatEuros(c.rest_cents)}</span>
                        </span>
                      ) : null}
                      {c && c.flag !== "same" ? (
                        <Badge tone={FLAG_TONES[c.flag]}>{ALIGNMENT_FLAGS[c.flag]}</Badge>
                      ) : null}
                    </div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
