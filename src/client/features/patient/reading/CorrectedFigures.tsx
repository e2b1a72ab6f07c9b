import { AlertTriangle, Check } from "lucide-react";
import { formatEuros } from "../../../../shared/format/money";
import { type CorrectableField, READING_MESSAGES } from "../../../../shared/schemas/reading";
import { ToCheckBadge } from "../../../components/quote/ToCheckBadge";
import { Button } from "../../../components/ui/Button";
import type { CorrectedFigure } from "./readLines";

const FIELD_LABELS: Record<CorrectableField, string> = {
  fee_cents: "Honoraires",
  br_cents: "Base de remboursement",
  amo_cents: "Part de l'Assurance Maladie",
};

/** The figure inside a sentence: "Garder la valeur lue pour la base de remboursement…". */
const FIELD_NAMES: Record<CorrectableField, string> = {
  fee_cents: "les honoraires",
  br_cents: "la base de remboursement",
  amo_cents: "la part de l'Assurance Maladie",
};

/**
 * Under a read line (issue 34, ADR 043 addendum): each amount the reading corrected because the devis
 * proved an OCR slip, with what was read beside it — "Honoraires : 500,00 € — Corrigé d'après le devis
 * (lu : 50,00 €)" — and "À vérifier" in words, so the patient compares it with the devis; then
 * "Garder la valeur lue" puts the value read back (and "Garder la valeur corrigée" undoes it). One
 * button per figure whose words change, so the keyboard focus stays on it; "Valeur lue retenue" says
 * the choice in words, in a live region, and "Valeur corrigée retenue" (for screen readers) its undoing.
 */
export function CorrectedFigures({
  figures,
  actNumber,
  kept,
  recordedOnly,
  onKeep,
  disabled,
}: {
  figures: readonly CorrectedFigure[];
  /** 1-based, for the buttons' names. */
  actNumber: number;
  /** The value read is the one the line now holds (or the one chosen, for a figure without a field). */
  kept: (field: CorrectableField) => boolean;
  /** No field of the line holds this figure: the value kept goes with the reading, the estimate stays the table's. */
  recordedOnly: (field: CorrectableField) => boolean;
  onKeep: (figure: CorrectedFigure, value: "read" | "corrected") => void;
  disabled?: boolean;
}) {
  if (figures.length === 0) return null;
  return (
    <div className="mt-2 grid gap-2 rounded-ui border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <ul className="grid gap-2">
        {figures.map((f) => {
          const isKept = kept(f.field);
          const name = FIELD_NAMES[f.field];
          return (
            <li key={f.field} className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex min-w-0 items-start gap-2">
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-800" aria-hidden="true" />
                <p className="min-w-0 wrap-anywhere">
                  <span className="font-semibold">{FIELD_LABELS[f.field]}</span>{" "}
                  {isKept ? null : <ToCheckBadge />}
                  <br />
                  {formatEuros(f.value)} — {READING_MESSAGES.corrected} (
                  {READING_MESSAGES.asRead(formatEuros(f.read))})
                  <span aria-live="polite" className="block">
                    {isKept ? (
                      <span className="inline-flex items-center gap-1 font-semibold">
                        <Check className="size-4 shrink-0" aria-hidden="true" />
                        {READING_MESSAGES.readKept} : {formatEuros(f.read)}
                      </span>
                    ) : (
                      // Said when the choice is undone (a live region announces what appears, not what goes).
                      <span className="sr-only">
                        {READING_MESSAGES.correctedKept} : {formatEuros(f.value)}
                      </span>
                    )}
                    {isKept && recordedOnly(f.field) ? (
                      <span className="block text-xs text-amber-900">{READING_MESSAGES.readKeptHint}</span>
                    ) : null}
                  </span>
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={disabled}
                aria-label={
                  isKept
                    ? READING_MESSAGES.keepCorrectedFor(name, actNumber, formatEuros(f.value))
                    : READING_MESSAGES.keepReadFor(name, actNumber, formatEuros(f.read))
                }
                onClick={() => onKeep(f, isKept ? "corrected" : "read")}
              >
                {isKept ? READING_MESSAGES.keepCorrected : READING_MESSAGES.keepRead}
              </Button>
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-amber-900">{READING_MESSAGES.correctedHint}</p>
    </div>
  );
}
