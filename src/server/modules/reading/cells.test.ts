import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readCrown, readResult } from "../../testing/read-results";
import {
  acceptedReading,
  CELL_TEXT_HEIGHT,
  cellCode,
  cellScale,
  cellsToReadAgain,
  cutOut,
  jointBrAmo,
  locate,
  MAX_CELL_SCALE,
  withCodeColumn,
} from "./cells";
import type { RowLayout } from "./parse";
import type { Column } from "./understand/header";

/*
 * Issue 34: which cells of a photo's table are read again, and which new readings are taken. Pure parts
 * of cells.ts; the OCR itself is measured on the corpus (accuracy.test.ts, scripts/eval-ocr.ts).
 */

// HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €, a molar's crown.
const KINDS = ["tooth", "code", "act", "basket", "fee", "br", "amo"] as const;
const columns: Column[] = KINDS.map((kind, i) => ({
  kind,
  x0: i * 100,
  x1: i * 100 + 60,
  left: i * 100 - 20,
  right: i * 100 + 80,
}));
const row = (cols = columns): RowLayout => ({
  page: 0,
  top: 100,
  bottom: 120,
  h: 20,
  columns: cols,
  words: [],
});

describe("cellsToReadAgain", () => {
  it("reads nothing again on a line that the table and its own figures bear out", () => {
    expect(cellsToReadAgain(readResult([readCrown()]), [row()])).toEqual([]);
  });

  it("reads again a missing code or tooth, a tooth the act does not allow, a missing fee, a doubtful BR", () => {
    const lines = [
      readCrown({ code: null, expected: null }),
      readCrown({ tooth: null }),
      readCrown({ tooth: 11, uncertain: ["tooth"] }),
      readCrown({ fee_cents: null, uncertain: ["fee_cents"] }),
      readCrown({ br_cents: 12_00, uncertain: ["br_cents"] }),
      readCrown({ br_cents: 120_00, amo_cents: 72_00, filled: ["amo_cents"], uncertain: ["amo_cents"] }),
    ];
    expect(
      cellsToReadAgain(
        readResult(lines),
        lines.map(() => row()),
      ),
    ).toEqual([
      { line: 0, field: "code" },
      { line: 1, field: "tooth" },
      { line: 2, field: "tooth" },
      { line: 3, field: "fee_cents" },
      { line: 4, field: "br_cents" },
      { line: 5, field: "amo_cents" },
    ]);
  });

  it("reads again a code the act table does not know, and takes only a known one", () => {
    const misread = readCrown({ code: "HBLP734", expected: null });
    expect(cellsToReadAgain(readResult([misread]), [row()])).toEqual([{ line: 0, field: "code" }]);
    expect(acceptedReading("code", "HBLD734", misread, readResult([misread]))).toBe("HBLD734");
    expect(acceptedReading("code", "HBLP734", misread, readResult([misread]))).toBeNull();
  });

  it("leaves a figure already corrected, and a field without a column of its own", () => {
    const corrected = readCrown({ br_cents: 120_00, uncertain: ["br_cents"], as_read: { br_cents: 12_00 } });
    expect(cellsToReadAgain(readResult([corrected]), [row()])).toEqual([]);
    const noTooth = columns.filter((c) => c.kind !== "tooth");
    expect(cellsToReadAgain(readResult([readCrown({ tooth: null })]), [row(noTooth)])).toEqual([]);
  });
});

describe("withCodeColumn", () => {
  const noCode = columns.filter((c) => c.kind !== "code");
  const word = (text: string, x: number) => ({ text, x, y: 102, width: 40, height: 16, confidence: 90 });
  it("places a code column whose header was not read where two rows or more show a code of the table", () => {
    // HBLD090 read; LBLD015 read with a lookalike; the third row's code not read at all.
    const rows = [
      { ...row(noCode), words: [word("37", 10), word("HBLD090", 60)] },
      { ...row(noCode), words: [word("48", 10), word("LBLDOIS", 64)] },
      { ...row(noCode), words: [word("ArDise", 58)] },
    ];
    const placed = withCodeColumn(rows);
    for (const r of placed)
      expect(r.columns.find((c) => c.kind === "code")).toEqual({
        kind: "code",
        x0: 60,
        x1: 104,
        left: 40,
        right: 124,
      });
    // The row without a code now has a cell to read again.
    const misread = readCrown({ code: null, expected: null });
    const result = readResult([readCrown(), readCrown(), misread]);
    expect(cellsToReadAgain(result, rows)).toEqual([]);
    expect(cellsToReadAgain(result, placed)).toEqual([{ line: 2, field: "code" }]);
  });

  it("leaves a table with a code column, or with one code read", () => {
    const withColumn = [
      { ...row(), words: [word("HBLD090", 60)] },
      { ...row(), words: [word("HBLD073", 60)] },
    ];
    expect(withCodeColumn(withColumn)).toEqual(withColumn);
    const one = [
      { ...row(noCode), words: [word("HBLD090", 60)] },
      { ...row(noCode), words: [word("xx", 60)] },
    ];
    expect(withCodeColumn(one)).toEqual(one);
  });
});

describe("acceptedReading", () => {
  it("takes a code only if it is in the act table, a tooth only if the act allows it", () => {
    const noCode = readCrown({ code: null, expected: null });
    expect(acceptedReading("code", "HBLD734", noCode, readResult([noCode]))).toBe("HBLD734");
    expect(acceptedReading("code", "HBLD999", noCode, readResult([noCode]))).toBeNull();
    const noTooth = readCrown({ tooth: null });
    expect(acceptedReading("tooth", "36", noTooth, readResult([noTooth]))).toBe("36");
    // HBLD734 is a molar's crown: 11 is an incisor; 19 is no tooth.
    expect(acceptedReading("tooth", "11", noTooth, readResult([noTooth]))).toBeNull();
    expect(acceptedReading("tooth", "19", noTooth, readResult([noTooth]))).toBeNull();
  });

  it("takes the one code of the table in a code cell read with a character of the next column", () => {
    // The crop took the tooth's last digit before the code, or the label's first letter after it.
    expect(cellCode("6HBLD073")).toBe("HBLD073");
    expect(cellCode("HBLD734C")).toBe("HBLD734");
    expect(cellCode("36HBLD734")).toBe("HBLD734");
    const noCode = readCrown({ code: null, expected: null });
    expect(acceptedReading("code", "6HBLD734", noCode, readResult([noCode]))).toBe("HBLD734");
    // Not a code of the table, or more than two characters too many: nothing taken.
    expect(cellCode("6HBLD999")).toBeNull();
    expect(cellCode("123HBLD734")).toBeNull();
    expect(cellCode("HBLD999")).toBeNull();
  });

  it("takes a fee whose words were no amount, or one that makes the fees add up to the printed total", () => {
    const missing = readCrown({ fee_cents: null });
    const printed = readResult([missing], {
      total_cents: 900_00,
      lines_total_cents: 0,
      total_matches: false,
    });
    const noTotal = readResult([missing], { total_cents: null });
    // Words in the cell, not read as an amount at first: the cell read again is taken.
    expect(acceptedReading("fee_cents", "900,00", missing, noTotal)).toBe("900,00");
    // An empty cell (its column's zone read): only if the total bears it out.
    expect(acceptedReading("fee_cents", "900,00", missing, printed, true)).toBe("900,00");
    expect(acceptedReading("fee_cents", "629,00", missing, printed, true)).toBeNull();
    expect(acceptedReading("fee_cents", "900,00", missing, noTotal, true)).toBeNull();
    const slipped = readCrown({ fee_cents: 90_00 });
    const other = readCrown({ fee_cents: 450_00 });
    const devis = readResult([slipped, other], { total_cents: 1_350_00, total_matches: false });
    expect(acceptedReading("fee_cents", "900,00", slipped, devis)).toBe("900,00");
    expect(acceptedReading("fee_cents", "800,00", slipped, devis)).toBeNull();
  });

  it("takes a BR that is the table's or that the printed AMO bears out, and an AMO 60 % of the BR", () => {
    const br = readCrown({ br_cents: 12_00, uncertain: ["br_cents"] });
    expect(acceptedReading("br_cents", "120,00", br, readResult([br]))).toBe("120,00");
    expect(acceptedReading("br_cents", "130,00", br, readResult([br]))).toBeNull();
    // A BR the table filled (none read): the re-read value is the printed one, taken when it fits.
    const filled = readCrown({ filled: ["br_cents"], uncertain: ["br_cents"] });
    expect(acceptedReading("br_cents", "120,00", filled, readResult([filled]))).toBe("120,00");
    const amo = readCrown({ amo_cents: 7_20, uncertain: ["amo_cents"] });
    expect(acceptedReading("amo_cents", "72,00", amo, readResult([amo]))).toBe("72,00");
    // The euro sign after it, read as a digit by a cell allowed digits only.
    expect(acceptedReading("amo_cents", "72,006", amo, readResult([amo]))).toBe("72,00");
    expect(acceptedReading("amo_cents", "7,20", amo, readResult([amo]))).toBeNull();
    // A free line: its AMO against its own BR.
    const free = readCrown({ code: "HBQK002", expected: null, br_cents: 20_00, amo_cents: 1_00 });
    expect(acceptedReading("amo_cents", "12,00", free, readResult([free]))).toBe("12,00");
  });
});

describe("jointBrAmo", () => {
  // A `grille-serif` photo (tuned seed 40 100): "100€" and "60€" read for a BR of 10,00 € and an AMO of
  // 6,00 €, the line's code not read, so no table BR to check a new BR against.
  const garbled = readCrown({
    code: null,
    expected: null,
    br_cents: 1_00,
    amo_cents: 60_00,
    uncertain: ["br_cents", "amo_cents"],
  });
  const cells = [
    { line: 0, field: "br_cents" as const },
    { line: 0, field: "amo_cents" as const },
  ];

  it("takes a BR and an AMO read again that bear each other out, where each alone is refused", () => {
    const devis = readResult([garbled]);
    expect(acceptedReading("br_cents", "10,00", garbled, devis)).toBeNull();
    expect(acceptedReading("amo_cents", "6,00", garbled, devis)).toBeNull();
    expect([...jointBrAmo(cells, ["10,00", "6,00"], devis)]).toEqual([
      [0, "10,00"],
      [1, "6,00"],
    ]);
    // The euro sign read as a third decimal, as for a single cell.
    expect(jointBrAmo(cells, ["10,006", "6,006"], devis).get(0)).toBe("10,00");
  });

  it("leaves a pair that does not agree, a lone cell, and a line whose first BR and AMO already agree", () => {
    const devis = readResult([garbled]);
    expect(jointBrAmo(cells, ["10,00", "7,00"], devis).size).toBe(0);
    expect(jointBrAmo(cells, ["0", "0"], devis).size).toBe(0);
    expect(jointBrAmo([cells[0] as (typeof cells)[0]], ["10,00"], devis).size).toBe(0);
    const agreeing = readCrown({ uncertain: ["br_cents", "amo_cents"] });
    expect(jointBrAmo(cells, ["10,00", "6,00"], readResult([agreeing])).size).toBe(0);
  });
});

describe("a cell's crop", () => {
  it("enlarges small text towards the height tesseract reads best, at most 3 times, and leaves large text", () => {
    // A photo's 8-point figures come out of the preparation 14–20 px high.
    expect(cellScale(20)).toBe(2);
    expect(cellScale(16)).toBe(2.5);
    expect(cellScale(8)).toBe(MAX_CELL_SCALE);
    expect(cellScale(CELL_TEXT_HEIGHT)).toBe(1);
    expect(cellScale(60)).toBe(1);
    expect(cellScale(0)).toBe(1);
  });

  it("takes a tooth cell two digits wide either side of its word's centre, within its column", () => {
    // OCR read "48" as a dash over its middle: the crop spans both digits (2.5 row heights either side
    // of the dash's centre), but not past the tooth column's zone (-20 to 80).
    const dash = { text: "-", x: 30, y: 102, width: 6, height: 16, confidence: 40 };
    const page = { width: 1000, height: 500, image: Buffer.alloc(0), rotateRadians: 0 };
    const cell = locate({ ...row(), words: [dash] }, "tooth", page);
    expect(cell.x).toBe(0);
    expect(cell.x + cell.width).toBe(80);
    // A code cell keeps its word's box and margins.
    const code = { text: "HBLD734", x: 110, y: 102, width: 50, height: 16, confidence: 90 };
    const codeCell = locate({ ...row(), words: [code] }, "code", page);
    expect(codeCell.x).toBe(110 - 24);
    expect(codeCell.x + codeCell.width).toBe(160 + 24);
  });

  it("cuts the cell out of the page, enlarged, with a white margin", async () => {
    // A 100 × 40 page, black in the cell at (10, 5) of 30 × 20, white elsewhere.
    const width = 100;
    const grey = Buffer.alloc(width * 40, 255);
    for (let y = 5; y < 25; y += 1) grey.fill(0, y * width + 10, y * width + 40);
    const box = { x: 10, y: 5, width: 30, height: 20 };
    const plain = await sharp(await cutOut(grey, { width }, box)).metadata();
    expect({ width: plain.width, height: plain.height }).toEqual({ width: 30 + 24, height: 20 + 24 });
    const { data, info } = await sharp(await cutOut(grey, { width }, box, 2))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect({ width: info.width, height: info.height }).toEqual({ width: 60 + 48, height: 40 + 48 });
    // The margin white, the cell's middle black.
    expect(data[0]).toBe(255);
    expect(data[(24 + 20) * info.width + 24 + 30]).toBeLessThan(10);
  });
});
