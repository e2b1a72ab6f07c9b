import { Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { mayCancelRequest } from "../../../shared/policies/requests";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { QuoteLinesEditor } from "../../components/quote/QuoteLinesEditor";
import { type DraftLine, emptyLine, fromLineDtos } from "../../components/quote/quoteLines";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { useReading } from "./api";
import { MyQuoteCard } from "./MyQuoteCard";
import { QuoteDateField } from "./QuoteDateField";
import { ReadingPanel } from "./reading/ReadingPanel";
import { readingStage } from "./reading/readLines";
import { useQuoteLinesSave } from "./useQuoteLinesSave";

/**
 * 'Mon devis' with its editing (issue 15): while the request is open, "Saisir mon devis ligne par
 * ligne" (or "Modifier") opens the lines editor in the card; saved with PUT …/quote. Removing every
 * line and saving clears them. Issue 17: while the devis uploaded is being read, then once read, the
 * reading shows here (ReadingPanel) until the patient saves its lines or types them themselves.
 * Issue 33: above the lines, 'Date du devis' (the request's, else today) chooses their tariffs.
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
  const editorRef = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  /** Where the focus goes once the editor opens or closes: the button pressed has gone. */
  const focusNext = useRef<"editor" | "button" | null>(null);
  const { submit, reset, editor, date, pending } = useQuoteLinesSave(request.id, request.quote_date);
  const open = mayCancelRequest(request.status);
  const hasLines = request.quote_lines.length > 0;
  const reading = useReading(request.id, open && !hasLines);
  const stage = readingStage(reading.data, open && !hasLines);

  const start = () => {
    focusNext.current = "editor";
    setDrafts(hasLines ? fromLineDtos(request.quote_lines) : [emptyLine()]);
    reset(request.quote_date);
  };
  const close = () => {
    focusNext.current = "button";
    setDrafts(null);
    reset(request.quote_date);
  };

  // Opened: its first field, « Date du devis »; closed: back to « Modifier » (when it shows).
  const editing = drafts !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: opening or closing the editor is what moves the focus.
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "editor") editorRef.current?.querySelector("input")?.focus();
    else if (next === "button") editButton.current?.focus();
  }, [editing]);

  const onSave = () => {
    if (drafts) submit(drafts, { onSaved: close, onClosed: close });
  };

  // The read lines saved: the long review gives way to the short summary, and the page would be left
  // scrolled past it. Its top comes into view, the focus on « Modifier ».
  const section = useRef<HTMLDivElement>(null);
  const reviewing = useRef(false);
  useEffect(() => {
    if (reviewing.current && stage === "none" && hasLines) {
      section.current?.scrollIntoView?.({ block: "start" });
      editButton.current?.focus({ preventScroll: true });
    }
    reviewing.current = stage === "review";
  }, [stage, hasLines]);

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
          <Button ref={editButton} variant={hasLines ? "outline" : "secondary"} size="sm" onClick={start}>
            <Pencil aria-hidden="true" />
            {hasLines ? "Modifier" : "Saisir mon devis ligne par ligne"}
          </Button>
        ) : null
      }
    >
      {drafts ? (
        <div ref={editorRef} className="grid gap-4">
          <QuoteDateField {...date} />
          <QuoteLinesEditor
            mode="patient"
            value={drafts}
            onChange={setDrafts}
            {...editor}
            legend="Actes de votre devis"
            description="Recopiez chaque acte de votre devis : la dent, l'acte (son code commence par 4 lettres, par exemple HBLD634) et les honoraires."
          />
          <div className="flex flex-wrap gap-3">
            <Button onClick={onSave} loading={pending}>
              Enregistrer mon devis
            </Button>
            <Button variant="ghost" onClick={close} disabled={pending}>
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
    <div
      ref={section}
      className={cn("min-w-0 scroll-mt-4", stage === "review" && !drafts ? "lg:col-span-3" : "lg:col-span-2")}
    >
      {card}
    </div>
  );
}
