import { Trash2 } from "lucide-react";
import { actByCode, actFitsTooth, BASKET_LABELS, ceilingOn } from "../../../shared/domain/acts";
import { AMO_RATE } from "../../../shared/domain/out-of-pocket";
import { formatEuros } from "../../../shared/format/money";
import { type EstimatedLine, QUOTE_MESSAGES } from "../../../shared/schemas/quotes";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { FormField } from "../ui/FormField";
import { Input } from "../ui/Input";
import { Label } from "../ui/Label";
import { ActPicker } from "./ActPicker";
import { BasketBadge } from "./BasketBadge";
import type { DraftLine, HighlightInput, QuoteMode } from "./quoteLines";
import { ToCheckBadge } from "./ToCheckBadge";
import { ToothField } from "./ToothField";

/** The fields of a line whose errors the row shows (API names). */
export type LineField = "tooth" | "code" | "act" | "fee_cents" | "br_cents";

export interface QuoteLineRowProps {
  index: number;
  line: DraftLine;
  /** The line made whole from the table, with its Assurance Maladie estimate. */
  estimate: EstimatedLine;
  feeReadable: boolean;
  mode: QuoteMode;
  day: string;
  /** The error to show for each field, if any. */
  errorOf: (field: LineField) => string | undefined;
  /** The 100 % Santé act to suggest (offer mode), if any. */
  alternative?: { code: string; label: string } | undefined;
  idPrefix: string;
  onChange: (patch: Partial<DraftLine>, field: LineField) => void;
  onTouch: (field: LineField) => void;
  onRemove: () => void;
  onAddAlternative: () => void;
  onReplaceByAlternative: () => void;
  disabled?: boolean;
  /** Inputs read from the devis with doubt: outlined, "À vérifier" in their label (issue 17). */
  highlight?: readonly HighlightInput[] | undefined;
}

/** The visible "À vérifier" of a highlighted input, part of its label (so also of its name). */
function ToCheck() {
  return (
    <>
      {" "}
      <ToCheckBadge />
    </>
  );
}

/** The outline of a highlighted input (a ring: the focus outline stays as it is). */
const CHECK_RING = "ring-2 ring-amber-700 ring-offset-1";

/** One line of the quote lines editor: tooth, act, fee (and BR for a free line), then its figures. */
export function QuoteLineRow({
  index,
  line,
  estimate,
  feeReadable,
  mode,
  day,
  errorOf,
  alternative,
  idPrefix,
  onChange,
  onTouch,
  onRemove,
  onAddAlternative,
  onReplaceByAlternative,
  disabled,
  highlight,
}: QuoteLineRowProps) {
  const check = (input: HighlightInput) => highlight?.includes(input) ?? false;
  const known = line.code ? actByCode(line.code) : undefined;
  const number = index + 1;
  const toothError = errorOf("tooth");
  const feeError = errorOf("fee_cents");
  const actError = errorOf("code") ?? errorOf("act");
  const aboveCeiling =
    estimate.ceiling_cents !== null && feeReadable && estimate.fee_cents > estimate.ceiling_cents;
  const amo = feeReadable ? estimate.amo_cents : Math.round(estimate.br_cents * AMO_RATE);
  const alternativeCeiling = alternative ? ceilingOn(alternative.code, day, line.tooth) : null;

  return (
    <fieldset
      data-line={line.id}
      className="grid gap-3 rounded-ui border border-slate-200 bg-white p-3 sm:p-4"
    >
      <legend className="sr-only">Acte {number}</legend>
      <div className="flex items-center justify-between gap-2">
        <span aria-hidden="true" className="text-sm font-semibold text-slate-900">
          Acte {number}
        </span>
        <Button
          variant="destructive-ghost"
          size="sm"
          onClick={onRemove}
          disabled={disabled}
          aria-label={`Supprimer l'acte ${number}`}
        >
          <Trash2 aria-hidden="true" />
          Supprimer
        </Button>
      </div>
      <div
        className={cn(
          "grid gap-3 sm:grid-cols-[9rem_minmax(0,1fr)_9rem] sm:items-start",
          // The tooth's button is in the ToothField's first box.
          check("tooth") &&
            "[&>div:first-child>button]:ring-2 [&>div:first-child>button]:ring-amber-700 [&>div:first-child>button]:ring-offset-1",
        )}
      >
        <ToothField
          label={
            check("tooth") ? (
              <>
                Dent
                <ToCheck />
              </>
            ) : (
              "Dent"
            )
          }
          id={`${idPrefix}-tooth`}
          value={line.tooth}
          invalid={Boolean(toothError)}
          describedBy={toothError ? `${idPrefix}-tooth-error` : undefined}
          unfit={known ? (tooth) => !actFitsTooth(known, tooth) : undefined}
          disabled={disabled}
          onChange={(tooth) => onChange({ tooth }, "tooth")}
          onClose={() => onTouch("tooth")}
        />
        <FormField
          label={
            check("act") ? (
              <>
                Acte
                <ToCheck />
              </>
            ) : (
              "Acte"
            )
          }
          error={actError}
          required
        >
          {(control) => (
            <div className={cn("rounded-ui", check("act") && CHECK_RING)}>
              <ActPicker
                {...control}
                aria-invalid={control["aria-invalid"]}
                value={{ code: line.code, act: line.act }}
                tooth={line.tooth}
                day={day}
                disabled={disabled}
                onChange={(picked) => onChange(picked, "act")}
                onBlur={() => onTouch("act")}
              />
            </div>
          )}
        </FormField>
        {/* The fee's error is written under the whole line: the column is narrow. */}
        <div className="grid content-start gap-1.5">
          <Label htmlFor={`${idPrefix}-fee`} required>
            Honoraires (€)
            {check("fee") ? <ToCheck /> : null}
          </Label>
          <Input
            id={`${idPrefix}-fee`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={line.fee}
            disabled={disabled}
            aria-invalid={feeError ? true : undefined}
            aria-describedby={feeError ? `${idPrefix}-fee-error` : undefined}
            className={cn("tabular-nums", check("fee") && CHECK_RING)}
            onChange={(event) => onChange({ fee: event.target.value }, "fee_cents")}
            onBlur={() => onTouch("fee_cents")}
          />
        </div>
        {/* A free line's BR: the patient's devis may state one; an offer's is never the dentist's (0, ADR 038). */}
        {mode === "patient" && (line.code === null || !known) ? (
          <FormField
            label={
              check("br") ? (
                <>
                  Base de remboursement (€)
                  <ToCheck />
                </>
              ) : (
                "Base de remboursement (€)"
              )
            }
            description="Facultative : celle du devis, si elle y figure."
            error={errorOf("br_cents")}
            className="sm:col-start-2"
          >
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                autoComplete="off"
                value={line.br}
                disabled={disabled}
                className={cn("tabular-nums sm:max-w-48", check("br") && CHECK_RING)}
                onChange={(event) => onChange({ br: event.target.value }, "br_cents")}
                onBlur={() => onTouch("br_cents")}
              />
            )}
          </FormField>
        ) : null}
      </div>
      {toothError ? (
        <p id={`${idPrefix}-tooth-error`} className="text-sm font-medium text-red-700">
          {toothError}
        </p>
      ) : null}
      {feeError ? (
        <p id={`${idPrefix}-fee-error`} className="text-sm font-medium text-red-700">
          {feeError}
        </p>
      ) : null}
      <ul
        className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700"
        aria-label={`Acte ${number} : remboursement`}
      >
        <li>
          <BasketBadge basket={estimate.basket} />
          {known ? <span className="ml-2 font-mono text-slate-600">{known.code}</span> : null}
        </li>
        <li className="tabular-nums">
          BR{" "}
          {estimate.br_cents > 0
            ? // On an offer, an act outside the table has a BR only from the patient's devis.
              `${formatEuros(estimate.br_cents)}${known || mode !== "offer" ? "" : " (selon le devis du patient)"}`
            : known || mode === "offer"
              ? "non remboursé"
              : "inconnue"}
        </li>
        <li className="tabular-nums">Assurance Maladie 60 % : {formatEuros(amo)}</li>
        {estimate.ceiling_cents !== null ? (
          <li className="tabular-nums">
            Plafond {BASKET_LABELS[estimate.basket]} : {formatEuros(estimate.ceiling_cents)}
          </li>
        ) : null}
      </ul>
      {aboveCeiling && mode === "patient" && estimate.ceiling_cents !== null ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Honoraires {QUOTE_MESSAGES.aboveCeilingNotice(estimate.basket, estimate.ceiling_cents)} : à signaler
          au dentiste, ou à comparer avec les propositions reçues.
        </p>
      ) : null}
      {alternative ? (
        <div className="grid gap-2 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-950 sm:flex sm:items-center sm:justify-between">
          <p>
            Alternative 100 % Santé {line.tooth !== null ? `pour la dent ${line.tooth}` : "pour cet acte"} :{" "}
            {alternative.label} ({alternative.code})
            {alternativeCeiling !== null ? `, plafond ${formatEuros(alternativeCeiling)}` : ""}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={onAddAlternative}
              disabled={disabled}
              // One such button per line: its name says which act, beside which line.
              aria-label={`Ajouter cet acte (${alternative.code}) en plus de l'acte ${number}`}
            >
              Ajouter cet acte
            </Button>
            <Button size="sm" variant="ghost" onClick={onReplaceByAlternative} disabled={disabled}>
              Remplacer l'acte {number}
            </Button>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
