import { BASKET_LABELS } from "../../../../shared/domain/acts";
import type { Basket } from "../../../../shared/domain/out-of-pocket";
import { formatEuros } from "../../../../shared/format/money";
import { READING_MESSAGES, type ReadingChoice, type TariffField } from "../../../../shared/schemas/reading";
import { ToCheckBadge } from "../../../components/quote/ToCheckBadge";
import { Button } from "../../../components/ui/Button";
import type { TariffComparison } from "./readLines";

const FIELD_LABELS: Record<TariffField, string> = {
  basket: "Panier",
  br_cents: "Base de remboursement",
  amo_cents: "Part de l'Assurance Maladie",
};

const figure = (field: TariffField, value: number | Basket) =>
  field === "basket" ? BASKET_LABELS[value as Basket] : formatEuros(value as number);

/**
 * Under a read line (issue 34, ADR 043): each figure printed on the devis that the act table contradicts
 * on the devis's day, both shown — "Lu sur le devis : 107,50 € · Tarif de l'Assurance Maladie au
 * 2 mars 2026 : 120,00 €" — flagged "À vérifier" until the patient decides, with "Utiliser le tarif"
 * (and back: "Garder la valeur lue"); a figure not printed says so beside the table's, filled from it.
 */
export function TariffComparisons({
  comparisons,
  lineNumber,
  chosen,
  onChoose,
  disabled,
}: {
  comparisons: readonly TariffComparison[];
  /** 1-based, for the buttons' names ("Utiliser le tarif : Base de remboursement, ligne 1"). */
  lineNumber: number;
  chosen: (field: TariffField) => ReadingChoice["use"] | undefined;
  onChoose: (field: TariffField, use: ReadingChoice["use"]) => void;
  disabled?: boolean;
}) {
  if (comparisons.length === 0) return null;
  return (
    <div className="mt-2 grid gap-2 rounded-ui border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <ul className="grid gap-2">
        {comparisons.map((c) => {
          const use = chosen(c.field);
          return (
            <li key={c.field} className="flex flex-wrap items-center justify-between gap-2">
              <p className="min-w-0 wrap-anywhere">
                <span className="font-semibold">{FIELD_LABELS[c.field]}</span>{" "}
                {use === undefined && c.read !== null ? <ToCheckBadge /> : null}
                <br />
                {c.read === null
                  ? READING_MESSAGES.notPrinted
                  : `${READING_MESSAGES.readOnQuote} : ${figure(c.field, c.read)}`}
                {" · "}
                {READING_MESSAGES.tariffOn(c.day)} : {figure(c.field, c.table)}
                {use === "table" ? (
                  <span className="font-semibold"> — {READING_MESSAGES.tariffChosen}</span>
                ) : null}
              </p>
              {c.read === null ? null : use === "table" ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={disabled}
                  aria-label={`${READING_MESSAGES.keepRead} : ${FIELD_LABELS[c.field]}, ligne ${lineNumber}`}
                  onClick={() => onChoose(c.field, "read")}
                >
                  {READING_MESSAGES.keepRead}
                </Button>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={disabled}
                  aria-label={`${READING_MESSAGES.useTariff} : ${FIELD_LABELS[c.field]}, ligne ${lineNumber}`}
                  onClick={() => onChoose(c.field, "table")}
                >
                  {READING_MESSAGES.useTariff}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-amber-900">{READING_MESSAGES.tariffHint}</p>
    </div>
  );
}
