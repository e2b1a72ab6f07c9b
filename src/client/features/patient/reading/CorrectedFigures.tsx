import { AlertTriangle } from "lucide-react";
import { formatEuros } from "../../../../shared/format/money";
import { type CorrectableField, READING_MESSAGES } from "../../../../shared/schemas/reading";
import type { CorrectedFigure } from "./readLines";

const FIELD_LABELS: Record<CorrectableField, string> = {
  fee_cents: "Honoraires",
  br_cents: "Base de remboursement",
  amo_cents: "Part de l'Assurance Maladie",
};

/**
 * Under a read line (issue 34, ADR 043 addendum): each amount the reading corrected because the devis
 * proved an OCR slip, with what was read beside it — "Honoraires : 500,00 € — Corrigé d'après le devis
 * (lu : 50,00 €)" — and "À vérifier" in words, so the patient compares it with the devis.
 */
export function CorrectedFigures({ figures }: { figures: readonly CorrectedFigure[] }) {
  if (figures.length === 0) return null;
  return (
    <div className="mt-2 grid gap-2 rounded-ui border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <ul className="grid gap-1">
        {figures.map((f) => (
          <li key={f.field} className="flex min-w-0 items-start gap-2">
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-800" aria-hidden="true" />
            <p className="min-w-0 break-words">
              <span className="font-semibold">{FIELD_LABELS[f.field]}</span>{" "}
              <span className="ml-1 inline-block rounded-sm bg-amber-100 px-1.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-700 ring-inset">
                {READING_MESSAGES.uncertain}
              </span>
              <br />
              {formatEuros(f.value)} — {READING_MESSAGES.corrected} (
              {READING_MESSAGES.asRead(formatEuros(f.read))})
            </p>
          </li>
        ))}
      </ul>
      <p className="text-xs text-amber-900">{READING_MESSAGES.correctedHint}</p>
    </div>
  );
}
