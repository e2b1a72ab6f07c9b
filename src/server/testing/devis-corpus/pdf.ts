import {
  concatTransformationMatrix,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from "pdf-lib";
import { BASKET_DIGITS, BASKET_WORDS } from "./content";
import {
  type BasketStyle,
  type CorpusDevis,
  type CorpusLine,
  type FontName,
  formatAmount,
  type TableColumn,
} from "./model";

/**
 * A generated devis drawn as a text PDF, each cell drawn on its own like practice software: the header
 * block, the table (the family's columns, borders, header band), the totals (a row or a boxed block), the
 * noise under it; a long devis continues on a second page, its header repeated or not, the totals and
 * the noise on the last page.
 */

const A4 = { width: 595.28, height: 841.89 };
const THIN_GAP_EM = 0.18;

const BASKET_ABBREV: Record<CorpusLine["basket"], string> = {
  "100_sante": "RAC 0",
  maitrise: "Mod.",
  libre: "Libre",
};
const BASKET_RAC: Record<CorpusLine["basket"], string> = {
  "100_sante": "RAC 0",
  maitrise: "RAC modéré",
  libre: "RAC libre",
};

function basketText(style: BasketStyle, line: CorpusLine, seed: number): string {
  if (style === "digit") return BASKET_DIGITS[line.basket];
  if (style === "abbrev") return BASKET_ABBREV[line.basket];
  if (style === "rac") return BASKET_RAC[line.basket];
  const words = BASKET_WORDS[line.basket];
  return words[(seed + line.fee_cents) % words.length] as string;
}

/** Cell texts: the amount columns are the only ones with U+202F (drawn as a thin gap). */
function cellTexts(d: CorpusDevis, line: CorpusLine): Record<TableColumn, string> {
  const { layout } = d;
  const amount = (cents: number, canBeZeroStyled: boolean) =>
    cents === 0 && canBeZeroStyled && layout.zeroStyle !== "0,00"
      ? layout.zeroStyle
      : formatAmount(cents, layout.thousands, layout.euroSign);
  return {
    tooth: line.tooth === null ? "" : String(line.tooth),
    code: line.code,
    act: line.act,
    basket: basketText(layout.basketStyle, line, d.seed),
    fee: amount(line.fee_cents, false),
    br: amount(line.br_cents, true),
    amo: amount(line.amo_cents, true),
    unreimbursed: amount(line.fee_cents - line.amo_cents, false),
    rest: amount(line.fee_cents - line.amo_cents, false),
    excess: amount(Math.max(0, line.fee_cents - line.br_cents), false),
  };
}

type Measure = (text: string, font: PDFFont, size: number) => number;

function measureWith(scaleX: number): Measure {
  return (text, font, size) => {
    const parts = text.split("\u202f");
    return (
      (parts.reduce((sum, part) => sum + font.widthOfTextAtSize(part, size), 0) +
        (parts.length - 1) * THIN_GAP_EM * size) *
      scaleX
    );
  };
}

/**
 * Draws text whose top is at `top` (from the page's top edge); U+202F becomes a thin gap. A condensed face
 * is the regular one scaled horizontally (a transformation around the text's own origin).
 */
function drawAt(
  page: PDFPage,
  text: string,
  x: number,
  top: number,
  font: PDFFont,
  size: number,
  options: { glyphByGlyph: boolean; scaleX: number; white?: boolean },
) {
  const { glyphByGlyph, scaleX } = options;
  const baseline = page.getHeight() - top - size * 0.78;
  const color = options.white ? rgb(1, 1, 1) : rgb(0.08, 0.08, 0.1);
  if (scaleX !== 1)
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(scaleX, 0, 0, 1, 0, 0));
  let cursor = x / scaleX;
  for (const [i, part] of text.split("\u202f").entries()) {
    if (i > 0) cursor += THIN_GAP_EM * size;
    if (!glyphByGlyph) {
      if (part) page.drawText(part, { x: cursor, y: baseline, size, font, color });
      cursor += font.widthOfTextAtSize(part, size);
      continue;
    }
    for (const char of part) {
      if (char.trim()) page.drawText(char, { x: cursor, y: baseline, size, font, color });
      cursor += font.widthOfTextAtSize(char, size);
    }
  }
  if (scaleX !== 1) page.pushOperators(popGraphicsState());
}

/** Greedy word wrap within `width`. */
function wrap(text: string, width: number, font: PDFFont, size: number, measure: Measure): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const next = current ? `${current} ${word}` : word;
    if (current && measure(next, font, size) > width) {
      out.push(current);
      current = word;
    } else current = next;
  }
  if (current) out.push(current);
  return out;
}

/** Splits a header in two balanced lines (at a space). */
function splitInTwo(text: string, font: PDFFont, size: number, measure: Measure): string[] {
  const words = text.split(" ");
  if (words.length < 2) return [text];
  let best: string[] = [text];
  let bestWidth = Number.POSITIVE_INFINITY;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" ");
    const b = words.slice(i).join(" ");
    const w = Math.max(measure(a, font, size), measure(b, font, size));
    if (w < bestWidth) {
      bestWidth = w;
      best = [a, b];
    }
  }
  return best;
}

interface ColumnBox {
  x0: number;
  x1: number;
  header: string[];
}

function tableColumns(
  d: CorpusDevis,
  cells: Record<TableColumn, string>[],
  totals: Partial<Record<TableColumn, string>>,
  font: PDFFont,
  bold: PDFFont,
  size: number,
  contentWidth: number,
  measure: Measure,
): Record<TableColumn, ColumnBox> | null {
  const { layout } = d;
  const pad = layout.pad;
  const widths = {} as Record<TableColumn, number>;
  const headers = {} as Record<TableColumn, string[]>;
  let fixed = 0;
  for (const column of layout.columns) {
    if (column === "act") continue;
    const cellMax = Math.max(
      ...cells.map((c) => measure(c[column], font, size)),
      totals[column] ? measure(totals[column], bold, size) : 0,
      column === "basket" && layout.basketStyle === "digit" ? measure("2", font, size) : 0,
    );
    const header = layout.headers[column] ?? "";
    let lines = layout.twoLineHeader ? splitInTwo(header, bold, size, measure) : [header];
    let inner = Math.max(cellMax, ...lines.map((l) => measure(l, bold, size)));
    // A header much wider than its cells wraps (at most two lines), like practice software does.
    if (!layout.twoLineHeader && measure(header, bold, size) > cellMax * 1.25 && header.includes(" ")) {
      const two = splitInTwo(header, bold, size, measure);
      lines = two;
      inner = Math.max(cellMax, ...two.map((l) => measure(l, bold, size)));
    }
    widths[column] = inner + 2 * pad;
    headers[column] = lines;
    fixed += widths[column];
  }
  const actWidth = Math.min(contentWidth - fixed, layout.actMaxWidth ?? Number.POSITIVE_INFINITY);
  if (actWidth < 90) return null;
  widths.act = actWidth;
  headers.act = layout.twoLineHeader
    ? splitInTwo(layout.headers.act, bold, size, measure)
    : [layout.headers.act];
  const boxes = {} as Record<TableColumn, ColumnBox>;
  let x = layout.marginLeft;
  for (const column of layout.columns) {
    boxes[column] = { x0: x, x1: x + widths[column], header: headers[column] };
    x += widths[column];
  }
  return boxes;
}

const FONT_OF: Record<FontName, { regular: StandardFonts; bold: StandardFonts }> = {
  Helvetica: { regular: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold },
  "Times-Roman": { regular: StandardFonts.TimesRoman, bold: StandardFonts.TimesRomanBold },
  Courier: { regular: StandardFonts.Courier, bold: StandardFonts.CourierBold },
};

const AMOUNT_COLUMNS: readonly TableColumn[] = ["fee", "br", "amo", "unreimbursed", "rest", "excess"];

/** The number of pages the devis is drawn on. */
export const pageCount = (d: CorpusDevis) => (d.layout.pageBreak === null ? 1 : 2);

class RunsOff extends Error {}

/**
 * The devis as an A4 PDF (one page, or two) with a text layer. Content too long for its page is drawn
 * smaller (by half points, 2 at most), as practice software fits a devis on its pages.
 */
export async function devisPdf(d: CorpusDevis): Promise<Uint8Array> {
  let last: unknown;
  for (let shrink = 0; shrink <= 2; shrink += 0.5) {
    try {
      return await drawDevis(d, shrink);
    } catch (error) {
      if (!(error instanceof RunsOff)) throw error;
      last = error;
    }
  }
  throw last;
}

async function drawDevis(d: CorpusDevis, shrink: number): Promise<Uint8Array> {
  const { layout } = d;
  const measure = measureWith(layout.scaleX);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(FONT_OF[layout.font].regular);
  const bold = await doc.embedFont(FONT_OF[layout.font].bold);
  const pages = pageCount(d);
  let page = doc.addPage([A4.width, A4.height]);
  let pageNumber = 1;
  const draw = (text: string, x: number, top: number, f: PDFFont, size: number, white = false) =>
    drawAt(page, text, x, top, f, size, { glyphByGlyph: layout.glyphByGlyph, scaleX: layout.scaleX, white });
  const contentWidth = A4.width - 2 * layout.marginLeft;

  // The table's font shrinks until the table fits the page width (as software does with long headers).
  let size = layout.fontSize - shrink;
  const sum = (pick: (l: CorpusLine) => number) => d.lines.reduce((s, l) => s + pick(l), 0);
  const money = (cents: number) => formatAmount(cents, layout.thousands, layout.euroSign);
  const totals: Partial<Record<TableColumn, string>> = { fee: money(d.total_cents) };
  if (layout.totalColumns === "all" && layout.totals === "row") {
    totals.br = money(sum((l) => l.br_cents));
    totals.amo = money(sum((l) => l.amo_cents));
  }
  const cells = d.lines.map((line) => cellTexts(d, line));
  let columns = tableColumns(d, cells, totals, font, bold, size, contentWidth, measure);
  while (!columns && size > 6) {
    size -= 0.5;
    columns = tableColumns(d, cells, totals, font, bold, size, contentWidth, measure);
  }
  if (!columns) throw new Error(`devis ${d.seed}: the table does not fit`);
  const boxes = columns;
  const lineHeight = size * 1.25;
  const bottom = A4.height - 30;

  const footer = () => {
    if (!layout.footer) return;
    const text = layout.footer.replace("{page}", String(pageNumber)).replace("{pages}", String(pages));
    const footerSize = layout.fontSize - 1;
    const w = measure(text, font, footerSize);
    draw(text, layout.marginLeft + contentWidth - w, bottom, font, footerSize);
  };

  // Header block.
  let top = layout.marginTop;
  const headerSize = layout.fontSize + 0.5 - shrink;
  const rightX = layout.marginLeft + contentWidth * 0.56;
  let leftTop = top;
  let rightTop = top;
  let lastColumn: "left" | "right" | "center" | null = null;
  for (const line of layout.headerLines) {
    const f = line.bold ? bold : font;
    if (line.column === "center") {
      const titleSize = headerSize + 2;
      const lines = wrap(line.text, contentWidth, f, titleSize, measure);
      top = Math.max(leftTop, rightTop) + (lastColumn ? lineHeight : 0);
      for (const text of lines) {
        const x = layout.marginLeft + (contentWidth - measure(text, f, titleSize)) / 2;
        draw(text, x, top, f, titleSize);
        top += titleSize * 1.3;
      }
      top += lineHeight * 0.5;
      leftTop = top;
      rightTop = top;
    } else if (line.column === "left") {
      draw(line.text, layout.marginLeft, leftTop, f, headerSize);
      leftTop += headerSize * 1.3;
    } else {
      draw(line.text, rightX, rightTop, f, headerSize);
      rightTop += headerSize * 1.3;
    }
    lastColumn = line.column;
  }
  top = Math.max(leftTop, rightTop) + lineHeight * 1.5;

  const grey = rgb(0.55, 0.55, 0.58);
  const headerLineCount = Math.max(...layout.columns.map((c) => boxes[c].header.length));
  const headerHeight = headerLineCount * lineHeight + 2 * layout.pad;
  const first = layout.columns[0] as TableColumn;
  const last = layout.columns[layout.columns.length - 1] as TableColumn;
  const tableLeft = boxes[first].x0;
  const tableRight = boxes[last].x1;
  const hLine = (y: number, thickness = 0.6) => {
    if (layout.rules === "none" || layout.rules === "zebra") return;
    page.drawLine({
      start: { x: tableLeft, y: A4.height - y },
      end: { x: tableRight, y: A4.height - y },
      thickness,
      color: grey,
      dashArray: layout.rules === "dashed" ? [2.5, 2] : undefined,
    });
  };
  const grid = (from: number, to: number) => {
    if (layout.rules !== "grid") return;
    for (const column of layout.columns)
      for (const x of column === first ? [boxes[column].x0, boxes[column].x1] : [boxes[column].x1])
        page.drawLine({
          start: { x, y: A4.height - from },
          end: { x, y: A4.height - to },
          thickness: 0.5,
          color: grey,
        });
  };

  /** The table's header at `top`; returns the top of the first row. */
  const tableHeader = (at: number) => {
    const band = layout.headerBand;
    if (band || layout.headerShade) {
      const fill = band ? rgb(band.r, band.g, band.b) : rgb(0.88, 0.89, 0.9);
      page.drawRectangle({
        x: tableLeft,
        y: A4.height - at - headerHeight,
        width: tableRight - tableLeft,
        height: headerHeight,
        color: fill,
      });
    }
    const white = !!band && band.r + band.g + band.b < 1.8;
    for (const column of layout.columns) {
      const box = boxes[column];
      const lines = box.header;
      const offset =
        layout.headerVAlign === "middle" ? ((headerLineCount - lines.length) * lineHeight) / 2 : 0;
      lines.forEach((text, i) => {
        const w = measure(text, bold, size);
        const x = layout.headerAlign === "center" ? box.x0 + (box.x1 - box.x0 - w) / 2 : box.x0 + layout.pad;
        draw(text, x, at + layout.pad + offset + i * lineHeight, bold, size, white);
      });
    }
    hLine(at, 0.8);
    hLine(at + headerHeight, 0.8);
    return at + headerHeight;
  };

  let tableTop = top;
  top = tableHeader(top);

  // Rows.
  const cellDraws: { column: number; row: number; run: () => void }[] = [];
  const flush = () => {
    if (layout.drawOrder === "columns") cellDraws.sort((a, b) => a.column - b.column || a.row - b.row);
    for (const cellDraw of cellDraws) cellDraw.run();
    cellDraws.length = 0;
  };
  for (const [i, line] of d.lines.entries()) {
    if (layout.pageBreak !== null && i === layout.pageBreak) {
      flush();
      grid(tableTop, top);
      footer();
      page = doc.addPage([A4.width, A4.height]);
      pageNumber++;
      top = layout.marginTop;
      tableTop = top;
      if (layout.repeatHeader) top = tableHeader(top);
      else hLine(top, 0.8);
    }
    const cell = cells[i] as Record<TableColumn, string>;
    const actLines = wrap(line.act, boxes.act.x1 - boxes.act.x0 - 2 * layout.pad, font, size, measure);
    const rowTop = top + layout.pad;
    const rowHeight = actLines.length * lineHeight + 2 * layout.pad;
    if (layout.rules === "zebra" && i % 2 === 1)
      page.drawRectangle({
        x: tableLeft,
        y: A4.height - top - rowHeight,
        width: tableRight - tableLeft,
        height: rowHeight,
        color: rgb(0.92, 0.93, 0.95),
      });
    // One-line cells at the row's top, or in its middle when the label wraps.
    const cellTop =
      layout.cellVAlign === "middle" ? rowTop + ((actLines.length - 1) * lineHeight) / 2 : rowTop;
    for (const [index, column] of layout.columns.entries()) {
      const box = boxes[column];
      if (column === "act") {
        actLines.forEach((text, k) => {
          cellDraws.push({
            column: index,
            row: i,
            run: () => draw(text, box.x0 + layout.pad, rowTop + k * lineHeight, font, size),
          });
        });
        continue;
      }
      const text = cell[column];
      if (!text) continue;
      const w = measure(text, font, size);
      let x = box.x0 + layout.pad;
      if (AMOUNT_COLUMNS.includes(column)) x = box.x1 - layout.pad - w;
      else if (column === "basket")
        x = layout.basketAlign === "right" ? box.x1 - layout.pad - w : box.x0 + (box.x1 - box.x0 - w) / 2;
      else if (column === "tooth" && layout.toothAlign === "center") x = box.x0 + (box.x1 - box.x0 - w) / 2;
      cellDraws.push({ column: index, row: i, run: () => draw(text, x, cellTop, font, size) });
    }
    top += rowHeight;
    hLine(top, 0.4);
    if (top > bottom - lineHeight)
      throw new RunsOff(`devis ${d.seed}: the table runs off page ${pageNumber}`);
  }
  flush();

  // Totals: a row under the table, or a boxed block under its right side.
  if (layout.totals === "row") {
    const totalTop = top + layout.pad;
    const feeAt = layout.columns.indexOf("fee");
    const labelColumn: TableColumn =
      layout.totalLabel === "Total des honoraires" || layout.columns.indexOf("code") > feeAt ? "act" : "code";
    const labelBox = feeAt > layout.columns.indexOf(labelColumn) ? boxes[labelColumn] : boxes.act;
    const labelW = measure(layout.totalLabel, bold, size);
    draw(layout.totalLabel, labelBox.x1 - layout.pad - labelW, totalTop, bold, size);
    for (const column of ["fee", "br", "amo"] as const) {
      const text = totals[column];
      if (!text) continue;
      draw(text, boxes[column].x1 - layout.pad - measure(text, bold, size), totalTop, bold, size);
    }
    top += lineHeight + 2 * layout.pad;
    hLine(top, 0.8);
    grid(tableTop, top);
  } else {
    grid(tableTop, top);
    const amo = sum((l) => l.amo_cents);
    const rows: [string, string][] = [
      [layout.totalLabel === "TOTAL" ? "TOTAL HONORAIRES" : "Total des honoraires", money(d.total_cents)],
      ["Total base de remboursement", money(sum((l) => l.br_cents))],
      ["Total remboursement AMO", money(amo)],
      ["Reste à charge avant complémentaire", money(d.total_cents - amo)],
    ];
    const boxWidth = Math.min(260, tableRight - tableLeft);
    const x0 = tableRight - boxWidth;
    const boxTop = top + lineHeight;
    const boxHeight = rows.length * lineHeight + 2 * layout.pad;
    page.drawRectangle({
      x: x0,
      y: A4.height - boxTop - boxHeight,
      width: boxWidth,
      height: boxHeight,
      borderColor: grey,
      borderWidth: 0.8,
    });
    rows.forEach(([label, value], k) => {
      const f = k === 0 ? bold : font;
      const at = boxTop + layout.pad + k * lineHeight;
      draw(label, x0 + layout.pad + 2, at, f, size);
      draw(value, tableRight - layout.pad - 2 - measure(value, f, size), at, f, size);
    });
    top = boxTop + boxHeight;
  }

  // Noise after the table.
  top += lineHeight * 2;
  let noiseTop = top;
  for (const item of layout.noise) {
    const x = item.column === "right" ? rightX : layout.marginLeft;
    if (item.column === "right") draw(item.text, x, noiseTop - headerSize * 1.6, font, headerSize);
    else {
      draw(item.text, x, noiseTop, font, headerSize);
      noiseTop += headerSize * 1.6;
    }
  }
  footer();
  if (noiseTop > bottom) throw new RunsOff(`devis ${d.seed}: the content runs off the page`);
  return doc.save({ useObjectStreams: false });
}
