import { describe, expect, it } from "vitest";
import { parseQuote } from "./parse";
import type { PageWords, Word } from "./types";

/**
 * Pages built by hand: each cell is a text at an x position on a row; its words are laid out left to
 * right with a fixed character width (like a monospaced PDF text layer), or at given positions.
 */
const CHAR = 5;
const HEIGHT = 10;

type Cell =
  | [x: number, text: string]
  | [x: number, text: string, align: "right"]
  | [x: number, text: string, align: "right", confidence: number];

function cellWords(y: number, [x, text, align, confidence = 100]: Cell): Word[] {
  const words: Word[] = [];
  const width = text.length * CHAR;
  let cursor = align === "right" ? x - width : x;
  for (const part of text.split(/( +|\u00a0|\u202f)/)) {
    if (!part) continue;
    if (/^( +|\u00a0|\u202f)$/.test(part)) {
      cursor += part.length * CHAR;
      continue;
    }
    words.push({ text: part, x: cursor, y, width: part.length * CHAR, height: HEIGHT, confidence });
    cursor += part.length * CHAR;
  }
  return words;
}

function page(rows: [y: number, cells: Cell[]][], extra: Partial<PageWords> = {}): PageWords {
  return {
    page: 1,
    width: 600,
    height: 850,
    source: "text",
    words: rows.flatMap(([y, cells]) => cells.flatMap((cell) => cellWords(y, cell))),
    ...extra,
  };
}

/** Column positions of a usual devis: tooth, code, act, basket, fee (right edge), br, amo. */
const X = { tooth: 40, code: 75, act: 130, basket: 330, fee: 445, br: 515, amo: 580 };

const HEADER: Cell[] = [
  [X.tooth, "Dent"],
  [X.code, "Code"],
  [X.act, "Acte"],
  [X.basket, "Panier"],
  [X.fee, "Honoraires", "right"],
  [X.br, "BR", "right"],
  [X.amo, "AMO", "right"],
];

function row(
  tooth: string,
  code: string,
  act: string,
  basket: string,
  fee: string,
  br: string,
  amo: string,
): Cell[] {
  const cells: Cell[] = [];
  if (tooth) cells.push([X.tooth, tooth]);
  if (code) cells.push([X.code, code]);
  if (act) cells.push([X.act, act]);
  if (basket) cells.push([X.basket + 10, basket]);
  if (fee) cells.push([X.fee, fee, "right"]);
  if (br) cells.push([X.br, br, "right"]);
  if (amo) cells.push([X.amo, amo, "right"]);
  return cells;
}

const TOP: [number, Cell[]][] = [
  [40, [[40, "Cabinet dentaire du Parc"]]],
  [55, [[40, "Dr Claire Martin, Chirurgien-dentiste"]]],
  [70, [[40, "N° RPPS : 10101234567"]]],
  [85, [[40, "12 rue des Lilas 75011 Paris"]]],
  [110, [[40, "DEVIS POUR LES TRAITEMENTS ET ACTES BUCCO-DENTAIRES"]]],
  [130, [[40, "Patient : Jean Dupont"]]],
  [145, [[40, "Date du devis : 12/11/2026"]]],
];

const NOISE: [number, Cell[]][] = [
  [500, [[40, "Devis valable 6 mois à compter du 12/11/2026"]]],
  [
    530,
    [
      [40, "Signature du praticien"],
      [300, "Date et signature du patient"],
    ],
  ],
];

describe("parseQuote", () => {
  it("reads a usual devis: lines, total, patient, practitioner and RPPS", () => {
    const result = parseQuote([
      page([
        ...TOP,
        [200, HEADER],
        [220, row("21", "HBLD634", "Couronne céramo-métallique", "1", "500,00 €", "120,00 €", "72,00 €")],
        [
          240,
          row(
            "36",
            "HBLD734",
            "Couronne céramo-métallique (molaire)",
            "3",
            "1 250,00 €",
            "107,50 €",
            "64,50 €",
          ),
        ],
        [
          260,
          [
            [X.act, "Total des honoraires"],
            [X.fee, "1 750,00 €", "right"],
          ],
        ],
        ...NOISE,
      ]),
    ]);
    expect(result.lines).toEqual([
      {
        tooth: 21,
        code: "HBLD634",
        act: "Couronne céramo-métallique",
        basket: "100_sante",
        fee_cents: 500_00,
        br_cents: 120_00,
        amo_cents: 72_00,
        uncertain: [],
      },
      {
        tooth: 36,
        code: "HBLD734",
        act: "Couronne céramo-métallique (molaire)",
        basket: "libre",
        fee_cents: 1_250_00,
        br_cents: 107_50,
        amo_cents: 64_50,
        uncertain: [],
      },
    ]);
    expect(result.total_cents).toBe(1_750_00);
    expect(result.lines_total_cents).toBe(1_750_00);
    expect(result.total_matches).toBe(true);
    expect(result.patient_name).toBe("Jean Dupont");
    expect(result.practitioner_name).toBe("Claire Martin");
    expect(result.practitioner_number).toEqual({ kind: "RPPS", value: "10101234567" });
    expect(result.confidence).toBeGreaterThan(0.9);
  });

  it("finds no line on a page without a table", () => {
    const result = parseQuote([page([...TOP, ...NOISE])]);
    expect(result.lines).toEqual([]);
    expect(result.total_cents).toBeNull();
    expect(result.total_matches).toBeNull();
    expect(result.confidence).toBeLessThan(0.5);
  });
});
