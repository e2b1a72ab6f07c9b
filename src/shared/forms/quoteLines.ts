import { actByCode, santeAlternative } from "../domain/acts";
import { OFFER_LIMITS } from "../domain/offers";
import { formatEuros, parseEuros } from "../format/money";
import {
  QUOTE_MESSAGES,
  type QuoteLineDto,
  type QuoteLineValues,
  quoteLineInputSchema,
  quoteLineIssues,
  resolveLine,
} from "../schemas/quotes";
import type { ReadField } from "../schemas/reading";

/**
 * Pure helpers of the quote lines editor (issue 15): a line as typed in a form (`DraftLine`, amounts as
 * text), its conversion to what the API takes, and the checks the server makes, so that the form refuses
 * exactly what the server refuses. Errors are keyed "<line index>.<field>" with the API's field names:
 * "0.fee_cents", "2.tooth", "1.code", "1.act", "3.br_cents".
 */

export type QuoteMode = "patient" | "offer";

export interface DraftLine {
  /** Stable key for React (never sent). */
  id: string;
  /** A code of the reference table, or null for a free line ("Acte hors liste"). */
  code: string | null;
  act: string;
  tooth: number | null;
  /** Euros as typed ("1 234,50"). */
  fee: string;
  /** Free lines only: their BR in euros as typed, "" when unknown. */
  br: string;
}

/** Field errors keyed "<index>.<field>". */
export type LineErrors = Record<string, string>;

let counter = 0;
const nextId = () => {
  counter += 1;
  return `ligne-${counter}`;
};

export function emptyLine(): DraftLine {
  return { id: nextId(), code: null, act: "", tooth: null, fee: "", br: "" };
}

/** Cents as typed in a form field ("1 234,5" → "1 234,50"), without the euro sign. */
export function centsToInput(cents: number): string {
  return formatEuros(cents)
    .replace(/\s?€$/, "")
    .replace(/[\u00a0\u202f]/g, " ");
}

/** Lines of a stored quote as drafts ("Reprendre les actes du devis"): same acts, teeth and fees. */
export function fromLineDtos(dtos: readonly QuoteLineDto[]): DraftLine[] {
  return dtos.map((dto) => {
    const known = dto.code ? actByCode(dto.code) : undefined;
    return {
      id: nextId(),
      code: known ? known.code : null,
      // A code outside the table is kept in the text of a free line.
      act: !known && dto.code ? `${dto.code} · ${dto.act}`.slice(0, OFFER_LIMITS.actMax) : dto.act,
      tooth: dto.tooth,
      fee: centsToInput(dto.fee_cents),
      br: !known && dto.br_cents > 0 ? centsToInput(dto.br_cents) : "",
    };
  });
}

const ZERO = /^0+([.,]0{1,2})?$/;

/** BR of a free line: "" → null, "0" → 0, an amount → cents; undefined when unreadable. */
function parseBr(input: string): number | null | undefined {
  const text = input.trim();
  if (text === "") return null;
  if (ZERO.test(text.replace(/[\s\u00a0\u202f€]/g, ""))) return 0;
  return parseEuros(text) ?? undefined;
}

/**
 * A draft as the API would read it, before the schema: unreadable amounts are NaN (the schema then
 * refuses them with their message); the BR of a line of the table is left out (the server takes its own).
 */
export function draftToRaw(draft: DraftLine) {
  const br = draft.code && actByCode(draft.code) ? null : parseBr(draft.br);
  return {
    code: draft.code,
    act: draft.act,
    tooth: draft.tooth,
    fee_cents: parseEuros(draft.fee) ?? Number.NaN,
    br_cents: br === undefined ? Number.NaN : br,
  };
}

/** The drafts as the API takes them, or the field errors of what cannot be read (empty act, fee…). */
export function toLineInputs(
  drafts: readonly DraftLine[],
): { ok: true; lines: QuoteLineValues[] } | { ok: false; errors: LineErrors } {
  const lines: QuoteLineValues[] = [];
  const errors: LineErrors = {};
  drafts.forEach((draft, index) => {
    const parsed = quoteLineInputSchema.safeParse(draftToRaw(draft));
    if (parsed.success) {
      lines.push(parsed.data);
      return;
    }
    for (const issue of parsed.error.issues) {
      const key = `${index}.${String(issue.path[0] ?? "act")}`;
      errors[key] ??= issue.message;
    }
  });
  if (drafts.length > OFFER_LIMITS.maxLines) errors.root = QUOTE_MESSAGES.tooManyLines;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, lines };
}

/**
 * Each draft made whole from the reference table on `day` (basket, BR, ceiling), with a fee of 0 while
 * it cannot be read: what the estimates under each line are computed from.
 */
export function resolveDrafts(drafts: readonly DraftLine[], day: string): QuoteLineDto[] {
  return drafts.map((draft) => {
    const raw = draftToRaw(draft);
    return resolveLine(
      {
        code: raw.code ? raw.code.trim().toUpperCase() : null,
        act: draft.act,
        tooth: draft.tooth,
        fee_cents: Number.isNaN(raw.fee_cents) ? 0 : raw.fee_cents,
        br_cents: Number.isNaN(raw.br_cents) ? null : raw.br_cents,
      },
      day,
    );
  });
}

/**
 * What the server refuses in these lines beyond their reading: a tooth that does not fit the act, a
 * missing tooth, a tooth on an arch act and, on an offer, a fee above the ceiling of a 100 % Santé or
 * maîtrisé act (`quoteLineIssues`, as on the server). Shown as the person types.
 */
export function lineIssuesOf(drafts: readonly DraftLine[], mode: QuoteMode, day: string): LineErrors {
  const errors: LineErrors = {};
  const issues = quoteLineIssues(resolveDrafts(drafts, day), {
    refuseAboveCeiling: mode === "offer",
    prefix: [],
  });
  for (const issue of issues) errors[issue.path.join(".")] ??= issue.message;
  return errors;
}

/** Everything the server would refuse: the reading errors first, then the rules. */
export function validateLines(
  drafts: readonly DraftLine[],
  mode: QuoteMode,
  day: string,
): { ok: true; lines: QuoteLineValues[] } | { ok: false; errors: LineErrors } {
  const read = toLineInputs(drafts);
  const rules = lineIssuesOf(drafts, mode, day);
  const errors = { ...rules, ...(read.ok ? {} : read.errors) };
  if (read.ok && Object.keys(rules).length === 0) return read;
  return { ok: false, errors };
}

/** The first error of the lines, for a form's summary or a react-hook-form `validate` rule. */
export function firstLineError(errors: LineErrors): string | undefined {
  const [key, message] = Object.entries(errors)[0] ?? [];
  if (!key || !message) return undefined;
  if (key === "root") return message;
  const index = Number(key.split(".")[0]);
  return `Acte ${index + 1} : ${message}`;
}

/**
 * A react-hook-form `validate` rule for a field holding DraftLine[]: true, or the first error. Use
 * with `<Controller rules={{ validate: linesRule("offer", day) }} …/>`.
 */
export const linesRule = (mode: QuoteMode, day: string) => (drafts: readonly DraftLine[]) => {
  const result = validateLines(drafts, mode, day);
  return result.ok ? true : (firstLineError(result.errors) ?? QUOTE_MESSAGES.linesInvalid);
};

/**
 * The server's field errors of the lines ("lines.0.fee_cents" under `prefix` "lines") as the editor's
 * keys ("0.fee_cents"); the other fields are left out.
 */
export function lineErrorsFromFields(
  fields: Record<string, string> | undefined,
  prefix = "lines",
): LineErrors {
  const errors: LineErrors = {};
  for (const [path, message] of Object.entries(fields ?? {})) {
    if (path === prefix) errors.root = message;
    else if (path.startsWith(`${prefix}.`)) errors[path.slice(prefix.length + 1)] = message;
  }
  return errors;
}

/** The sum of the fees that can be read, in cents. */
export function draftsTotal(drafts: readonly DraftLine[]): number {
  return drafts.reduce((sum, draft) => sum + (parseEuros(draft.fee) ?? 0), 0);
}

/**
 * The 100 % Santé act the devis normalisé must also offer for this line, when the line's act has a
 * reste à charge and the lines do not already offer it on that tooth.
 */
export function missingAlternative(drafts: readonly DraftLine[], index: number, day: string) {
  const line = drafts[index];
  if (!line) return undefined;
  const alternative = santeAlternative(line.code, line.tooth, day);
  if (!alternative) return undefined;
  const offered = drafts.some((other) => other.code === alternative.code && other.tooth === line.tooth);
  return offered ? undefined : alternative;
}

/** The inputs of a line that can be highlighted "À vérifier" (a devis read by the server, issue 17). */
export type HighlightInput = "tooth" | "act" | "fee" | "br";

/**
 * The inputs showing the fields read with doubt: the code, the act and the basket are the act's input
 * (the basket comes with the act); the BR and the AMO (60 % of the BR) are the BR's input, which only a
 * free line has (a known act takes its BR from the table).
 */
export function highlightedInputs(fields: readonly ReadField[], draft: DraftLine): HighlightInput[] {
  const free = !(draft.code && actByCode(draft.code));
  const inputs = new Set<HighlightInput>();
  for (const field of fields) {
    if (field === "tooth") inputs.add("tooth");
    else if (field === "code" || field === "act" || field === "basket") inputs.add("act");
    else if (field === "fee_cents") inputs.add("fee");
    else if (free) inputs.add("br");
  }
  return [...inputs];
}
