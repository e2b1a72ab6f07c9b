/**
 * QuoteLinesEditor — the lines of a structured French dental quote (issue 15), one per act: the tooth
 * (FDI chart), the act (reference table or a free line), the fee, and for a free line its BR. Under each
 * line: basket, BR, the Assurance Maladie's 60 % and the ceiling; under the list, the total.
 *
 * Props
 * - `value: DraftLine[]`, `onChange(next: DraftLine[])`: controlled; start from `[]` or `[emptyLine()]`,
 *   or `fromLineDtos(dtos)` ("Reprendre les actes du devis"). Helpers in `./quoteLines`.
 * - `mode: "patient" | "offer"`: a fee above the ceiling of a 100 % Santé or maîtrisé act is a notice on
 *   the patient's own quote, an error on a dentist's offer (as on the server); "offer" also suggests the
 *   100 % Santé alternative of an act with a reste à charge (the devis normalisé must offer it).
 * - `day?`: the tariff day 'YYYY-MM-DD' (default `parisToday(new Date())`).
 * - `errors?: LineErrors`: errors from outside, keyed "0.fee_cents", "1.tooth", "root"… e.g. the
 *   server's 400 through `lineErrorsFromFields(error.fields)`, or `validateLines(...).errors` after a
 *   submit. An error disappears from its field once that field is edited.
 * - `showIncomplete?`: show every line's missing or unreadable entries (set it after a submit attempt);
 *   otherwise they show once the field has been left. Rule errors (tooth, ceiling) show as one types.
 * - `highlight?: Record<lineId, ReadField[]>`: fields of a line read from the devis with doubt (issue 17),
 *   keyed by the DraftLine's `id`: their inputs get an outline and a visible "À vérifier" in their label.
 * - `lineNotes?: Record<lineId, ReactNode>`: shown under a line (issue 34: the figures read on the devis
 *   beside the act table's).
 * - `legend?` (default "Actes du devis"), `description?`, `maxLines?` (default 20), `disabled?`,
 *   `onBlur?` (react-hook-form), `ref?` (react-hook-form: `focus()` goes to the first field in error).
 *
 * With react-hook-form:
 *   <Controller control={control} name="lines" rules={{ validate: linesRule("offer", day) }}
 *     render={({ field, formState }) => (
 *       <QuoteLinesEditor mode="offer" value={field.value} onChange={field.onChange}
 *         onBlur={field.onBlur} ref={field.ref} showIncomplete={formState.isSubmitted} />)} />
 * Submit `toLineInputs(values.lines)` (or `validateLines(values.lines, mode, day)`).
 */
import { Plus } from "lucide-react";
import {
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import { OFFER_LIMITS } from "../../../shared/domain/offers";
import { formatEuros } from "../../../shared/format/money";
import { parisToday } from "../../../shared/policies/offers";
import {
  estimateLines,
  QUOTE_MESSAGES,
  type QuoteLineDto,
  withDevisBases,
} from "../../../shared/schemas/quotes";
import type { ReadField } from "../../../shared/schemas/reading";
import { Button } from "../ui/Button";
import { type LineField, QuoteLineRow } from "./QuoteLineRow";
import {
  type DraftLine,
  draftsTotal,
  emptyLine,
  highlightedInputs,
  type LineErrors,
  lineIssuesOf,
  missingAlternative,
  type QuoteMode,
  resolveDrafts,
  toLineInputs,
} from "./quoteLines";

export interface QuoteLinesEditorProps {
  value: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  mode: QuoteMode;
  day?: string;
  errors?: LineErrors;
  showIncomplete?: boolean;
  legend?: string;
  description?: string;
  maxLines?: number;
  disabled?: boolean;
  /** Fields read with doubt, by line id (see above). */
  highlight?: Readonly<Record<string, readonly ReadField[]>>;
  /** Shown under a line, by line id (see above). */
  lineNotes?: Readonly<Record<string, ReactNode>>;
  onBlur?: () => void;
  /**
   * In "offer" mode, the patient's devis: an act outside the table is estimated with the BR her devis
   * states for it (`withDevisBases`, as the patient's comparison does), never one the dentist types.
   */
  devis?: readonly QuoteLineDto[];
  ref?: Ref<{ focus: () => void }>;
}

export function QuoteLinesEditor({
  value,
  onChange,
  mode,
  day: givenDay,
  errors,
  showIncomplete = false,
  legend = "Actes du devis",
  description,
  maxLines = OFFER_LIMITS.maxLines,
  disabled,
  highlight,
  lineNotes,
  onBlur,
  devis,
  ref,
}: QuoteLinesEditorProps) {
  const id = useId();
  const day = givenDay ?? parisToday(new Date());
  const root = useRef<HTMLFieldSetElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // Outside errors hide on the fields edited since they were given.
  const errorsKey = JSON.stringify(errors ?? {});
  const [edited, setEdited] = useState<{ key: string; fields: ReadonlySet<string> }>({
    key: errorsKey,
    fields: new Set(),
  });
  const editedFields = edited.key === errorsKey ? edited.fields : new Set<string>();
  const [focusLine, setFocusLine] = useState<string | null>(null);

  const resolved = useMemo(() => resolveDrafts(value, day), [value, day]);
  const estimate = useMemo(
    () => estimateLines(devis ? withDevisBases(resolved, devis) : resolved, null),
    [resolved, devis],
  );
  const rules = useMemo(() => lineIssuesOf(value, mode, day), [value, mode, day]);
  const reading = useMemo(() => {
    const read = toLineInputs(value);
    return read.ok ? {} : read.errors;
  }, [value]);

  const errorAt = (index: number, field: LineField): string | undefined => {
    const key = `${index}.${field}`;
    const outside = errors?.[key];
    if (outside && !editedFields.has(key)) return outside;
    const rule = rules[key];
    if (rule && (rule !== QUOTE_MESSAGES.toothRequired || showIncomplete || touched.has(key))) return rule;
    const read = reading[key];
    if (read && (showIncomplete || touched.has(key))) return read;
    return undefined;
  };

  useEffect(() => {
    if (!focusLine) return;
    root.current?.querySelector<HTMLElement>(`[data-line="${focusLine}"] [role="combobox"]`)?.focus();
    setFocusLine(null);
  }, [focusLine]);

  useImperativeHandle(ref, () => ({
    focus: () => {
      const invalid = root.current?.querySelector<HTMLElement>("[aria-invalid='true']");
      (invalid ?? root.current?.querySelector<HTMLElement>("input, button"))?.focus();
    },
  }));

  const markEdited = (key: string) => {
    if (!errors?.[key]) return;
    setEdited({ key: errorsKey, fields: new Set([...editedFields, key]) });
  };

  const update = (index: number, patch: Partial<DraftLine>, field: LineField) => {
    markEdited(`${index}.${field}`);
    if (field === "act") markEdited(`${index}.code`);
    onChange(value.map((line, i) => (i === index ? { ...line, ...patch } : line)));
  };

  const touch = (index: number, field: LineField) => {
    const key = `${index}.${field}`;
    // Left empty for another field (the tooth chart right after « Ajouter un acte »): not an error
    // yet; a missing act or fee is said when the form is sent (showIncomplete).
    const line = value[index];
    const empty = (field === "act" && !line?.act.trim()) || (field === "fee_cents" && !line?.fee.trim());
    if (!empty && !touched.has(key)) setTouched(new Set([...touched, key]));
    onBlur?.();
  };

  // Removing or inserting a line shifts the indexes: the outside errors no longer point anywhere.
  const reshape = (next: DraftLine[]) => {
    setEdited({ key: errorsKey, fields: new Set(Object.keys(errors ?? {})) });
    setTouched(new Set());
    onChange(next);
  };

  const add = () => {
    const line = emptyLine();
    reshape([...value, line]);
    setFocusLine(line.id);
  };

  const full = value.length >= maxLines;
  const rootError = errors?.root && !editedFields.has("root") ? errors.root : undefined;

  return (
    <fieldset
      ref={root}
      className="grid min-w-0 gap-3"
      aria-describedby={description ? `${id}-help` : undefined}
    >
      <legend className="mb-1 font-semibold text-slate-900">{legend}</legend>
      {description ? (
        <p id={`${id}-help`} className="text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      {value.length > 0 ? (
        <ol className="grid gap-3">
          {value.map((line, index) => {
            const alternative = mode === "offer" ? missingAlternative(value, index, day) : undefined;
            return (
              <li key={line.id}>
                <QuoteLineRow
                  index={index}
                  line={line}
                  estimate={estimate.lines[index] as (typeof estimate.lines)[number]}
                  feeReadable={!reading[`${index}.fee_cents`]}
                  mode={mode}
                  day={day}
                  idPrefix={`${id}-${line.id}`}
                  errorOf={(field) => errorAt(index, field)}
                  alternative={alternative ? { code: alternative.code, label: alternative.label } : undefined}
                  disabled={disabled}
                  highlight={
                    highlight?.[line.id] ? highlightedInputs(highlight[line.id] ?? [], line) : undefined
                  }
                  onChange={(patch, field) => update(index, patch, field)}
                  onTouch={(field) => touch(index, field)}
                  onRemove={() => {
                    reshape(value.filter((_, i) => i !== index));
                    addButton.current?.focus();
                  }}
                  onAddAlternative={() => {
                    if (!alternative || full) return;
                    const added: DraftLine = {
                      ...emptyLine(),
                      code: alternative.code,
                      act: alternative.label,
                      tooth: line.tooth,
                    };
                    reshape([...value.slice(0, index + 1), added, ...value.slice(index + 1)]);
                    setFocusLine(added.id);
                  }}
                  onReplaceByAlternative={() => {
                    if (!alternative) return;
                    update(index, { code: alternative.code, act: alternative.label, br: "" }, "act");
                  }}
                />
                {lineNotes?.[line.id] ?? null}
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-slate-600">Aucun acte pour l'instant.</p>
      )}
      {rootError ? <p className="text-sm font-medium text-red-700">{rootError}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <Button ref={addButton} variant="outline" size="sm" onClick={add} disabled={disabled || full}>
            <Plus aria-hidden="true" />
            Ajouter un acte
          </Button>
          {full ? <p className="text-sm text-slate-600">{QUOTE_MESSAGES.tooManyLines}</p> : null}
        </div>
        {value.length > 0 ? (
          <dl className="grid grid-cols-[auto_auto] gap-x-3 text-right text-sm tabular-nums">
            <dt className="text-slate-700">Total des actes</dt>
            <dd className="font-semibold text-slate-900">{formatEuros(draftsTotal(value))}</dd>
            <dt className="text-slate-700">dont Assurance Maladie (estimation)</dt>
            <dd className="text-slate-900">{formatEuros(estimate.total.amo_cents)}</dd>
          </dl>
        ) : null}
      </div>
    </fieldset>
  );
}
