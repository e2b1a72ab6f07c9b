import { AlertTriangle, FileWarning, Loader2, PenLine, RefreshCw, ShieldCheck } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import { parseEuros } from "../../../../shared/format/money";
import {
  type CorrectableField,
  type QuoteReading,
  READING_MESSAGES,
  type ReadingChoice,
} from "../../../../shared/schemas/reading";
import { QuoteLinesEditor } from "../../../components/quote/QuoteLinesEditor";
import { centsToInput, type DraftLine, draftsTotal } from "../../../components/quote/quoteLines";
import { Badge } from "../../../components/ui/Badge";
import { Button } from "../../../components/ui/Button";
import { isApiError } from "../../../lib/api";
import { cn } from "../../../lib/cn";
import { useDismissReading, useReadDocument } from "../api";
import { QuoteDateField } from "../QuoteDateField";
import { useQuoteLinesSave } from "../useQuoteLinesSave";
import { CorrectedFigures } from "./CorrectedFigures";
import { PagePreview } from "./PagePreview";
import {
  type CorrectedFigure,
  confidenceWords,
  correctedFigures,
  correctionTarget,
  type Highlight,
  type ReadingStage,
  readingChoices,
  readingParties,
  readLinesToDrafts,
  TARGET_FIELDS,
  tariffComparisons,
  updateHighlight,
} from "./readLines";
import { TariffComparisons } from "./TariffComparisons";

const RETRY_LATER = "Veuillez réessayer dans quelques instants.";
export const REVIEW_TITLE = "Vérifiez les lignes lues sur votre devis";

/**
 * The reading of the patient's devis in 'Mon devis' (issue 17): "Lecture du devis…" while it is read
 * (the realtime event, or a refetch every 5 s, replaces it), a plain failure with manual entry and a new
 * reading, or the review screen. The status line is one live region across these stages, so a screen
 * reader hears the result arrive.
 *
 * `onManual`: open the manual lines editor (the reading is dismissed here).
 */
export function ReadingPanel({
  requestId,
  reading,
  stage,
  onManual,
}: {
  requestId: string;
  reading: QuoteReading;
  stage: Exclude<ReadingStage, "none">;
  onManual: () => void;
}) {
  const dismiss = useDismissReading(requestId);
  const reread = useReadDocument(requestId);

  const typeMyself = () => {
    onManual();
    dismiss.mutate(reading.id, {
      onError: (error) =>
        toast.error("Une erreur est survenue", {
          description: isApiError(error) ? error.message : RETRY_LATER,
        }),
    });
  };
  const readAgain = () =>
    reread.mutate(reading.document_id, {
      onError: (error) =>
        toast.error("Le devis n'a pas pu être relu", {
          description: isApiError(error) ? error.message : RETRY_LATER,
        }),
    });

  const unreadable = stage === "unreadable";
  return (
    <div className="grid gap-4">
      <div
        role="status"
        aria-live="polite"
        className={cn(
          "flex items-start gap-3 rounded-ui border p-4 text-sm",
          stage === "pending" && "border-brand-200 bg-brand-50 text-brand-950",
          unreadable && "border-amber-300 bg-amber-50 text-amber-950",
          stage === "review" && "border-slate-200 bg-white text-slate-800",
        )}
      >
        {stage === "pending" ? (
          <Loader2 className="mt-0.5 size-5 shrink-0 animate-spin text-brand-700" aria-hidden="true" />
        ) : unreadable ? (
          <FileWarning className="mt-0.5 size-5 shrink-0 text-amber-800" aria-hidden="true" />
        ) : (
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        )}
        <div className="grid min-w-0 gap-1">
          {stage === "pending" ? (
            <>
              <p className="font-semibold">{READING_MESSAGES.pending}</p>
              <p>{READING_MESSAGES.pendingHint}</p>
            </>
          ) : unreadable ? (
            <>
              {reading.status === "failed" && reading.message ? (
                <p className="font-semibold">{reading.message}</p>
              ) : null}
              <p>{reading.status === "failed" ? READING_MESSAGES.failed : READING_MESSAGES.noLines}</p>
            </>
          ) : (
            <>
              {reading.recognised ? (
                <p className="font-semibold">{READING_MESSAGES.recognised(reading.file_name)}</p>
              ) : null}
              <p>{READING_MESSAGES.done}</p>
            </>
          )}
          <p className="break-all text-slate-700">{reading.file_name}</p>
        </div>
      </div>
      {unreadable ? (
        <div className="flex flex-wrap gap-3">
          <Button onClick={typeMyself}>
            <PenLine aria-hidden="true" />
            Saisir mon devis ligne par ligne
          </Button>
          <Button variant="outline" onClick={readAgain} loading={reread.isPending}>
            <RefreshCw aria-hidden="true" />
            Relire le devis
          </Button>
        </div>
      ) : null}
      {stage === "review" ? (
        <ReadingReview
          key={reading.id}
          requestId={requestId}
          reading={reading}
          onTypeMyself={typeMyself}
          dismissing={dismiss.isPending}
        />
      ) : null}
    </div>
  );
}

/**
 * "Vérifiez les lignes lues sur votre devis": the page on one side, the lines in the editor on the
 * other (the page first on a phone), the fields to check outlined with "À vérifier"; nothing is used
 * until "Enregistrer ces lignes" (PUT …/quote with the reading's id). 'Date du devis' above the lines:
 * the date read on the devis (else today), which chooses their tariffs (issue 33).
 */
function ReadingReview({
  requestId,
  reading,
  onTypeMyself,
  dismissing,
}: {
  requestId: string;
  reading: QuoteReading;
  onTypeMyself: () => void;
  dismissing: boolean;
}) {
  const titleId = useId();
  const result = reading.result;
  const [initial] = useState(() => readLinesToDrafts(result?.lines ?? []));
  const [drafts, setDrafts] = useState<DraftLine[]>(initial.drafts);
  const [highlight, setHighlight] = useState<Highlight>(initial.highlight);
  // Issue 34: for each figure read otherwise than the table, "read" (default) or "table", by "line.field".
  const [chosen, setChosen] = useState<Record<string, ReadingChoice["use"]>>({});
  const { submit, editor, date, pending } = useQuoteLinesSave(requestId, result?.quote_date);
  if (!result) return null;

  const parties = readingParties(result);
  const words = confidenceWords(result);
  const total = draftsTotal(drafts);
  const mismatch =
    result.total_matches === false && result.total_cents !== null && total !== result.total_cents;

  const onChange = (next: DraftLine[]) => {
    setHighlight(updateHighlight(highlight, drafts, next));
    setDrafts(next);
  };

  const readLines = result.lines;
  const onSave = () =>
    submit(drafts, { readingId: reading.id, readingChoices: readingChoices(readLines, chosen) });

  // Under each line read: the amounts the reading corrected, beside what it read (issue 34); the table's
  // figures beside the printed ones while the line is still of the act read.
  const lineNotes: Record<string, ReactNode> = {};
  // The fields outlined: the highlight (which only the patient's edits clear), less those holding a value
  // read that the patient chose to keep — undoing the choice outlines them again.
  const shown: Highlight = { ...highlight };
  for (const draft of drafts) {
    const index = initial.sources[draft.id];
    const line = index === undefined ? undefined : readLines[index];
    if (index === undefined || !line) continue;
    const corrected = correctedFigures(line);
    const comparisons = line.code && draft.code === line.code ? tariffComparisons(line) : [];
    if (corrected.length === 0 && comparisons.length === 0) continue;
    const position = drafts.indexOf(draft);
    const choiceKey = (field: CorrectableField) => `${index}.${field}`;
    // Issue 34: the value read put back in the line's field (the fee, a free line's BR), or kept as the
    // patient's choice with the reading (a known act's BR, an AMO: the estimate takes the table's).
    const kept = (figure: CorrectedFigure) => {
      const target = correctionTarget(figure.field, draft);
      if (target === "choice") return chosen[choiceKey(figure.field)] === "read";
      return parseEuros(target === "fee" ? draft.fee : draft.br) === figure.read;
    };
    for (const figure of corrected) {
      const target = correctionTarget(figure.field, draft);
      if (target !== "choice" && kept(figure))
        shown[draft.id] = (shown[draft.id] ?? []).filter((f) => !TARGET_FIELDS[target].includes(f));
    }
    const keep = (figure: CorrectedFigure, value: "read" | "corrected") => {
      const target = correctionTarget(figure.field, draft);
      if (target === "choice") {
        const key = choiceKey(figure.field);
        setChosen(
          value === "read"
            ? { ...chosen, [key]: "read" }
            : Object.fromEntries(Object.entries(chosen).filter(([k]) => k !== key)),
        );
        return;
      }
      // A choice, not an edit: the highlight stays (see `shown`).
      const amount = centsToInput(value === "read" ? figure.read : figure.value);
      setDrafts(drafts.map((d, i) => (i === position ? { ...d, [target]: amount } : d)));
    };
    lineNotes[draft.id] = (
      <>
        <CorrectedFigures
          figures={corrected}
          actNumber={position + 1}
          kept={(field) => corrected.some((f) => f.field === field && kept(f))}
          recordedOnly={(field) => correctionTarget(field, draft) === "choice"}
          onKeep={keep}
          disabled={pending}
        />
        <TariffComparisons
          comparisons={comparisons}
          lineNumber={position + 1}
          chosen={(field) => chosen[`${index}.${field}`]}
          onChoose={(field, use) => setChosen({ ...chosen, [`${index}.${field}`]: use })}
          disabled={pending}
        />
      </>
    );
  }

  return (
    <section aria-labelledby={titleId} className="grid min-w-0 gap-4">
      <div className="grid gap-2">
        <h3 id={titleId} className="text-base font-semibold text-slate-900">
          {REVIEW_TITLE}
        </h3>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <Badge tone={words === "Lecture fiable" ? "green" : "yellow"}>{words}</Badge>
          {parties ? <p className="min-w-0 wrap-anywhere">{parties}</p> : null}
        </div>
        {mismatch && result.total_cents !== null ? (
          <p className="flex items-start gap-2 rounded-ui border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-800" aria-hidden="true" />
            {READING_MESSAGES.totalMismatch(result.total_cents, total)}
          </p>
        ) : null}
      </div>
      <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:items-start">
        {reading.pages > 0 ? (
          <PagePreview
            requestId={requestId}
            readingId={reading.id}
            pages={reading.pages}
            fileName={reading.file_name}
          />
        ) : null}
        <div className="grid min-w-0 gap-4">
          <QuoteDateField {...date} />
          <QuoteLinesEditor
            mode="patient"
            value={drafts}
            onChange={onChange}
            {...editor}
            highlight={shown}
            lineNotes={lineNotes}
            legend="Actes lus sur votre devis"
            description="Comparez chaque ligne avec votre devis et corrigez ce qui diffère : la dent, l'acte et les honoraires. Les champs marqués « À vérifier » ont été lus avec un doute."
          />
        </div>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button onClick={onSave} loading={pending}>
          Enregistrer ces lignes
        </Button>
        <Button variant="ghost" onClick={onTypeMyself} disabled={pending || dismissing}>
          Saisir moi-même
        </Button>
      </div>
    </section>
  );
}
