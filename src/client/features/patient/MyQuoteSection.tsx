import { Pencil } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { parisToday } from "../../../shared/policies/offers";
import { mayCancelRequest } from "../../../shared/policies/requests";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { QuoteLinesEditor } from "../../components/quote/QuoteLinesEditor";
import {
  type DraftLine,
  emptyLine,
  firstLineError,
  fromLineDtos,
  type LineErrors,
  lineErrorsFromFields,
  validateLines,
} from "../../components/quote/quoteLines";
import { Button } from "../../components/ui/Button";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useReading, useSaveQuote } from "./api";
import { MyQuoteCard } from "./MyQuoteCard";
import { ReadingPanel } from "./reading/ReadingPanel";
import { readingStage } from "./reading/readLines";

const SAVE_FAILED = "Votre devis n'a pas été enregistré";

/**
 * 'Mon devis' with its editing (issue 15): while the request is open, "Saisir mon devis ligne par
 * ligne" (or "Modifier") opens the lines editor in the card; saved with PUT …/quote. Removing every
 * line and saving clears them. Issue 17: while the devis uploaded is being read, then once read, the
 * reading shows here (ReadingPanel) until the patient saves its lines or types them themselves.
 */
export function MyQuoteSection({
  request,
  comparison,
  comparisonPending,
}: {
  request: RequestDetail;
  comparison: Comparison | undefined;
  comparisonPending: boolean;
}) {
  const [drafts, setDrafts] = useState<DraftLine[] | null>(null);
  const [errors, setErrors] = useState<LineErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const save = useSaveQuote(request.id);
  const open = mayCancelRequest(request.status);
  const hasLines = request.quote_lines.length > 0;
  const reading = useReading(request.id, open && !hasLines);
  const stage = readingStage(reading.data, open && !hasLines);

  const start = () => {
    setDrafts(hasLines ? fromLineDtos(request.quote_lines) : [emptyLine()]);
    setErrors({});
    setSubmitted(false);
  };
  const close = () => {
    setDrafts(null);
    setErrors({});
  };

  const onSave = () => {
    if (!drafts) return;
    setSubmitted(true);
    const checked = validateLines(drafts, "patient", parisToday(new Date()));
    if (!checked.ok) {
      setErrors(checked.errors);
      toast.error(SAVE_FAILED, { description: firstLineError(checked.errors) });
      return;
    }
    save.mutate(checked.lines, {
      onSuccess: ({ message }) => {
        toast.success(message, {
          description: "Le reste à charge de chaque proposition est estimé par rapport à ce devis.",
        });
        close();
      },
      onError: (error) => {
        toast.error(SAVE_FAILED, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
        // 409: the request closed meanwhile; the page reloads it and the editor has nothing left to do.
        if (isApiError(error) && error.status === 409) close();
        else if (isApiError(error)) setErrors(lineErrorsFromFields(error.fields, "lines"));
      },
    });
  };

  // A finished request whose devis was never detailed: nothing to show or do.
  if (!open && !hasLines) return null;

  const card = (
    <MyQuoteCard
      request={request}
      comparison={comparison}
      comparisonPending={comparisonPending}
      actions={
        // While a read devis waits to be checked, its own buttons lead to the manual entry.
        open && !drafts && (stage === "none" || stage === "pending") ? (
          <Button variant={hasLines ? "outline" : "secondary"} size="sm" onClick={start}>
            <Pencil aria-hidden="true" />
            {hasLines ? "Modifier" : "Saisir mon devis ligne par ligne"}
          </Button>
        ) : null
      }
    >
      {drafts ? (
        <div className="grid gap-4">
          <QuoteLinesEditor
            mode="patient"
            value={drafts}
            onChange={setDrafts}
            errors={errors}
            showIncomplete={submitted}
            legend="Actes de votre devis"
            description="Recopiez chaque acte de votre devis : la dent, l'acte (son code commence par 4 lettres, par exemple HBLD634) et les honoraires."
            disabled={save.isPending}
          />
          <div className="flex flex-wrap gap-3">
            <Button onClick={onSave} loading={save.isPending}>
              Enregistrer mon devis
            </Button>
            <Button variant="ghost" onClick={close} disabled={save.isPending}>
              Annuler
            </Button>
          </div>
        </div>
      ) : stage !== "none" && reading.data ? (
        <ReadingPanel requestId={request.id} reading={reading.data} stage={stage} onManual={start} />
      ) : undefined}
    </MyQuoteCard>
  );
  // The review screen puts the page beside the lines: on a large screen it takes the page's whole
  // width (under the documents), not two of its three columns. One wrapper in every stage, so the
  // card (and its live status) is never mounted again when the reading arrives.
  return (
    <div className={cn("min-w-0", stage === "review" && !drafts ? "lg:col-span-3" : "lg:col-span-2")}>
      {card}
    </div>
  );
}
