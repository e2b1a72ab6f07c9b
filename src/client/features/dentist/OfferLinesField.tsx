import { useEffect, useRef, useState } from "react";
import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { ProposalFormValues } from "../../../shared/forms/offerForm";
import { type DraftLine, draftsTotal, type LineErrors, lineIssuesOf } from "../../../shared/forms/quoteLines";
import type { OfferValues } from "../../../shared/schemas/offers";
import { QuoteLinesEditor } from "../../components/quote/QuoteLinesEditor";
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
  if (key && message) return `Corrigez d'abord l'acte ${Number(key.split(".")[0]) + 1} : ${message}`;
  if (draftsTotal(lines) === 0)
    return "Indiquez les honoraires des actes : leur total fait le montant de la proposition.";
  return null;
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
}: {
  form: UseFormReturn<ProposalFormValues, unknown, OfferValues>;
  day: string;
  reuse: ReuseRequest | null;
}) {
  const { control, setValue, getValues } = form;
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
    setValue("lines", request.lines, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    toast.success("Les actes du devis ont été repris : ajustez les honoraires et les matériaux.");
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
            legend="Détail des actes (recommandé)"
            description="Un acte par ligne : la dent sur le schéma (numérotation FDI, ex. 36), l'acte de la nomenclature ou un acte hors liste, vos honoraires. Le montant de la proposition est alors le total des actes."
            value={field.value}
            onChange={field.onChange}
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
