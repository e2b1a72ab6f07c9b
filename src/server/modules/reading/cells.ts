import sharp from "sharp";
import { actByCode, actFitsTooth } from "../../../shared/domain/acts";
import type { CorrectableField, ReadField, ReadLine, ReadResult } from "../../../shared/schemas/reading";
import { type CellRead, type OcrOptions, recognizeCells } from "./ocr";
import { type CellCorrection, parseQuote, type RowLayout } from "./parse";
import type { OcrPageImage, PageWords, Word } from "./types";
import type { ColumnKind } from "./understand/header";
import { amoFits, parseAmount, readCode, readTooth } from "./understand/values";

/**
 * Reading a table's cells again (issue 34, ADR 041 addendum): on a photo or a scan, tesseract reads the
 * whole page at once and loses or garbles the figures of some cells (a tooth joined with a wrapped
 * label, a digit or a comma lost in an amount, a code under a fold). Once the table is understood, the
 * cells whose first reading is missing or implausible — a tooth the act does not allow or none where
 * it needs one, a line without a code or with one the act table does not know, a fee missing or contradicting the printed total, a BR or AMO
 * that neither the table nor the line's other figure bears out — are cut out of the prepared page and
 * read again each as one line of digits (or of a code's letters and digits). A new reading is taken only
 * where it fits what the devis itself says (the act allows the tooth, the code is in the table, the AMO
 * is 60 % of the BR, the fees add up to the printed total); the lines are then understood again. An
 * amount read first and replaced is kept in `as_read` and flagged "à vérifier": never silently.
 */

type CellField = "tooth" | "code" | CorrectableField;

const COLUMN_OF: Record<CellField, ColumnKind> = {
  tooth: "tooth",
  code: "code",
  fee_cents: "fee",
  br_cents: "br",
  amo_cents: "amo",
};

const DIGITS = "0123456789";
const AMOUNT = "0123456789,.";
const CODE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** At most this many cells are read again per devis (each costs a small OCR pass). */
export const MAX_CELLS = 24;

interface Cell {
  line: number;
  field: CellField;
  box: { x: number; y: number; width: number; height: number };
  /** The row's words the cell replaces. */
  words: Word[];
}

/**
 * An amount read in a cell with only digits allowed: a euro sign after it is read as one more digit
 * ("72,006"); an amount of a devis has two decimals, so a third one is that sign.
 */
function cellAmount(text: string): number | null {
  const t = text.replace(/\s/g, "");
  const euro = /^(\d[\d.,]*[.,]\d{2})\d$/.exec(t);
  return parseAmount(euro?.[1] ?? t, { centsImplied: true });
}

/** Cents as a word the understanding reads back: "1234,56". */
const formatAmount = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
const isEuro = (text: string) => /^(?:€|E|EUR)\.?$/i.test(text);

/** The cells of the read lines worth a second reading (those with a column of their own on the row). */
export function cellsToReadAgain(
  result: ReadResult,
  layout: RowLayout[],
): { line: number; field: CellField }[] {
  const out: { line: number; field: CellField }[] = [];
  for (const [index, line] of result.lines.entries()) {
    const known = line.code ? actByCode(line.code) : undefined;
    const was = (field: ReadField) => line.uncertain.includes(field);
    const filled = (field: "br_cents" | "amo_cents") => line.filled?.includes(field) ?? false;
    // No code read, or one the act table does not know (OCR read "HBLP745" for HBLD745).
    if (!line.code || !known) out.push({ line: index, field: "code" });
    if (
      (line.tooth === null && known?.teeth !== "arch") ||
      (line.tooth !== null && known && !actFitsTooth(known, line.tooth)) ||
      (line.tooth !== null && was("tooth"))
    )
      out.push({ line: index, field: "tooth" });
    // A total that the fees do not add up to: every fee is read again (more than one may have slipped).
    if (line.fee_cents === null || result.total_matches === false)
      out.push({ line: index, field: "fee_cents" });
    if (!line.as_read?.br_cents && (filled("br_cents") || was("br_cents")))
      out.push({ line: index, field: "br_cents" });
    if (!line.as_read?.amo_cents && (filled("amo_cents") || was("amo_cents")))
      out.push({ line: index, field: "amo_cents" });
  }
  return out.filter((s) => layout[s.line]?.columns.some((c) => c.kind === COLUMN_OF[s.field]));
}

/**
 * A table whose code column's header OCR did not read (its codes then fall in the tooth's or the act's
 * zone): the rows of a page get a code column where at least two rows of it show a code of the act
 * table, from the left of the leftmost to the right of the rightmost — so that a row whose code was not
 * read has a cell to read again. Rows of a page with a code column, or fewer codes, are left as they are.
 */
export function withCodeColumn(layout: readonly RowLayout[]): RowLayout[] {
  const spans = new Map<number, { x0: number; x1: number; h: number; rows: number }>();
  for (const row of layout) {
    if (row.columns.some((c) => c.kind === "code")) continue;
    const words = row.words.filter((w) => readCode(w.text)?.known);
    if (!words.length) continue;
    const span = spans.get(row.page) ?? { x0: Infinity, x1: -Infinity, h: row.h, rows: 0 };
    span.x0 = Math.min(span.x0, ...words.map((w) => w.x));
    span.x1 = Math.max(span.x1, ...words.map((w) => w.x + w.width));
    span.rows += 1;
    spans.set(row.page, span);
  }
  return layout.map((row) => {
    const span = spans.get(row.page);
    if (!span || span.rows < 2 || row.columns.some((c) => c.kind === "code")) return row;
    const column = {
      kind: "code" as const,
      x0: span.x0,
      x1: span.x1,
      left: span.x0 - span.h,
      right: span.x1 + span.h,
    };
    return { ...row, columns: [...row.columns, column] };
  });
}

/** Where a cell stands: its words' box in the column's zone on the row, else the zone itself. */
export function locate(
  row: RowLayout,
  field: CellField,
  page: OcrPageImage,
): Cell["box"] & { words: Word[] } {
  const column = row.columns.find((c) => c.kind === COLUMN_OF[field]);
  if (!column) throw new Error("no column");
  const words = row.words.filter((w) => {
    const x = w.x + w.width / 2;
    return x >= column.left && x < column.right && !isEuro(w.text);
  });
  // A code or a tooth: wide margins (OCR's box of a word may miss its last character); an amount: narrow
  // ones, the euro sign printed just after it is not a digit.
  const padX = row.h * (field === "code" || field === "tooth" ? 1.2 : 0.6);
  const padY = row.h * 0.4;
  // An empty cell: its column's zone, no wider than its header and a few characters either side (the
  // first and last zones run to the page's edges).
  let x0 = words.length
    ? Math.min(...words.map((w) => w.x)) - padX
    : Math.max(column.left, column.x0 - row.h * 4);
  let x1 = words.length
    ? Math.max(...words.map((w) => w.x + w.width)) + padX
    : Math.min(column.right, column.x1 + row.h * 4);
  // A tooth's two digits: OCR's box of a word in its cell may be a piece of them (a dash read for the
  // "4" of "48"): the crop spans two digits and their margin either side of its centre, within the
  // column's zone.
  if (field === "tooth" && words.length) {
    const centre = (x0 + x1) / 2;
    x0 = Math.min(x0, Math.max(column.left, centre - row.h * 2.5));
    x1 = Math.max(x1, Math.min(column.right, centre + row.h * 2.5));
  }
  const y0 = row.top - padY;
  const y1 = row.bottom + padY;
  const x = Math.max(0, Math.floor(x0));
  const y = Math.max(0, Math.floor(y0));
  return {
    x,
    y,
    width: Math.min(page.width, Math.ceil(x1)) - x,
    height: Math.min(page.height, Math.ceil(y1)) - y,
    words,
  };
}

/**
 * Characters of a cell are enlarged to about this height (pixels) before being read again: tesseract
 * reads small text best when its letters are 20–30 px high or more, and a photo's 8-point figures come
 * out of the preparation smaller than that.
 */
export const CELL_TEXT_HEIGHT = 40;
/** The most a cell is enlarged. */
export const MAX_CELL_SCALE = 3;

/** How much a cell whose words are `h` pixels high is enlarged before being read again (1: not at all). */
export function cellScale(h: number, target = CELL_TEXT_HEIGHT): number {
  if (!(h > 0) || h >= target) return 1;
  return Math.min(MAX_CELL_SCALE, Math.round((target / h) * 4) / 4);
}

/**
 * A cell's pixels as a small PNG with a white margin (tesseract reads a line better with one), enlarged
 * `scale` times (bicubic: the strokes stay smooth rather than blocky).
 */
export async function cutOut(
  grey: Buffer,
  page: { width: number },
  box: Cell["box"],
  scale = 1,
): Promise<Buffer> {
  const out = Buffer.alloc(box.width * box.height);
  for (let row = 0; row < box.height; row += 1) {
    const from = (box.y + row) * page.width + box.x;
    grey.copy(out, row * box.width, from, from + box.width);
  }
  const margin = Math.round(12 * scale);
  let image = sharp(out, { raw: { width: box.width, height: box.height, channels: 1 } });
  if (scale !== 1) {
    const resized = await image
      .resize(Math.round(box.width * scale), Math.round(box.height * scale), { fit: "fill", kernel: "cubic" })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    image = sharp(resized.data, {
      raw: { width: resized.info.width, height: resized.info.height, channels: 1 },
    });
  }
  return image
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: "#ffffff" })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * A code of the act table read in a code cell: the cell's text, or — the crop taking a character of the
 * next column too, a tooth's digit before the code or a label's letter after it ("6HBLD073",
 * "HBLD734C") — the one seven characters of it that are a code of the table, when only one is.
 */
export function cellCode(text: string): string | null {
  const t = text.replace(/\s/g, "");
  const whole = readCode(t);
  if (whole) return whole.known ? whole.code : null;
  const found = new Set<string>();
  for (let i = 0; i + 7 <= t.length && t.length <= 9; i += 1) {
    const code = readCode(t.slice(i, i + 7));
    if (code?.known) found.add(code.code);
  }
  return found.size === 1 ? ([...found][0] as string) : null;
}

/**
 * A cell's new reading as the word that replaces its first one, when the devis bears it out: a code of
 * the act table; a tooth the act allows; a fee whose words were not an amount, or one that makes the
 * fees add up to the printed total; a BR that is the table's or of which the printed AMO is 60 %; an AMO that is 60 % of the BR.
 * null: the first reading stays.
 */
export function acceptedReading(
  field: CellField,
  text: string,
  line: ReadLine,
  result: ReadResult,
  /** The cell held no word at first: its crop is its column's zone, which may hold another figure. */
  empty = false,
): string | null {
  const known = line.code ? actByCode(line.code) : undefined;
  if (field === "code") {
    const code = cellCode(text);
    return code && code !== line.code ? code : null;
  }
  if (field === "tooth") {
    const tooth = readTooth(text);
    if (!tooth || tooth.repaired || tooth.tooth === line.tooth) return null;
    return !known || actFitsTooth(known, tooth.tooth) ? String(tooth.tooth) : null;
  }
  const value = cellAmount(text);
  const filled = field !== "fee_cents" && (line.filled?.includes(field) ?? false);
  if (value === null || value <= 0 || value === (filled ? null : line[field])) return null;
  const amount = formatAmount(value);
  if (field === "fee_cents") {
    // A fee whose words were there but not an amount; else one that makes the fees add up to the total.
    if (line.fee_cents === null && !empty) return amount;
    const total = result.total_cents;
    return total !== null && result.lines_total_cents - (line.fee_cents ?? 0) + value === total
      ? amount
      : null;
  }
  const readBr = line.filled?.includes("br_cents") ? null : line.br_cents;
  const readAmo = line.filled?.includes("amo_cents") ? null : line.amo_cents;
  const tableBr = line.expected?.br_cents ?? null;
  if (field === "br_cents")
    return value === tableBr || (readAmo !== null && amoFits(readAmo, value)) ? amount : null;
  const br = tableBr ?? readBr;
  return br !== null && amoFits(value, br) ? amount : null;
}

/**
 * The fees read again, taken together when they make the lines add up to the printed total and the first
 * readings did not (several fees may have slipped): by cell index, as words.
 */
function jointFees(cells: Cell[], reads: CellRead[], result: ReadResult): Map<number, string> {
  const out = new Map<number, string>();
  if (result.total_cents === null || result.total_matches !== false) return out;
  const fees = result.lines.map((line) => line.fee_cents);
  for (const [i, cell] of cells.entries()) {
    if (cell.field !== "fee_cents") continue;
    const value = cellAmount(reads[i]?.text ?? "");
    if (value === null || value <= 0 || value === fees[cell.line]) continue;
    fees[cell.line] = value;
    out.set(i, formatAmount(value));
  }
  const sum = fees.reduce<number>((s, fee) => s + (fee ?? 0), 0);
  return out.size && fees.every((fee) => fee !== null) && sum === result.total_cents ? out : new Map();
}

/**
 * A line's BR and AMO read again together, taken together when they bear each other out (the AMO is 60 %
 * of the BR) and the first readings did not (one missing, filled from the table, or the pair not 60 %):
 * two cells read apart and agreeing are what the devis says, even when the act table's BR differs or the
 * line's code was not read (a `grille-serif` photo read "100€" and "60€" for 10,00 € and 6,00 €). By cell
 * index, as words.
 */
export function jointBrAmo(
  cells: readonly { line: number; field: CellField }[],
  texts: readonly (string | undefined)[],
  result: ReadResult,
): Map<number, string> {
  const out = new Map<number, string>();
  const pairs = new Map<number, { br?: number; amo?: number }>();
  for (const [i, cell] of cells.entries()) {
    if (cell.field === "br_cents" || cell.field === "amo_cents") {
      const pair = pairs.get(cell.line) ?? {};
      pair[cell.field === "br_cents" ? "br" : "amo"] = i;
      pairs.set(cell.line, pair);
    }
  }
  for (const [index, { br, amo }] of pairs) {
    if (br === undefined || amo === undefined) continue;
    const line = result.lines[index] as ReadLine;
    const readBr = line.filled?.includes("br_cents") ? null : line.br_cents;
    const readAmo = line.filled?.includes("amo_cents") ? null : line.amo_cents;
    if (readBr !== null && readAmo !== null && amoFits(readAmo, readBr)) continue;
    const brValue = cellAmount(texts[br] ?? "");
    const amoValue = cellAmount(texts[amo] ?? "");
    if (brValue === null || amoValue === null || brValue <= 0 || !amoFits(amoValue, brValue)) continue;
    out.set(br, formatAmount(brValue));
    out.set(amo, formatAmount(amoValue));
  }
  return out;
}

/**
 * The devis understood again after its doubtful cells were read again (see above); `first` as it is when
 * no cell is worth it, none reads better, or the lines no longer match one for one.
 */
export async function rereadCells(
  pages: PageWords[],
  images: readonly (OcrPageImage | undefined)[],
  first: ReadResult,
  rowLayout: RowLayout[],
  options: OcrOptions & {
    today?: string;
    /** Height (px) the cells' characters are enlarged to before being read again; 0: not enlarged. */
    cellTextHeight?: number;
  } = {},
): Promise<ReadResult> {
  if (rowLayout.length !== first.lines.length) return first;
  // A code column placed where the other rows' codes are, when its header was not read.
  const layout = withCodeColumn(rowLayout);
  // Tesseract's boxes are in the PNG's own frame, even on a page it turned to read (measured on tuned
  // photos turned by 0.7° and 1.6°: the boxes cover the ink of the PNG as given, not of it turned).
  const wanted = cellsToReadAgain(first, layout).filter(
    ({ line }) => images[(layout[line] as RowLayout).page],
  );
  if (!wanted.length) return first;
  const cells: Cell[] = [];
  const crops: { image: Buffer; characters: string }[] = [];
  const greys = new Map<number, Buffer>();
  for (const { line, field } of wanted.slice(0, MAX_CELLS)) {
    const row = layout[line] as RowLayout;
    const page = images[row.page] as OcrPageImage;
    const { words, ...box } = locate(row, field, page);
    if (box.width < row.h || box.height < row.h * 0.5) continue;
    let grey = greys.get(row.page);
    if (!grey) {
      grey = await sharp(page.image).extractChannel(0).raw().toBuffer();
      greys.set(row.page, grey);
    }
    cells.push({ line, field, box, words });
    crops.push({
      image: await cutOut(
        grey,
        page,
        box,
        options.cellTextHeight === 0 ? 1 : cellScale(row.h, options.cellTextHeight),
      ),
      characters: field === "code" ? CODE : field === "tooth" ? DIGITS : AMOUNT,
    });
  }
  if (!cells.length) return first;
  const reads = await recognizeCells(crops, options);

  const fees = jointFees(cells, reads, first);
  const amounts = jointBrAmo(
    cells,
    reads.map((read) => read?.text),
    first,
  );
  const corrections = new Map<number, CellCorrection[]>();
  const changed: Cell[] = [];
  for (const [i, cell] of cells.entries()) {
    const read = reads[i];
    const line = first.lines[cell.line] as ReadLine;
    const text =
      fees.get(i) ??
      amounts.get(i) ??
      (read ? acceptedReading(cell.field, read.text, line, first, !cell.words.length) : null);
    if (!read || text === null) continue;
    const list = corrections.get(cell.line) ?? [];
    list.push({ field: cell.field, text, confidence: read.confidence });
    corrections.set(cell.line, list);
    changed.push(cell);
  }
  if (!changed.length) return first;
  // The same words, the new readings put in their rows (not new words: grouped again into lines, they
  // would not always fall into the same rows).
  const second = parseQuote(pages, { today: options.today, corrections });
  if (second.lines.length !== first.lines.length) return first;
  // An amount read first and replaced: kept beside the new reading, flagged.
  for (const { line, field } of changed) {
    if (field === "code" || field === "tooth") continue;
    const before = first.lines[line] as ReadLine;
    const after = second.lines[line] as ReadLine;
    const was = before[field];
    const filled = field !== "fee_cents" && (before.filled?.includes(field) ?? false);
    if (was === null || filled || after[field] === was) continue;
    after.as_read = { [field]: was, ...after.as_read };
    if (!after.uncertain.includes(field)) after.uncertain.push(field);
  }
  return second;
}
