import { actByCode } from "../../../../shared/domain/acts";
import { isFdiTooth, OFFER_LIMITS } from "../../../../shared/domain/offers";
import type { Basket } from "../../../../shared/domain/out-of-pocket";
import {
  CORRECTABLE_FIELDS,
  type CorrectableField,
  type QuoteReading,
  type ReadField,
  type ReadingChoice,
  type ReadLine,
  type ReadResult,
  TARIFF_FIELDS,
  type TariffField,
} from "../../../../shared/schemas/reading";
import { centsToInput, type DraftLine, emptyLine } from "../../../components/quote/quoteLines";

/**
 * Pure helpers of the review screen (issue 17): the lines read from the devis as the editor's drafts,
 * with the fields to check, and the sentences about the reading.
 */

/** The documents the server can read: a PDF, a JPEG or a PNG typed 'Devis'. */
export const READABLE_TYPES: readonly string[] = ["application/pdf", "image/jpeg", "image/png"];

/** Under the files of the upload, when a devis is sent without its lines typed. */
export const READING_UPLOAD_HINT =
  "Nous lirons votre devis pour vous : vous vérifierez les lignes avant qu'elles ne servent.";

/** Fields read with doubt, by draft id (the QuoteLinesEditor's `highlight`). */
export type Highlight = Record<string, ReadField[]>;

/** Where the review screen is: nothing to show, the reading under way, unreadable, or lines to check. */
export type ReadingStage = "none" | "pending" | "unreadable" | "review";

/**
 * What 'Mon devis' shows of the request's latest reading: only an open request without saved lines, and
 * a reading the patient has neither confirmed nor dismissed.
 */
export function readingStage(reading: QuoteReading | null | undefined, editable: boolean): ReadingStage {
  if (!editable || !reading || reading.confirmed_at || reading.dismissed_at) return "none";
  if (reading.status === "pending") return "pending";
  if (reading.status === "failed" || !reading.result || reading.result.lines.length === 0)
    return "unreadable";
  return "review";
}

/**
 * One read line as a draft: the tooth (an FDI number only), the act (a code of the table with its
 * label; another code kept in the free line's text, as `fromLineDtos` does), the fee, and the BR of a
 * free line only (a known act takes its own from the table).
 */
export function readLineToDraft(line: ReadLine): DraftLine {
  const known = line.code ? actByCode(line.code) : undefined;
  const act = line.act.trim();
  return {
    ...emptyLine(),
    code: known ? known.code : null,
    act: (known ? known.label : line.code ? (act ? `${line.code} · ${act}` : line.code) : act).slice(
      0,
      OFFER_LIMITS.actMax,
    ),
    tooth: line.tooth !== null && isFdiTooth(line.tooth) ? line.tooth : null,
    fee: line.fee_cents !== null && line.fee_cents > 0 ? centsToInput(line.fee_cents) : "",
    br: !known && line.br_cents !== null ? centsToInput(line.br_cents) : "",
  };
}

/**
 * The read lines as drafts, and the fields to check on each: those the server doubted, plus what it
 * could not read at all (a tooth outside the FDI chart, a missing fee).
 */
export function readLinesToDrafts(lines: readonly ReadLine[]): {
  drafts: DraftLine[];
  highlight: Highlight;
  /** The index of each draft's line in the reading (for the patient's choices, by draft id). */
  sources: Record<string, number>;
} {
  const drafts: DraftLine[] = [];
  const highlight: Highlight = {};
  const sources: Record<string, number> = {};
  for (const [index, line] of lines.entries()) {
    const draft = readLineToDraft(line);
    sources[draft.id] = index;
    const fields = new Set<ReadField>(line.uncertain);
    if (line.tooth !== null && draft.tooth === null) fields.add("tooth");
    if (draft.fee === "") fields.add("fee_cents");
    if (!draft.code && !draft.act) fields.add("act");
    drafts.push(draft);
    if (fields.size > 0) highlight[draft.id] = [...fields];
  }
  return { drafts, highlight, sources };
}

/**
 * A figure of a read line beside the act table's (issue 34): `read` is what the devis printed (null:
 * nothing printed, the reading filled it in from the table), `table` the table's on the devis's `day`.
 */
export interface TariffComparison {
  field: TariffField;
  read: number | Basket | null;
  table: number | Basket;
  day: string;
}

/** A printed AMO a cent away from 60 % of the BR is a rounding, not a contradiction. */
const sameFigure = (field: TariffField, a: number | Basket, b: number | Basket) =>
  field === "amo_cents" ? Math.abs(Number(a) - Number(b)) <= 1 : a === b;

/**
 * The figures of a read line to show beside the table's: those printed otherwise than the table says
 * on the devis's day, and those not printed at all (filled from the table). None for a free line.
 */
export function tariffComparisons(line: ReadLine): TariffComparison[] {
  const expected = line.expected;
  if (!expected) return [];
  const out: TariffComparison[] = [];
  for (const field of TARIFF_FIELDS) {
    const value = line[field];
    const filled = line.filled?.includes(field) ?? false;
    if (value === null || filled) {
      out.push({ field, read: null, table: expected[field], day: expected.day });
      continue;
    }
    if (!sameFigure(field, value, expected[field]))
      out.push({ field, read: value, table: expected[field], day: expected.day });
  }
  return out;
}

/**
 * An amount of a read line that the reading corrected (issue 34, ADR 043 addendum: an OCR digit lost or
 * doubled that the devis's other figures prove): the corrected figure and the one OCR first read.
 */
export interface CorrectedFigure {
  field: CorrectableField;
  value: number;
  read: number;
}

/** The corrections of a read line, fee first: both figures are shown, never the corrected one alone. */
export function correctedFigures(line: ReadLine): CorrectedFigure[] {
  const out: CorrectedFigure[] = [];
  for (const field of CORRECTABLE_FIELDS) {
    const read = line.as_read?.[field];
    const value = line[field];
    if (read === undefined || value === null || read === value) continue;
    out.push({ field, value, read });
  }
  return out;
}

/**
 * Where the value read goes back when the patient keeps it rather than the correction: the fee's field,
 * a free line's BR field, or — a known act's BR (the estimate takes the table's, ADR 038) and an AMO
 * (60 % of the BR, no field) — only the choice kept with the reading (`readingChoices`).
 */
export type CorrectionTarget = "fee" | "br" | "choice";

export function correctionTarget(field: CorrectableField, draft: DraftLine): CorrectionTarget {
  if (field === "fee_cents") return "fee";
  if (field === "br_cents" && !(draft.code && actByCode(draft.code))) return "br";
  return "choice";
}

/** The fields read into the input a value read goes back in: an edit of it checks them (`editedFields`). */
export const TARGET_FIELDS: Record<Exclude<CorrectionTarget, "choice">, readonly ReadField[]> = {
  fee: ["fee_cents"],
  br: ["br_cents", "amo_cents"],
};

/**
 * The choices to send with the lines: for every figure read otherwise than the table, read or table;
 * and for a corrected BR or AMO whose value read the patient kept (`chosen` "read"), "read" (without
 * it, the correction stands).
 */
export function readingChoices(
  lines: readonly ReadLine[],
  chosen: Readonly<Record<string, ReadingChoice["use"]>>,
): ReadingChoice[] {
  const out: ReadingChoice[] = [];
  for (const [index, line] of lines.entries()) {
    const compared = new Set<string>();
    for (const comparison of tariffComparisons(line))
      if (comparison.read !== null) {
        compared.add(comparison.field);
        out.push({
          line: index,
          field: comparison.field,
          use: chosen[`${index}.${comparison.field}`] ?? "read",
        });
      }
    for (const figure of correctedFigures(line))
      if (
        figure.field !== "fee_cents" &&
        !compared.has(figure.field) &&
        chosen[`${index}.${figure.field}`] === "read"
      )
        out.push({ line: index, field: figure.field, use: "read" });
  }
  return out;
}

/** The fields of a draft that the patient changed: they are checked, their "À vérifier" goes. */
function editedFields(before: DraftLine, after: DraftLine): ReadField[] {
  const fields: ReadField[] = [];
  if (before.tooth !== after.tooth) fields.push("tooth");
  if (before.code !== after.code || before.act !== after.act) fields.push("code", "act", "basket");
  if (before.fee !== after.fee) fields.push(...TARGET_FIELDS.fee);
  if (before.br !== after.br) fields.push(...TARGET_FIELDS.br);
  return fields;
}

/** The highlight once the drafts changed: edited fields lose it, removed lines are forgotten. */
export function updateHighlight(
  highlight: Highlight,
  before: readonly DraftLine[],
  after: readonly DraftLine[],
) {
  const previous = new Map(before.map((draft) => [draft.id, draft]));
  const next: Highlight = {};
  for (const draft of after) {
    const fields = highlight[draft.id];
    const old = previous.get(draft.id);
    if (!fields || !old) continue;
    const edited = editedFields(old, draft);
    const left = fields.filter((field) => !edited.includes(field));
    if (left.length > 0) next[draft.id] = left;
  }
  return next;
}

/** "Claire Martin" from "Dr Claire Martin", "Docteur Claire Martin" or "Dr. Claire Martin". */
function withoutTitle(name: string): string {
  return name.replace(/^\s*(?:docteur|dr\.?)\s+/i, "").trim();
}

/**
 * Who the devis is from and for, as read, for the patient to check it is theirs:
 * "Devis du Dr Claire Martin (RPPS 10101234567) pour Jean Dupont"; null when nothing was read.
 */
export function readingParties(result: ReadResult): string | null {
  const name = result.practitioner_name ? withoutTitle(result.practitioner_name) : "";
  const number = result.practitioner_number
    ? `${result.practitioner_number.kind} ${result.practitioner_number.value}`
    : "";
  const patient = result.patient_name?.trim() ?? "";
  const from = name ? `du Dr ${name}${number ? ` (${number})` : ""}` : number ? `du praticien ${number}` : "";
  if (!from && !patient) return null;
  return ["Devis", from, patient ? `pour ${patient}` : ""].filter(Boolean).join(" ");
}

/** Below this confidence (or with a total that does not match) the reading is to be checked with care. */
export const RELIABLE_CONFIDENCE = 0.8;

/** The confidence as words, never a raw number. */
export function confidenceWords(result: ReadResult): "Lecture fiable" | "Lecture à vérifier avec soin" {
  return result.confidence >= RELIABLE_CONFIDENCE && result.total_matches !== false
    ? "Lecture fiable"
    : "Lecture à vérifier avec soin";
}
