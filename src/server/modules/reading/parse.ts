import { ACTS, actByCode, actFitsTooth, type ReferenceAct, termsOn } from "../../../shared/domain/acts";
import { AMO_RATE } from "../../../shared/domain/out-of-pocket";
import { parisToday } from "../../../shared/policies/offers";
import type {
  ExpectedTerms,
  ReadField,
  ReadLine,
  ReadResult,
  TariffField,
} from "../../../shared/schemas/reading";
import { lineSupport } from "./support";
import type { PageWords, Word } from "./types";
import { findQuoteDate } from "./understand/dates";
import {
  COLUMN_KINDS,
  type Column,
  findHeader,
  fitZones,
  headerToken,
  readKinds,
  scaleColumns,
  zones,
} from "./understand/header";
import { readLabelledRow } from "./understand/labelled";
import { groupLines, median, type TextLine } from "./understand/lines";
import { findPatientName, findPractitionerName, findPractitionerNumber } from "./understand/people";
import {
  feeFromItsParts,
  placesByArithmetic,
  realign,
  realignment,
  remapByPlaces,
} from "./understand/realign";
import { assignGroups, inferColumns, type RawRow, readRow, spareAmounts } from "./understand/rows";
import {
  amoFits,
  amoOf,
  digitsRepaired,
  isNoAmount,
  mayBeCode,
  parseAmount,
  readCode,
  readTooth,
} from "./understand/values";

/**
 * Understanding a devis from its pages' words (issue 17): the table of acts found by its header, read row
 * by row by the header's columns, each line checked against the reference table; the total, the patient's
 * and the practitioner's names and number from the text around it. Pure: no I/O.
 */

/** Below this OCR confidence a field's words make it uncertain. */
const LOW_CONFIDENCE = 70;
/** Each uncertain field, a total that does not match, a devis without a table lower the confidence. */
const UNCERTAIN_FACTOR = 0.97;
const MISMATCH_FACTOR = 0.6;
const NO_TABLE_FACTOR = 0.3;
const NO_HEADER_FACTOR = 0.8;

/**
 * Whether two amounts' digits are one OCR slip apart: a digit lost or doubled ("1200" for 120,00 €,
 * "6000" for 6,00 €, "334" for 33,44 €) — ten times too much or too little, never a figure that could
 * be printed instead. A digit read as another ("128,00" for 120,00 €) is not a slip here: an old
 * tariff or a misprint looks the same, so it stays as read and flagged (ADR 043).
 */
export function oneSlipApart(a: number, b: number): boolean {
  const x = String(a);
  const y = String(b);
  if (Math.abs(x.length - y.length) !== 1) return false;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

function isTotalLine(line: TextLine): boolean {
  return line.words.slice(0, 4).some((w) => headerToken(w.text).startsWith("total"));
}

interface PageTable {
  rows: { raw: RawRow; line: TextLine }[];
  totalLine: TextLine | null;
  columns: Column[];
}

/** A line's text cut where a wide gap separates two blocks (the practitioner's and the patient's). */
function segments(line: TextLine): string[] {
  const out: string[][] = [];
  let last: Word | undefined;
  for (const word of line.words) {
    const current = out[out.length - 1];
    if (current && last && word.x - (last.x + last.width) <= Math.max(word.height, last.height) * 2)
      current.push(word.text);
    else out.push([word.text]);
    last = word;
  }
  return out.map((texts) => texts.join(" "));
}

/**
 * A header OCR read in part ("Montant des honoraires" garbled): the kinds it misses are taken from the
 * columns guessed from the rows, where they fit between the header's own columns — in the printed order
 * the guess assumes (tooth, code, act, basket, fee, BR, AMO) when the header's read columns follow it;
 * in another order, only where no column of the header stands.
 */
function completeColumns(header: Column[], body: Word[][], h: number): Column[] {
  if (readKinds(header) === COLUMN_KINDS.length) return header;
  const guessed = inferColumns(body, h);
  if (!guessed) return header;
  const order = (kind: Column["kind"]) => COLUMN_KINDS.indexOf(kind as (typeof COLUMN_KINDS)[number]);
  const read = header.filter((c) => c.kind !== "other");
  const canonical = read.every((c, i) => i === 0 || order((read[i - 1] as Column).kind) < order(c.kind));
  const merged = header.map(({ kind, x0, x1 }) => ({ kind, x0, x1 }));
  for (const c of guessed) {
    if (merged.some((m) => m.kind === c.kind)) continue;
    const free = merged.every((m) => m.x1 <= c.x0 || m.x0 >= c.x1);
    const before = merged.filter((m) => m.kind !== "other" && order(m.kind) < order(c.kind));
    const after = merged.filter((m) => m.kind !== "other" && order(m.kind) > order(c.kind));
    const inOrder = before.every((m) => m.x1 <= c.x0) && after.every((m) => m.x0 >= c.x1);
    // An amount guessed under an "other" column's neighbour is that column's, not a read one's.
    if (free && (canonical ? inOrder : !guessedAmountBesideOther(c, merged)))
      merged.push({ kind: c.kind, x0: c.x0, x1: c.x1 });
  }
  merged.sort((a, b) => a.x0 - b.x0);
  return zones(merged);
}

/** Outside the printed order, an amount column is guessed only when no "other" column is printed. */
function guessedAmountBesideOther(c: { kind: Column["kind"] }, merged: { kind: Column["kind"] }[]): boolean {
  return (c.kind === "fee" || c.kind === "br" || c.kind === "amo") && merged.some((m) => m.kind === "other");
}

/** The lines likely in the table's body: until the total, or a wide vertical gap (at most 40). */
function bodyLines(lines: TextLine[], start: number, h: number): TextLine[] {
  const body: TextLine[] = [];
  for (let i = start; i < lines.length && body.length < 40; i++) {
    const line = lines[i] as TextLine;
    const prev = i > start ? lines[i - 1] : undefined;
    if (isTotalLine(line) || (prev && line.top - prev.bottom > h * 3)) break;
    body.push(line);
  }
  return body;
}

/**
 * What a row line holds, to tell an act from a wrapped label or the end of the table. Words of no field
 * without a digit (OCR reading a table rule or a speck as "Ë", "Eos") do not make a label something else.
 */
function rowKind(raw: RawRow): "act" | "label" | "other" {
  if (raw.code || (raw.fee !== null && (raw.tooth !== null || raw.br !== null || raw.amo !== null)))
    return "act";
  if (
    raw.act &&
    raw.tooth === null &&
    raw.fee === null &&
    raw.br === null &&
    raw.amo === null &&
    !raw.words.some((w) => /\d/.test(w.text))
  )
    return "label";
  return "other";
}

/**
 * A line of words without a digit, all left of the amounts, that no column took as the label: a wrapped
 * label all the same, where OCR garbled the header and the act column was put too far right (photos,
 * issue 34). It does not end the table.
 */
function labelAside(raw: RawRow, line: TextLine, columns: Column[]): boolean {
  const amounts = columns.filter((c) => c.kind === "fee" || c.kind === "br" || c.kind === "amo");
  if (!amounts.length || raw.code !== null || raw.tooth !== null || raw.basket !== null) return false;
  if (raw.fee !== null || raw.br !== null || raw.amo !== null) return false;
  const start = Math.min(...amounts.map((c) => c.left));
  return (
    line.words.some((w) => /\p{L}{3}/u.test(w.text)) &&
    line.words.every((w) => !/\d/.test(w.text) && w.x + w.width <= start)
  );
}

/** A row OCR read with its code (or tooth) and none of its amounts. */
const codeHalf = (raw: RawRow) =>
  (raw.code !== null || raw.tooth !== null) && raw.fee === null && raw.br === null && raw.amo === null;
/** A row OCR read with its fee and neither its code nor its tooth. */
const amountHalf = (raw: RawRow) => raw.code === null && raw.tooth === null && raw.fee !== null;

/**
 * Two lines that are the two halves of one table row (photos and scans, issue 34): where a row's cells
 * are centred on a label wrapped over several lines, tesseract reads the code and the tooth with one of
 * the label's lines and the amounts with another, just above or below. One half holds the code or the
 * tooth and no amount, the other the fee and neither code nor tooth, and they touch.
 */
function halvesOfOneRow(above: { raw: RawRow; line: TextLine }, below: RawRow, line: TextLine, h: number) {
  if (line.top - above.line.bottom >= h * 0.5) return false;
  return (codeHalf(above.raw) && amountHalf(below)) || (amountHalf(above.raw) && codeHalf(below));
}

/** A line OCR read with amounts only: no code, no tooth (its fee may be garbled). */
const amountsOnly = (raw: RawRow) =>
  raw.code === null && raw.tooth === null && (raw.fee !== null || raw.br !== null || raw.amo !== null);

/**
 * Two touching lines neither of which is a row, one with the code or the tooth and no amount, the other
 * with amounts only — a row whose cells OCR put on two lines and garbled its code or its fee (issue 34:
 * "48 npLDess …" over "830:9€ Lie 100€ 600€"): read as one row when, together, they hold a code or a
 * tooth and the fee, or the BR and the AMO. null otherwise.
 */
function strayHalves(
  above: PageTable["rows"][number],
  below: RawRow,
  line: TextLine,
  columns: Column[],
  h: number,
): PageTable["rows"][number] | null {
  if (line.top - above.line.bottom >= h * 0.5) return null;
  if (!((codeHalf(above.raw) && amountsOnly(below)) || (amountsOnly(above.raw) && codeHalf(below))))
    return null;
  const words = [...above.line.words, ...line.words].sort((a, b) => a.x - b.x);
  const raw = readRow(words, columns, h);
  const figures = raw.fee !== null || (raw.br !== null && raw.amo !== null);
  if ((raw.code === null && raw.tooth === null) || !figures) return null;
  return {
    raw,
    line: {
      words,
      top: Math.min(above.line.top, line.top),
      bottom: Math.max(above.line.bottom, line.bottom),
      cy: (above.line.cy + line.cy) / 2,
    },
  };
}

/**
 * A line's words within the table's width (from its columns, with a margin: amounts may stand right of a
 * narrow header): on a photo, OCR reads the paper's edge and the background beside the table as words.
 * `headerLeft`: where the header's words begin — left of its first column read when OCR garbled the
 * first header ("cone" for "CODE"): that column's cells are the table's all the same.
 */
function withinTable(
  line: TextLine,
  columns: Column[],
  h: number,
  headerLeft = Number.POSITIVE_INFINITY,
): TextLine {
  const left = Math.min(headerLeft, ...columns.map((c) => c.x0)) - h * 1.5;
  const right = Math.max(...columns.map((c) => c.x1)) + h * 3;
  const words = line.words.filter((w) => w.x + w.width / 2 >= left && w.x + w.width / 2 <= right);
  return words.length === line.words.length ? line : { ...line, words };
}

/**
 * Where the header's words begin: its first word, when it stands no further than a few columns' width
 * left of the first column read (not the paper's edge or the background beside the table).
 */
function headerStart(lines: TextLine[], columns: Column[], h: number): number {
  const first = Math.min(...columns.map((c) => c.x0));
  const xs = lines.flatMap((line) => line.words.map((w) => w.x)).filter((x) => x >= first - h * 12);
  return Math.min(first, ...xs);
}

/**
 * On a photo or a scan, a row OCR garbled beyond reading (no code, no fee: "npLDess … 830:9€") does not
 * end the table when an act's row follows within a few close lines, before the total (issue 34): the
 * rows below it are still the table's.
 */
function rowAhead(lines: TextLine[], i: number, columns: Column[], h: number, headerLeft: number): boolean {
  for (let k = i + 1; k < Math.min(lines.length, i + 5); k++) {
    const line = lines[k] as TextLine;
    if (isTotalLine(line) || line.top - (lines[k - 1] as TextLine).bottom > h * 3) return false;
    if (rowKind(readRow(withinTable(line, columns, h, headerLeft).words, columns, h)) === "act") return true;
  }
  return false;
}

/**
 * A line without a code or a tooth whose fee is the sum of the rows' fees above it: the total, its word
 * garbled by OCR ("TOFAL"), not one more row.
 */
function sumOfRows(raw: RawRow, rows: { raw: RawRow }[]): boolean {
  if (raw.code !== null || raw.tooth !== null || raw.fee === null || !rows.length) return false;
  return (
    rows.every((row) => row.raw.fee !== null) &&
    rows.reduce((sum, row) => sum + (row.raw.fee ?? 0), 0) === raw.fee
  );
}

/** The rows of one page's table, from the line after `start` until the total or the end of the acts. */
function readTable(
  lines: TextLine[],
  start: number,
  columns: Column[],
  h: number,
  continued: boolean,
  /** Read by OCR: a row may come as two lines (halvesOfOneRow). */
  ocr = false,
  /** Where the header's words begin (withinTable). */
  headerLeft = Number.POSITIVE_INFINITY,
): PageTable {
  const rows: PageTable["rows"] = [];
  let totalLine: TextLine | null = null;
  let misses = 0;
  /** The line just read that was neither a row nor a label: maybe one half of a garbled row. */
  let stray: PageTable["rows"][number] | null = null;
  /** The index of the line `stray` was read from. */
  let strayAt = -1;
  // Label lines not yet given to a row: a wrapped label belongs to the row above it, or — where practice
  // software centres a row's cells on its wrapped label — to the row below it: to the nearer one.
  let pending: TextLine[] = [];
  const give = (row: PageTable["rows"][number], label: TextLine, before: boolean) => {
    const text = readRow(label.words, columns, h).act;
    row.raw.act = (before ? `${text} ${row.raw.act}` : `${row.raw.act} ${text}`).trim();
    row.line = {
      ...row.line,
      top: Math.min(row.line.top, label.top),
      bottom: Math.max(row.line.bottom, label.bottom),
    };
  };
  /** Pending labels with no row below: the row above takes those close under it. */
  const settle = () => {
    for (const label of pending) {
      const previous = rows[rows.length - 1];
      if (previous && label.top - previous.line.bottom < h * 0.9) give(previous, label, false);
    }
    pending = [];
  };
  for (let i = start; i < lines.length; i++) {
    const line = withinTable(lines[i] as TextLine, columns, h, headerLeft);
    if (isTotalLine(line)) {
      totalLine = line;
      break;
    }
    const raw = readRow(line.words, columns, h);
    if (ocr && sumOfRows(raw, rows)) {
      // "TOFAL 35,00": the total's word garbled, its figure the fees' sum.
      totalLine = line;
      break;
    }
    const kind = rowKind(raw) === "other" && labelAside(raw, line, columns) ? "label" : rowKind(raw);
    const above = rows[rows.length - 1];
    if (kind === "act" && ocr && above && !pending.length && halvesOfOneRow(above, raw, line, h)) {
      // The two halves of one row: read again as one line.
      const words = [...above.line.words, ...line.words].sort((a, b) => a.x - b.x);
      above.line = {
        words,
        top: Math.min(above.line.top, line.top),
        bottom: Math.max(above.line.bottom, line.bottom),
        cy: (above.line.cy + line.cy) / 2,
      };
      const act = above.raw.act;
      above.raw = readRow(words, columns, h);
      if (act.length > above.raw.act.length) above.raw.act = act;
      misses = 0;
      continue;
    }
    // The line just above, no row, held this row's tooth or code ("31 HBLDOSO Inlay-core…" over
    // "Santé 135,00 90,00 54,00"): the two halves of one row, read as one.
    const joined =
      kind === "act" && ocr && stray && strayAt === i - 1 && amountHalf(raw) && codeHalf(stray.raw)
        ? strayHalves(stray, raw, line, columns, h)
        : null;
    if (joined) {
      rows.push(joined);
      stray = null;
      misses = 0;
      continue;
    }
    // The row just read, its code or tooth and no amount, over a line of amounts that is no row, its
    // fee garbled or lost ("22 HBLD785" over "RAC 0 150R95 € 1229,45 € 279,50 € 167,70 €"): the two
    // halves of one row.
    const completed =
      kind === "other" && ocr && above && !pending.length ? strayHalves(above, raw, line, columns, h) : null;
    if (completed && above) {
      if (above.raw.act.length > completed.raw.act.length) completed.raw.act = above.raw.act;
      rows[rows.length - 1] = completed;
      misses = 0;
      continue;
    }
    if (kind === "act") {
      const row = { raw, line };
      // Labels just above go to the nearer row; the first of them decides for the ones above it.
      const labels = pending;
      pending = [];
      for (const label of labels.reverse()) {
        const previous = rows[rows.length - 1];
        const gapAbove = previous ? label.top - previous.line.bottom : Number.POSITIVE_INFINITY;
        const gapBelow = row.line.top - label.bottom;
        if (gapBelow <= gapAbove) give(row, label, true);
        else pending.unshift(label);
      }
      settle();
      rows.push(row);
      misses = 0;
      continue;
    }
    const previous = rows[rows.length - 1];
    const lastBottom = pending.length
      ? (pending[pending.length - 1] as TextLine).bottom
      : previous?.line.bottom;
    if (kind === "label") {
      // Far below the last label or row: the first line of the next row's label (its cells centred lower).
      if (lastBottom !== undefined && line.top - lastBottom >= h * 1.5) settle();
      if (pending.length < 4) {
        pending.push(line);
        continue;
      }
    }
    settle();
    // Before the first row of a page continuing the table, skip the page's own header lines.
    if (!rows.length && continued) continue;
    const halves = ocr && stray && kind === "other" ? strayHalves(stray, raw, line, columns, h) : null;
    if (halves) {
      rows.push(halves);
      stray = null;
      misses = 0;
      continue;
    }
    stray = kind === "other" ? { raw, line } : null;
    strayAt = i;
    misses++;
    if (rows.length && misses >= 2 && !(ocr && rowAhead(lines, i, columns, h, headerLeft))) break;
    if (!rows.length && misses >= 3) break;
  }
  settle();
  return { rows, totalLine, columns };
}

/**
 * The rows of a page without a table whose lines name their own fields (understand/labelled.ts: "Dent 36
 * - HBLD036 - … - Honoraires 650,00 EUR - Base SS 120,00 EUR"), from its first such act line until the
 * total, or two lines that are no act. null unless such lines are at least half the page's lines
 * holding a code: a table whose header was not read is read by its columns (inferColumns).
 */
function readLabelledTable(lines: TextLine[], ocr: boolean): PageTable | null {
  const rows: PageTable["rows"] = [];
  let totalLine: TextLine | null = null;
  let misses = 0;
  for (const line of lines) {
    if (rows.length && isTotalLine(line)) {
      totalLine = line;
      break;
    }
    const raw = readLabelledRow(line.words, ocr);
    if (raw && rowKind(raw) === "act") {
      rows.push({ raw, line });
      misses = 0;
      continue;
    }
    if (rows.length && ++misses >= 2) break;
  }
  const withCode = lines.filter((line) => line.words.some((w) => readCode(w.text))).length;
  if (!rows.length || rows.length * 2 < withCode) return null;
  // No columns: each row's figures stand where its own labels put them (no cell is read again by place).
  return { rows, totalLine, columns: [] };
}

/**
 * A row checked against the reference table on the devis's day (its basket and BR that day, for that
 * tooth): the line as the review screen shows it. What was read is never written over (issue 34, ADR
 * 043): a printed basket, BR or AMO that contradicts the table is kept, flagged "à vérifier", and the
 * table's values go beside it (`expected`) for the patient to choose. Only a field not printed at all
 * (null) is filled in — from the table, or from the line's own BR or AMO — flagged and listed in `filled`.
 */
function checkRow(raw: RawRow, ocr: boolean, day: string): ReadLine {
  const uncertain = new Set<ReadField>();
  const filled = new Set<TariffField>();
  const low = (field: keyof RawRow["confidence"]) => ocr && raw.confidence[field] < LOW_CONFIDENCE;
  for (const field of ["tooth", "code", "act", "basket", "fee_cents", "br_cents", "amo_cents"] as const)
    if (low(field)) uncertain.add(field);
  if (raw.codeRepaired) uncertain.add("code");
  if (raw.toothRepaired) uncertain.add("tooth");
  const fill = <T>(field: TariffField, value: T): T => {
    filled.add(field);
    uncertain.add(field);
    return value;
  };
  const known = raw.code ? actByCode(raw.code) : undefined;
  const terms = known ? termsOn(known.code, day, raw.tooth) : undefined;
  const expected: ExpectedTerms | null = terms
    ? { basket: terms.basket, br_cents: terms.brCents, amo_cents: amoOf(terms.brCents), day }
    : null;
  let { basket, br, amo } = raw;
  const asRead: NonNullable<ReadLine["as_read"]> = {};
  /**
   * OCR slips (issue 34): a BR or an AMO a digit lost or doubled away from the table's ("1200" for
   * 120,00 €) — a figure no devis prints for that act — is corrected when the line's other figure does
   * not contradict it: that figure is the table's, is not read (a layout without the column, or none
   * read), or has slipped too ("1200" and "720" for 120,00 € and 72,00 €; "1,00" and "60,00" for
   * 10,00 € and 6,00 €). The figure stays flagged "à vérifier", and what OCR read is kept beside it
   * (`as_read`): never silently. (A free line has no table to tell which of its BR and AMO slipped.)
   * So is a BR garbled beyond a slip ("20.00" for 90,00 €) when two of the row's own figures give the
   * table's: its AMO is the table's 60 %, and another of its amounts is the fee less that BR (a
   * "Dépassement" column).
   */
  if (ocr && known && expected) {
    const brSlipped = br !== null && oneSlipApart(br, expected.br_cents);
    const amoSlipped = amo !== null && oneSlipApart(amo, expected.amo_cents);
    const fee = raw.fee;
    const brBorneOut =
      br !== null &&
      br !== expected.br_cents &&
      amo !== null &&
      amoFits(amo, expected.br_cents) &&
      fee !== null &&
      spareAmounts(raw).some((value) => Math.abs(fee - value - expected.br_cents) <= 1);
    if (brBorneOut || (brSlipped && (amo === null || amoSlipped || amoFits(amo, expected.br_cents)))) {
      asRead.br_cents = br as number;
      br = expected.br_cents;
      uncertain.add("br_cents");
    }
    if (amoSlipped && (raw.br === null || brSlipped || raw.br === expected.br_cents)) {
      asRead.amo_cents = amo as number;
      amo = expected.amo_cents;
      uncertain.add("amo_cents");
    }
  }
  if (known && expected) {
    if (basket === null) basket = fill("basket", expected.basket);
    else if (basket !== expected.basket) uncertain.add("basket");
    if (br === null) br = fill("br_cents", expected.br_cents);
    else if (br !== expected.br_cents) uncertain.add("br_cents");
    if (amo === null) amo = fill("amo_cents", expected.amo_cents);
    else if (!amoFits(amo, expected.br_cents)) uncertain.add("amo_cents");
    if (!actFitsTooth(known, raw.tooth) || (known.teeth !== "arch" && raw.tooth === null))
      uncertain.add("tooth");
  } else {
    // A free line (or no code read): the basket is 'libre' as the structured quote makes it.
    if (basket === null) basket = fill("basket", "libre");
    // A BR or an AMO under 1 € on a photo or a scan: no act has one (the table's smallest BR is
    // 10,00 €), a free line's is 0 — OCR read its euros, 0, and garbled its cents ("010€" and "006" for
    // 0,00 €, which the 60 % rule cannot catch). It is 0, flagged, what was read kept beside it.
    if (ocr && br !== null && br > 0 && br < 100) {
      asRead.br_cents = br;
      br = 0;
      uncertain.add("br_cents");
    }
    if (ocr && amo !== null && amo > 0 && amo < 100) {
      asRead.amo_cents = amo;
      amo = 0;
      uncertain.add("amo_cents");
    }
    // An act outside the table with its fee and no BR or AMO printed (a dash or "NR" that OCR lost, or
    // left blank): not reimbursed, as a free line's "—" reads.
    if (raw.code !== null && raw.fee !== null && br === null && amo === null) {
      br = fill("br_cents", 0);
      amo = fill("amo_cents", 0);
    }
    if (br === null && amo !== null) br = fill("br_cents", Math.round(amo / AMO_RATE));
    if (amo === null && br !== null) amo = fill("amo_cents", amoOf(br));
    // A printed AMO that is not 60 % of the printed BR: one of them is misread (or misprinted).
    if (raw.br !== null && raw.amo !== null && !amoFits(raw.amo, raw.br)) {
      uncertain.add("amo_cents");
      if (ocr) uncertain.add("br_cents");
    }
  }
  if (raw.fee === null) uncertain.add("fee_cents");
  if (!raw.act) uncertain.add("act");
  // A cell whose figure a re-mapping of the columns changed (realignTable): what was read in it is shown
  // beside the new figure, flagged.
  type Moved = [keyof NonNullable<RawRow["moved"]>, number | null];
  for (const [field, value] of Object.entries(raw.moved ?? {}) as Moved[]) {
    uncertain.add(field);
    if (value !== null) asRead[field] = value;
  }
  return {
    tooth: raw.tooth,
    code: raw.code,
    act: raw.act || (known?.label ?? ""),
    basket,
    fee_cents: raw.fee,
    br_cents: br,
    amo_cents: amo,
    uncertain: [...uncertain],
    expected,
    filled: [...filled],
    ...(Object.keys(asRead).length ? { as_read: asRead } : {}),
  };
}

/**
 * A row of a photo or a scan whose code OCR garbled beyond lookalikes ("MaLDo31", "HE[D245;", "UPLP318"
 * for HBLD031, HBLD245, HBLD318): no code read, or one outside the act table. The table's codes differ
 * in their three digits (were two to share them, neither would be chosen), so a word of the row (its code, a word no field took, or one of its label —
 * where OCR put the code when the header's code column was not read) ending in three
 * digits — two at least read as digits — names one act of the table; it is taken only when the row's own
 * figures bear it out: the BR read is that act's BR on the devis's day, or the AMO read its 60 %; the
 * tooth read, if any, is one the act allows; and a letter of the word is one of the code's, or its
 * four letters and three digits make a code's shape ("upup227" for HBLD227). The code is then flagged
 * « à vérifier » (`codeRepaired`), as any repaired code.
 */
export function resolveCode(raw: RawRow, day: string): RawRow {
  if (raw.code && actByCode(raw.code)) return raw;
  const tokens = raw.code ? [raw.code] : [...raw.words.map((w) => w.text), ...raw.act.split(/\s+/)];
  /** The row's BR read is the act's on the day, or its AMO the 60 %; the tooth read, if any, one it allows. */
  const borne = (act: ReferenceAct) => {
    const br = termsOn(act.code, day, raw.tooth)?.brCents;
    if (!br) return false;
    return (
      (raw.br === br || (raw.amo !== null && amoFits(raw.amo, br))) &&
      (raw.tooth === null || actFitsTooth(act, raw.tooth))
    );
  };
  for (const token of tokens) {
    const t = token.replace(/[\s._\-—–|:;,'"“”‘’()[\]]/g, "");
    if (t.length < 6 || t.length > 8) continue;
    const tail = t.slice(-3);
    const digits = digitsRepaired(tail);
    if (!/^\d{3}$/.test(digits) || (tail.match(/\d/g) ?? []).length < 2) continue;
    const head = t.slice(0, -3).toUpperCase();
    if ((head.match(/[A-Z]/g) ?? []).length < 2) continue;
    // Four letters all garbled ("upup227" for HBLD227) still make a code's shape when its three digits
    // were read as digits.
    const shaped = /^[A-Z]{4}$/.test(head) && /^\d{3}$/.test(tail);
    // Every act of the table the word and the row's figures bear out: taken only when it is one.
    const acts = ACTS.filter((act) => {
      if (!act.code.endsWith(digits)) return false;
      if (!shaped && ![...head].some((c) => act.code.slice(0, 4).includes(c))) return false;
      return borne(act);
    });
    const [act] = acts;
    if (act && acts.length === 1) return { ...raw, code: act.code, codeRepaired: true };
  }
  // The code's four letters read right and its digits garbled into letters beyond lookalikes
  // ("HBLDOSO" for HBLD090, "HBLD7SS" for HBLD785): the word may be every act of the table whose digits
  // it shows or whose lookalike letters it has (mayBeCode); taken only when the row's figures bear out
  // exactly one of them, as above.
  const acts = ACTS.filter((act) => tokens.some((token) => mayBeCode(token, act.code)) && borne(act));
  const [act] = acts;
  if (act && acts.length === 1) return { ...raw, code: act.code, codeRepaired: true };
  // Its four letters right and one of its digits read as another digit ("HBLD931" for HBLD031, a 0
  // of a serif font read as a 9): a code outside the table one digit away from acts of the table, taken
  // likewise only when the row's figures bear out exactly one of them.
  const near = ACTS.filter((act) => tokens.some((token) => mayBeCode(token, act.code, 1)) && borne(act));
  const [nearest] = near;
  if (nearest && near.length === 1) return { ...raw, code: nearest.code, codeRepaired: true };
  return raw;
}

/**
 * A table of a photo or a scan whose amount columns most rows show one place off (understand/realign.ts):
 * re-mapped when the devis bears the re-mapped rows out better than the rows as read (support.ts, the
 * flags of the re-mapping itself left out of the count). A shift must be borne out strictly better; a
 * "Montant non remboursé" read as the BR or the AMO at least as well — that it is the fee less the table's
 * AMO is itself the devis's evidence, and the figure then comes from the row or, flagged, from the table.
 */
function realignTable(raws: RawRow[], day: string): RawRow[] {
  const way = realignment(raws, day);
  const remapped = realign(raws, day, way);
  if (!way || !remapped) return raws;
  const before = tableSupport(raws, day);
  const after = tableSupport(remapped, day);
  return (way === "right" || way === "left" ? after > before : after >= before) ? remapped : raws;
}

/** How well the devis bears the rows out (support.ts), the flags of a re-mapping left out. */
function tableSupport(rows: readonly RawRow[], day: string): number {
  return rows.reduce((sum, raw) => sum + lineSupport(checkRow({ ...raw, moved: undefined }, true, day)), 0);
}

/**
 * The rows of a photo or a scan with their codes resolved and their garbled fees rebuilt
 * (`resolveCode`, `feeFromItsParts`) — first re-mapped to the places most rows' own arithmetic shows
 * for the fee, BR and AMO when those are not the header's (understand/realign.ts, `placesByArithmetic`),
 * and the devis bears the re-mapped rows out at least as well: the rows' arithmetic is itself the
 * devis's evidence, and the codes a re-mapping lets `resolveCode` read count for it.
 */
function byArithmetic(raws: RawRow[], day: string): RawRow[] {
  const resolved = (rows: RawRow[]) => rows.map((raw) => feeFromItsParts(resolveCode(raw, day), day));
  const asRead = resolved(raws);
  const places = placesByArithmetic(raws);
  if (!places) return asRead;
  const remapped = resolved(raws.map((raw) => remapByPlaces(raw, places)));
  return tableSupport(remapped, day) >= tableSupport(asRead, day) ? remapped : asRead;
}

/** The total printed on the total row: in the fee column, else the row's first amount. */
function readTotal(line: TextLine, columns: Column[]): number | null {
  const pieces = line.words
    .filter((w) => !headerToken(w.text).startsWith("total") && (/\d/.test(w.text) || isNoAmount(w.text)))
    .map((w) => ({ text: w.text, x0: w.x, x1: w.x + w.width, confidence: w.confidence }));
  if (!pieces.length) return null;
  const h = median(line.words.map((w) => w.height));
  const groups: (typeof pieces)[] = [];
  for (const p of pieces) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last && p.x0 - last.x1 <= h * 1.6 && /^\d{1,3}$/.test(group.map((g) => g.text).join(""))) {
      group.push(p);
      continue;
    }
    groups.push([p]);
  }
  const amountColumns = columns.filter((c) => c.kind === "fee" || c.kind === "br" || c.kind === "amo");
  const fee = assignGroups(groups, amountColumns).find(([kind]) => kind === "fee");
  if (fee) {
    const value = parseAmount(fee[1].map((p) => p.text).join(" "), { centsImplied: true });
    if (value !== null) return value;
  }
  for (const group of groups) {
    const value = parseAmount(group.map((p) => p.text).join(" "), { centsImplied: true });
    if (value !== null) return value;
  }
  return null;
}

/**
 * The one fee not read is what the total leaves for it; it stays marked uncertain. (A fee read unsure is
 * kept: the total is no surer.)
 */
function fillFeeFromTotal(lines: ReadLine[], total: number | null): boolean {
  if (total === null || !lines.length) return false;
  const sum = lines.reduce((s, line) => s + (line.fee_cents ?? 0), 0);
  if (sum === total) return false;
  const missing = lines.filter((line) => line.fee_cents === null);
  const target = missing.length === 1 ? missing[0] : null;
  if (!target) return false;
  const rest = sum - (target.fee_cents ?? 0);
  const fee = total - rest;
  if (fee > 0 && fee <= 100_000_00) {
    target.fee_cents = fee;
    if (!target.uncertain.includes("fee_cents")) target.uncertain.push("fee_cents");
    return true;
  }
  return false;
}

/**
 * The printed total is the sum of the fees but for one fee a digit lost or doubled away from what the
 * total leaves for it ("11780" for 1 178,00 €): that fee is corrected, flagged "à vérifier". Only when
 * exactly one fee fits. The fee OCR read is kept in `as_read`, for the review screen to show both.
 */
function repairFeeByTotal(lines: ReadLine[], total: number | null, ocr: boolean): boolean {
  if (!ocr || total === null || !lines.length || lines.some((line) => line.fee_cents === null)) return false;
  const sum = lines.reduce((s, line) => s + (line.fee_cents ?? 0), 0);
  if (sum === total) return false;
  const fits = lines.filter((line) => {
    const fee = line.fee_cents as number;
    const wanted = total - (sum - fee);
    return wanted > 0 && oneSlipApart(fee, wanted);
  });
  const target = fits.length === 1 ? fits[0] : undefined;
  if (!target) return false;
  target.as_read = { ...target.as_read, fee_cents: target.fee_cents as number };
  target.fee_cents = total - (sum - (target.fee_cents as number));
  if (!target.uncertain.includes("fee_cents")) target.uncertain.push("fee_cents");
  return true;
}

/**
 * Every fee read, and the printed total — read apart from them — is their sum: the fees are confirmed,
 * whatever OCR's doubt on their words (the patient is not asked to check what the devis itself adds up).
 */
function confirmFeesByTotal(lines: ReadLine[]) {
  if (!lines.every((line) => line.fee_cents !== null)) return;
  for (const line of lines) line.uncertain = line.uncertain.filter((field) => field !== "fee_cents");
}

/** OCR reads table rules and specks as punctuation ("|", "==", ":"): such words carry nothing. */
const isJunk = (w: Word) => !/[\p{L}\p{N}€%—–:-]/u.test(w.text);

/**
 * OCR sometimes gives a word a box running far past its letters, over the next words of its line
 * (tesseract's "Honoraires" spanning the "BRSS", "Remb." and "Montant non" headers after it, issue 34):
 * such a box makes one column of several and joins the header's lines into one block. A word at least
 * twice as wide per character as the page's words, whose box covers the start of a later word of its
 * line, is cut short just before that word. Its text is not touched.
 */
export function trimOverlongBoxes(words: Word[]): Word[] {
  const perChar = median(
    words.filter((w) => w.text.length >= 3 && w.width > 0).map((w) => w.width / w.text.length),
  );
  if (!(perChar > 0)) return words;
  return words.map((w) => {
    if (w.width / Math.max(1, w.text.length) < perChar * 2) return w;
    const cy = w.y + w.height / 2;
    const covered = words.filter((o) => {
      if (o === w || o.x <= w.x || o.x >= w.x + w.width) return false;
      const ocy = o.y + o.height / 2;
      return ocy >= w.y && ocy <= w.y + w.height && cy >= o.y && cy <= o.y + o.height;
    });
    if (!covered.length) return w;
    const next = Math.min(...covered.map((o) => o.x));
    const width = Math.max(next - w.x - perChar * 0.5, perChar * w.text.length * 0.5);
    return width < w.width ? { ...w, width } : w;
  });
}

/**
 * Where a read line stands on its page (`page`: index in the pages given), for reading its cells again
 * (cells.ts): its row's words and vertical extent, the table's columns, the page's median word height.
 */
export interface RowLayout {
  page: number;
  top: number;
  bottom: number;
  h: number;
  columns: Column[];
  words: Word[];
}

/** A cell of a read line read again (cells.ts): its new text, already checked against the devis. */
export interface CellCorrection {
  field: "tooth" | "code" | "fee_cents" | "br_cents" | "amo_cents";
  text: string;
  /** OCR's confidence in the new reading, 0–100. */
  confidence: number;
}

/**
 * A row with the cells read again put in place of what was read first. Applied to the row itself rather
 * than by replacing its words: new words would be grouped into lines again, and on a row whose cells are
 * centred on a wrapped label the lines then no longer match (issue 34).
 */
function correctRow(raw: RawRow, corrections: readonly CellCorrection[]): RawRow {
  const row = { ...raw, confidence: { ...raw.confidence } };
  for (const { field, text, confidence } of corrections) {
    if (field === "code") {
      const code = readCode(text);
      if (!code) continue;
      row.code = code.code;
      row.codeRepaired = code.repaired;
      row.confidence.code = confidence;
    } else if (field === "tooth") {
      const tooth = readTooth(text);
      if (!tooth) continue;
      row.tooth = tooth.tooth;
      row.toothRepaired = tooth.repaired;
      row.confidence.tooth = confidence;
    } else {
      const value = parseAmount(text, { centsImplied: true });
      if (value === null) continue;
      if (field === "fee_cents") row.fee = value;
      else if (field === "br_cents") row.br = value;
      else row.amo = value;
      row.confidence[field] = confidence;
    }
  }
  return row;
}

export function parseQuote(
  input: PageWords[],
  {
    today = parisToday(new Date()),
    layout,
    corrections,
  }: {
    today?: string;
    /** Filled, when given, with one entry per line of the result, in order. */
    layout?: RowLayout[];
    /** Cells read again, by line index (the same words give the same lines): put in place of the first reading. */
    corrections?: ReadonlyMap<number, readonly CellCorrection[]>;
  } = {},
): ReadResult {
  const pages = input.map((page) =>
    page.source === "ocr"
      ? { ...page, words: trimOverlongBoxes(page.words.filter((w) => !isJunk(w))) }
      : page,
  );
  const allWords: Word[] = pages.flatMap((p) => p.words);
  const pageLines = pages.map((page) => groupLines(page.words));
  const texts = pageLines.flatMap((lines) => lines.flatMap(segments));
  const quoteDate = findQuoteDate(texts);
  const day = quoteDate ?? today;

  const lines: ReadLine[] = [];
  const tableWords: Word[] = [];
  let total: number | null = null;
  let headerFound = false;
  let inferredTable = false;
  /** A page read by the names its lines give their fields (readLabelledTable): as good as a header. */
  let labelledTable = false;
  let columns: Column[] | null = null;
  let columnsWidth = 0;
  let done = false;
  pages.forEach((page, index) => {
    if (done) return;
    const pl = pageLines[index] as TextLine[];
    const h = median(page.words.map((w) => w.height)) || 1;
    const header = findHeader(pl);
    const labelled = !header && !columns ? readLabelledTable(pl, page.source === "ocr") : null;
    let table: PageTable | null = null;
    if (header) {
      headerFound = true;
      const body = bodyLines(pl, header.lastLine + 1, h).map((line) => line.words);
      columns = fitZones(completeColumns(header.columns, body, h), body);
      columnsWidth = page.width;
      tableWords.push(...header.words);
      table = readTable(
        pl,
        header.lastLine + 1,
        columns,
        h,
        false,
        page.source === "ocr",
        headerStart(pl.slice(header.firstLine, header.lastLine + 1), columns, h),
      );
    } else if (!columns && labelled) {
      // No header: the lines name their own fields, and are read by those names.
      table = labelled;
      labelledTable = true;
    } else if (!columns) {
      // No header read (OCR lost it): the columns guessed from the rows holding a code.
      const first = pl.findIndex((line) => line.words.some((w) => readCode(w.text)));
      const inferred =
        first >= 0
          ? inferColumns(
              bodyLines(pl, first, h).map((l) => l.words),
              h,
            )
          : null;
      if (inferred) {
        columns = fitZones(
          inferred,
          bodyLines(pl, first, h).map((line) => line.words),
        );
        columnsWidth = page.width;
        inferredTable = true;
        // A row above the first code read (its code misread) is still a row.
        table = readTable(pl, Math.max(0, first - 3), columns, h, true, page.source === "ocr");
      }
    } else {
      const scaled = scaleColumns(columns, columnsWidth ? page.width / columnsWidth : 1);
      table = readTable(pl, 0, scaled, h, true, page.source === "ocr");
    }
    if (!table) return;
    const ocr = page.source === "ocr";
    const raws = table.rows.map(({ raw }, k) => {
      const corrected = corrections?.get(lines.length + k);
      return corrected ? correctRow(raw, corrected) : raw;
    });
    const rows = ocr ? realignTable(byArithmetic(raws, day), day) : raws;
    for (const [k, { line }] of table.rows.entries()) {
      lines.push(checkRow(rows[k] as RawRow, ocr, day));
      tableWords.push(...line.words);
      if (layout)
        layout.push({
          page: index,
          top: line.words.length ? Math.min(...line.words.map((w) => w.y)) : line.top,
          bottom: line.words.length ? Math.max(...line.words.map((w) => w.y + w.height)) : line.bottom,
          h,
          columns: table.columns,
          words: line.words,
        });
    }
    if (table.totalLine) {
      total = readTotal(table.totalLine, table.columns);
      tableWords.push(...table.totalLine.words);
      done = true;
    }
  });

  const ocrRead = pages.some((page) => page.source === "ocr");
  const filled = fillFeeFromTotal(lines, total) || repairFeeByTotal(lines, total, ocrRead);
  const linesTotal = lines.reduce((sum, line) => sum + (line.fee_cents ?? 0), 0);
  const totalMatches = total === null ? null : total === linesTotal;
  if (totalMatches && !filled) confirmFeesByTotal(lines);
  const confidenceWords = tableWords.length ? tableWords : allWords;
  let confidence = confidenceWords.length
    ? confidenceWords.reduce((sum, w) => sum + w.confidence, 0) / confidenceWords.length / 100
    : 0;
  for (const line of lines) confidence *= UNCERTAIN_FACTOR ** line.uncertain.length;
  if (totalMatches === false) confidence *= MISMATCH_FACTOR;
  if (!headerFound && !labelledTable) confidence *= inferredTable ? NO_HEADER_FACTOR : NO_TABLE_FACTOR;

  return {
    lines,
    total_cents: total,
    lines_total_cents: linesTotal,
    total_matches: totalMatches,
    patient_name: findPatientName(texts),
    practitioner_name: findPractitionerName(texts),
    practitioner_number: findPractitionerNumber(texts),
    quote_date: quoteDate,
    confidence: Math.max(0, Math.min(1, confidence)),
  };
}
