import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { ceilingOn } from "../../../shared/domain/acts";
import { formatListDate } from "../../../shared/format/dates";
import { formatEuros, parseEuros } from "../../../shared/format/money";
import { plural } from "../../../shared/format/plural";
import { lowerFirst } from "../../../shared/format/text";
import type { ProposalFormValues } from "../../../shared/forms/offerForm";
import {
  centsToInput,
  type DraftLine,
  draftsTotal,
  type LineErrors,
  lineIssuesOf,
} from "../../../shared/forms/quoteLines";
import type { LastFee, OfferValues } from "../../../shared/schemas/offers";
import type { QuoteLineDto } from "../../../shared/schemas/quotes";
import { QuoteLinesEditor } from "../../components/quote/QuoteLinesEditor";
import { Button } from "../../components/ui/Button";
import { ConfirmDialog } from "../../components/ui/Dialog";

/**
 * The lines of an offer in the proposal form (issue 15): the shared QuoteLinesEditor in "offer" mode
 * (a fee above the ceiling of a 100 % Santé or maîtrisé act is refused, the 100 % Santé alternative
 * suggested), the form's and the server's errors on their line, and the amount kept equal to the
 * lines' total while there are lines (the API requires it).
 */

/** Cents as a person would type them: "1250" or "1250,50". */
export function centsToText(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2).replace(".", ",");
}

/** react-hook-form's errors under "lines" ({0: {fee_cents: {message}}, root: {message}}) as the editor's keys. */
export function lineErrorsOfForm(errors: unknown): LineErrors {
  const out: LineErrors = {};
  if (!errors || typeof errors !== "object") return out;
  const tree = errors as Record<string, unknown> & { root?: { message?: string }; message?: string };
  const root = tree.root?.message ?? tree.message;
  if (root) out.root = root;
  for (const [index, line] of Object.entries(tree)) {
    if (!/^\d+$/.test(index) || !line || typeof line !== "object") continue;
    for (const [field, error] of Object.entries(line)) {
      const message = (error as { message?: unknown } | undefined)?.message;
      if (typeof message === "string") out[`${index}.${field}`] = message;
    }
  }
  return out;
}

/** Why the offer cannot be sent yet (said beside the button, which stays enabled), or null. */
export function offerSubmitBlocker(amount: string, lines: readonly DraftLine[], day: string): string | null {
  if (lines.length === 0)
    return amount.trim() === ""
      ? "Indiquez le montant de votre proposition, ou détaillez les actes, pour pouvoir l'envoyer."
      : null;
  const [key, message] = Object.entries(lineIssuesOf(lines, "offer", day))[0] ?? [];
  if (key && message)
    return `Corrigez d'abord l'acte ${Number(key.split(".")[0]) + 1} : ${lowerFirst(message)}`;
  if (draftsTotal(lines) === 0)
    return "Indiquez les honoraires des actes : leur total fait le montant de la proposition.";
  return null;
}

/** His last fees (ADR 097), by code. */
export type LastFees = ReadonlyMap<string, LastFee>;

/**
 * The line with his last fee for its act, when he has one and it is within today's ceiling of the
 * act on that tooth (a fee the server would refuse is not put in for him); else the line as it is.
 */
export function withLastFee(line: DraftLine, fees: LastFees, day: string): DraftLine {
  const last = line.code ? fees.get(line.code) : undefined;
  if (!line.code || !last) return line;
  const ceiling = ceilingOn(line.code, day, line.tooth);
  if (ceiling !== null && last.fee_cents > ceiling) return line;
  return { ...line, fee: centsToInput(last.fee_cents) };
}

/**
 * The lines as edited, with his last fee put in each line whose act was just chosen: in place of the
 * fee of the act it replaces (« Remplacer l'acte », another act picked), or in an empty fee (a new
 * line, a first act). A fee he typed or emptied on the same act is left alone.
 */
export function withLastFeesOnNewActs(
  before: readonly DraftLine[],
  next: DraftLine[],
  fees: LastFees,
  day: string,
): DraftLine[] {
  if (fees.size === 0) return next;
  const previous = new Map(before.map((line) => [line.id, line]));
  return next.map((line) => {
    const was = previous.get(line.id)?.code ?? null;
    if (!line.code || was === line.code) return line;
    return was !== null || line.fee.trim() === "" ? withLastFee(line, fees, day) : line;
  });
}

/** What the toast says once the devis's acts are taken, `withLast` of `count` of them at his last fees. */
export function reusedMessage(withLast: number, count: number): string {
  if (withLast === 0) return "Les actes du devis ont été repris : ajustez les honoraires et les matériaux.";
  return withLast === count
    ? "Les actes du devis ont été repris avec vos derniers honoraires : vérifiez-les et ajustez les matériaux."
    : `Les actes du devis ont été repris, avec vos derniers honoraires pour ${withLast} ${plural(withLast, "acte", "actes")} sur ${count} : vérifiez les honoraires et ajustez les matériaux.`;
}

export interface ReuseRequest {
  /** A new key each time "Reprendre les actes du devis" is used. */
  key: number;
  lines: DraftLine[];
}

export function OfferLinesField({
  form,
  day,
  reuse,
  lastFees,
  devis,
}: {
  form: UseFormReturn<ProposalFormValues, unknown, OfferValues>;
  day: string;
  reuse: ReuseRequest | null;
  /** His last fee for each act he has proposed (ADR 097). */
  lastFees: readonly LastFee[];
  /** The patient's devis: the preview takes the BR it states for an act outside the table. */
  devis: readonly QuoteLineDto[];
}) {
  const { control, setValue, getValues } = form;
  const fees: LastFees = useMemo(() => new Map(lastFees.map((fee) => [fee.code, fee])), [lastFees]);
  const lines = useWatch({ control, name: "lines" });
  const total = draftsTotal(lines);
  const editor = useRef<{ focus: () => void }>(null);
  const [confirming, setConfirming] = useState<ReuseRequest | null>(null);
  const applied = useRef<number | null>(null);

  // While there are lines, the amount is their total.
  const hasLines = lines.length > 0;
  useEffect(() => {
    if (!hasLines) return;
    const text = total > 0 ? centsToText(total) : "";
    if (getValues("amount") !== text)
      setValue("amount", text, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  }, [hasLines, total, getValues, setValue, form.formState.isSubmitted]);

  const put = (request: ReuseRequest) => {
    const lines = request.lines.map((line) => withLastFee(line, fees, day));
    const withLast = lines.filter((line, index) => line !== request.lines[index]).length;
    setValue("lines", lines, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    toast.success(reusedMessage(withLast, lines.length));
    // After the lines are drawn.
    setTimeout(() => editor.current?.focus(), 0);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per use of the button.
  useEffect(() => {
    if (!reuse || applied.current === reuse.key) return;
    applied.current = reuse.key;
    if (getValues("lines").length === 0) put(reuse);
    else setConfirming(reuse);
  }, [reuse]);

  return (
    <>
      <Controller
        control={control}
        name="lines"
        render={({ field, fieldState, formState }) => (
          <QuoteLinesEditor
            ref={(handle) => {
              editor.current = handle;
              field.ref(handle);
            }}
            mode="offer"
            day={day}
            devis={devis}
            legend="Détail des actes (recommandé)"
            description="Un acte par ligne : la dent sur le schéma (numérotation FDI, ex. 36), l'acte de la nomenclature ou un acte hors liste, vos honoraires. Le montant de la proposition est alors le total des actes."
            value={field.value}
            onChange={(next) => field.onChange(withLastFeesOnNewActs(field.value, next, fees, day))}
            lineNotes={lastFeeNotes(field.value, fees, (index, fee) =>
              field.onChange(field.value.map((line, i) => (i === index ? { ...line, fee } : line))),
            )}
            onBlur={field.onBlur}
            errors={lineErrorsOfForm(fieldState.error)}
            showIncomplete={formState.isSubmitted}
          />
        )}
      />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title="Remplacer vos actes ?"
        description="Les actes déjà saisis dans votre proposition seront remplacés par ceux du devis du patient."
        confirmLabel="Remplacer"
        onConfirm={() => {
          if (confirming) put(confirming);
          setConfirming(null);
        }}
      />
    </>
  );
}

/**
 * Under each line whose act he has proposed before: his last fee for it and the offer's day, with a
 * button to take it back when the line says another amount (ADR 097).
 */
function lastFeeNotes(
  lines: readonly DraftLine[],
  fees: LastFees,
  setFee: (index: number, fee: string) => void,
): Record<string, ReactNode> {
  const notes: Record<string, ReactNode> = {};
  lines.forEach((line, index) => {
    const last = line.code ? fees.get(line.code) : undefined;
    if (!last) return;
    const amount = formatEuros(last.fee_cents);
    notes[line.id] = (
      <div className="mt-2 grid gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 sm:flex sm:items-center sm:justify-between">
        <p>
          Vos derniers honoraires pour cet acte : <span className="font-medium tabular-nums">{amount}</span>{" "}
          (proposition du {formatListDate(last.offered_at)})
        </p>
        {parseEuros(line.fee) !== last.fee_cents ? (
          <Button
            variant="outline"
            size="sm"
            aria-label={`Reprendre ce montant (${amount}) pour l'acte ${index + 1}`}
            onClick={() => setFee(index, centsToInput(last.fee_cents))}
          >
            Reprendre ce montant
          </Button>
        ) : null}
      </div>
    );
  });
  return notes;
}
