import { describe, expect, it } from "vitest";
import { parseQuote, trimOverlongBoxes } from "./parse";
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
            "120,00 €",
            "72,00 €",
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
        expected: { basket: "100_sante", br_cents: 120_00, amo_cents: 72_00, day: "2026-11-12" },
        filled: [],
      },
      {
        tooth: 36,
        code: "HBLD734",
        act: "Couronne céramo-métallique (molaire)",
        basket: "libre",
        fee_cents: 1_250_00,
        br_cents: 120_00,
        amo_cents: 72_00,
        uncertain: [],
        expected: { basket: "libre", br_cents: 120_00, amo_cents: 72_00, day: "2026-11-12" },
        filled: [],
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

  it("reads a header on two or three text lines, with synonyms", () => {
    const result = parseQuote([
      page([
        ...TOP,
        [
          195,
          [
            [X.tooth, "N°"],
            [X.basket, "Panier"],
            [X.fee, "Montant des", "right"],
            [X.br, "Base de", "right"],
            [X.amo, "Montant", "right"],
          ],
        ],
        [
          201,
          [
            [X.code, "Cotation"],
            [X.act, "Nature de l'acte"],
          ],
        ],
        [
          207,
          [
            [X.tooth, "dent"],
            [X.basket, "de soins"],
            [X.fee, "honoraires", "right"],
            [X.br, "remboursement", "right"],
            [X.amo, "remboursé AMO", "right"],
          ],
        ],
        [230, row("46", "HBLD038", "Couronne métallique", "1", "290,00 €", "120,00 €", "72,00 €")],
        [
          250,
          [
            [X.code + 30, "TOTAL", "right"],
            [X.fee, "290,00 €", "right"],
            [X.br, "120,00 €", "right"],
            [X.amo, "72,00 €", "right"],
          ],
        ],
      ]),
    ]);
    expect(result.lines).toEqual([
      {
        tooth: 46,
        code: "HBLD038",
        act: "Couronne métallique",
        basket: "100_sante",
        fee_cents: 290_00,
        br_cents: 120_00,
        amo_cents: 72_00,
        uncertain: [],
        expected: { basket: "100_sante", br_cents: 120_00, amo_cents: 72_00, day: "2026-11-12" },
        filled: [],
      },
    ]);
    expect(result.total_cents).toBe(290_00);
    expect(result.total_matches).toBe(true);
  });

  it("reads amounts in every French format", () => {
    const result = parseQuote([
      page([
        [200, HEADER],
        [220, row("36", "HBLD734", "Couronne", "3", "1\u00a0250,00 €", "120,00 €", "72,00 €")],
        [240, row("37", "HBLD734", "Couronne", "3", "1\u202f250,00", "120,00", "72,00")],
        [260, row("46", "HBLD734", "Couronne", "3", "1250,00 €", "120,00 €", "72,00 €")],
        [280, row("47", "HBLD734", "Couronne", "3", "1.250,00", "120.00", "72.00")],
        [300, row("16", "HBLD734", "Couronne", "3", "1 250,00", "120,00", "72,00")],
      ]),
    ]);
    expect(result.lines.map((l) => [l.fee_cents, l.br_cents, l.amo_cents])).toEqual(
      Array(5).fill([1_250_00, 120_00, 72_00]),
    );
    expect(result.lines.every((l) => l.uncertain.length === 0)).toBe(true);
    expect(result.total_matches).toBeNull();
  });

  it("tells the basket digit from the fee beside it, even merged into one word by OCR", () => {
    const words = (y: number, extra: Word[]): Word[] => [
      ...cellWords(y, [X.tooth, "21"]),
      ...cellWords(y, [X.code, "HBLD634"]),
      ...cellWords(y, [X.act, "Couronne"]),
      ...extra,
      ...cellWords(y, [X.br, "120,00", "right"]),
      ...cellWords(y, [X.amo, "72,00", "right"]),
    ];
    const word = (text: string, x: number, y: number): Word => ({
      text,
      x,
      y,
      width: text.length * CHAR,
      height: HEIGHT,
      confidence: 100,
    });
    const header = page([[200, HEADER]]);
    // The basket column's right edge: the gutter between "Panier" and the fee column's widest cell.
    const result = parseQuote([
      {
        ...header,
        words: [
          ...header.words,
          // "1" right-aligned in the basket column, then the fee "175,00" close by.
          ...words(220, [word("1", 370, 220), word("175,00", X.fee - 30, 220)]),
          // A fee of 1 175,00: its thousands digit well inside the fee column.
          ...words(240, [word("2", 340, 240), word("1", X.fee - 42, 240), word("175,00", X.fee - 30, 240)]),
          // OCR merged the basket digit with the fee: "1175,00" across the gutter.
          ...words(260, [word("1175,00", 370, 260)]),
          // The wide fee of another row keeps the fee column's left edge in place.
          ...words(280, [word("3", 340, 280), word("12", X.fee - 47, 280), word("175,00", X.fee - 30, 280)]),
        ],
      },
    ]);
    expect(result.lines.map((l) => [l.basket, l.fee_cents])).toEqual([
      ["100_sante", 175_00],
      ["maitrise", 1_175_00],
      ["100_sante", 175_00],
      ["libre", 12_175_00],
    ]);
  });

  it("repairs O/0 and I/1 in codes of the table, and in the digits of codes outside it, flagged", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("21", "HBLDO90", "Inlay-core", "1", "175,00", "90,00", "54,00")],
          [240, row("15", "HBLDI58", "Couronne", "2", "500,00", "120,00", "72,00")],
          [260, row("14", "HBMDO60", "Onlay", "3", "600,00", "100,00", "60,00")],
          [280, row("15", "HBMD460", "Onlay", "3", "600,00", "100,00", "60,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.code, l.uncertain.includes("code")])).toEqual([
      ["HBLD090", true],
      ["HBLD158", true],
      // Not in the table once repaired, but its letters plain: the digits repaired, flagged.
      ["HBMD060", true],
      // A shape-valid code outside the table is kept as read (a free line).
      ["HBMD460", false],
    ]);
  });

  it("reads NR and dashes as no BR for an implant, and an act on an arch without tooth", () => {
    const result = parseQuote([
      page([
        [200, HEADER],
        [220, row("36", "LBLD015", "Implant dentaire (non remboursé)", "Libre", "1 200,00 €", "NR", "NR")],
        [240, row("46", "LBLD015", "Implant dentaire (non remboursé)", "Libre", "1 200,00 €", "—", "—")],
        [
          260,
          row(
            "",
            "HBLD031",
            "Prothèse complète résine, une arcade",
            "RAC 0",
            "1 100,00 €",
            "182,75 €",
            "109,65 €",
          ),
        ],
        [280, row("", "HBLD038", "Couronne métallique", "100 % Santé", "290,00 €", "120,00 €", "72,00 €")],
      ]),
    ]);
    expect(
      result.lines.map((l) => [l.tooth, l.code, l.basket, l.br_cents, l.amo_cents, l.uncertain]),
    ).toEqual([
      [36, "LBLD015", "libre", 0, 0, []],
      [46, "LBLD015", "libre", 0, 0, []],
      [null, "HBLD031", "100_sante", 182_75, 109_65, []],
      // A crown needs a tooth.
      [null, "HBLD038", "100_sante", 120_00, 72_00, ["tooth"]],
    ]);
  });

  it("appends a wrapped act label to its row and stops at the total", () => {
    const result = parseQuote([
      page([
        [200, HEADER],
        [
          220,
          row("24", "HBLD634", "Couronne céramo-métallique (incisive,", "1", "500,00", "120,00", "72,00"),
        ],
        [232, [[X.act, "canine, 1re prémolaire)"]]],
        [250, row("25", "HBLD491", "Couronne céramo-métallique", "2", "550,00", "120,00", "72,00")],
        [
          270,
          [
            [X.code + 30, "Total", "right"],
            [X.fee, "1 150,00", "right"],
          ],
        ],
        [290, row("26", "HBLD038", "Couronne métallique", "1", "290,00", "120,00", "72,00")],
      ]),
    ]);
    expect(result.lines.map((l) => l.act)).toEqual([
      "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
      "Couronne céramo-métallique",
    ]);
    expect(result.total_cents).toBe(1_050_00 + 100_00);
    expect(result.lines_total_cents).toBe(1_050_00);
    expect(result.total_matches).toBe(false);
  });

  it("lowers the confidence when the total does not match the lines", () => {
    const rows = (total: string) =>
      parseQuote([
        page([
          [200, HEADER],
          [220, row("24", "HBLD634", "Couronne", "1", "500,00", "120,00", "72,00")],
          [
            240,
            [
              [X.act, "Total"],
              [X.fee, total, "right"],
            ],
          ],
        ]),
      ]);
    const matching = rows("500,00");
    const mismatch = rows("800,00");
    expect(matching.total_matches).toBe(true);
    expect(mismatch.total_matches).toBe(false);
    expect(mismatch.total_cents).toBe(800_00);
    expect(mismatch.confidence).toBeLessThan(matching.confidence * 0.7);
  });

  it("no longer doubts OCR fees that the printed total adds up, and still doubts them when it does not", () => {
    const read = (total: string, fee = "500,00") =>
      parseQuote([
        page(
          [
            [200, HEADER],
            [
              220,
              [
                [X.tooth, "24"],
                [X.code, "HBLD634"],
                [X.act, "Couronne"],
                [X.basket + 10, "1"],
                [X.fee, fee, "right", 40],
                [X.br, "120,00", "right"],
                [X.amo, "72,00", "right"],
              ],
            ],
            [240, row("25", "HBLD491", "Couronne", "2", "450,00", "120,00", "72,00")],
            [
              260,
              [
                [X.act, "Total"],
                [X.fee, total, "right"],
              ],
            ],
          ],
          { source: "ocr" },
        ),
      ]);
    const matching = read("950,00");
    expect(matching.total_matches).toBe(true);
    expect(matching.lines.map((l) => l.uncertain.includes("fee_cents"))).toEqual([false, false]);
    const mismatch = read("990,00");
    expect(mismatch.total_matches).toBe(false);
    expect(mismatch.lines[0]?.uncertain).toContain("fee_cents");
    // "50,00" read, 950,00 € printed: the first fee lost a digit of 500,00 €; corrected, flagged.
    const slip = read("950,00", "50,00");
    expect(slip.lines.map((l) => l.fee_cents)).toEqual([500_00, 450_00]);
    expect(slip.total_matches).toBe(true);
    expect(slip.lines[0]?.uncertain).toContain("fee_cents");
    expect(slip.lines[1]?.uncertain).not.toContain("fee_cents");
    // What OCR read is kept beside the correction, for the review screen; nothing on the other line.
    expect(slip.lines.map((l) => l.as_read)).toEqual([{ fee_cents: 50_00 }, undefined]);
    expect(matching.lines.map((l) => l.as_read)).toEqual([undefined, undefined]);
  });

  it("reads an ADELI number, a patient named after 'Nom et prénom du patient' and a Docteur", () => {
    const result = parseQuote([
      page([
        [
          40,
          [
            [40, "Docteur Paul Lefèvre"],
            [320, "Nom et prénom du patient : DUPONT Jean"],
          ],
        ],
        [
          55,
          [
            [40, "N° ADELI : 751234567"],
            [320, "Date du devis : 12/11/2026"],
          ],
        ],
        [200, HEADER],
        [220, row("24", "HBLD634", "Couronne", "1", "500,00", "120,00", "72,00")],
      ]),
    ]);
    expect(result.patient_name).toBe("DUPONT Jean");
    expect(result.practitioner_name).toBe("Paul Lefèvre");
    expect(result.practitioner_number).toEqual({ kind: "ADELI", value: "751234567" });
  });

  it("does not read the noise after a table without total as lines", () => {
    const result = parseQuote([
      page([
        [200, HEADER],
        [220, row("24", "HBLD634", "Couronne", "1", "500,00", "120,00", "72,00")],
        [260, [[40, "Devis valable 6 mois à compter du 12/11/2026, 2 exemplaires"]]],
        [
          280,
          [
            [40, "Fait à Paris, le 12/11/2026"],
            [X.fee, "Signature", "right"],
          ],
        ],
      ]),
    ]);
    expect(result.lines).toHaveLength(1);
    expect(result.total_matches).toBeNull();
  });

  it("continues the table on a second page without its header", () => {
    const result = parseQuote([
      page([
        ...TOP,
        [200, HEADER],
        [220, row("24", "HBLD634", "Couronne", "1", "500,00", "120,00", "72,00")],
      ]),
      {
        ...page([
          [40, [[40, "Cabinet dentaire du Parc — page 2"]]],
          [60, row("25", "HBLD491", "Couronne", "2", "550,00", "120,00", "72,00")],
          [
            80,
            [
              [X.act, "Total"],
              [X.fee, "1 050,00", "right"],
            ],
          ],
        ]),
        page: 2,
      },
    ]);
    expect(result.lines.map((l) => l.code)).toEqual(["HBLD634", "HBLD491"]);
    expect(result.total_matches).toBe(true);
  });

  it("keeps the BR and AMO OCR read, flags what contradicts the table and gives the table's values beside them (issue 34)", () => {
    const result = parseQuote([
      page(
        [
          [145, [[40, "Date du devis : 02/03/2026"]]],
          [200, HEADER],
          [
            220,
            [
              [X.tooth, "16"],
              [X.code, "HBLD634"],
              [X.act, "Couronne"],
              [X.basket + 10, "1"],
              [X.fee, "500,00", "right"],
              [X.br, "128,00", "right", 40],
              [X.amo, "72,00", "right"],
            ],
          ],
          [240, row("21", "HBLD634", "Couronne", "1", "500,00", "120,00", "70,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    const table = { basket: "100_sante", br_cents: 120_00, amo_cents: 72_00, day: "2026-03-02" };
    expect(
      result.lines.map((l) => [l.br_cents, l.amo_cents, l.uncertain.sort(), l.expected, l.filled]),
    ).toEqual([
      // 128,00 € read with doubt: kept, to check, the table's 120,00 € beside it.
      [128_00, 72_00, ["br_cents", "tooth"], table, []],
      // An AMO that is not 60 % of the table's BR: kept as read, to check.
      [120_00, 70_00, ["amo_cents"], table, []],
    ]);
  });

  it("guesses the columns from the rows when OCR lost the header, ignoring table rules read as punctuation", () => {
    const result = parseQuote([
      page(
        [
          [40, [[40, "Patient : Jean Dupont"]]],
          [
            200,
            [
              [X.tooth, "|"],
              [X.act, "=="],
              [X.fee, ":", "right"],
            ],
          ],
          [
            220,
            [
              ...row("21", "HBLD634", "Couronne céramo-métallique", "1", "500,00 €", "120,00 €", "72,00 €"),
              [590, "|"],
            ],
          ],
          [
            240,
            row("36", "HBLD734", "Couronne céramo-métallique", "Libre", "1 250,00 €", "120,00 €", "72,00 €"),
          ],
          [
            260,
            row("", "HBLD031", "Prothèse complète résine", "RAC 0", "1 100,00 €", "182,75 €", "109,65 €"),
          ],
          [
            280,
            [
              [X.act, "Total"],
              [X.fee, "2 850,00 €", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(
      result.lines.map((l) => [l.tooth, l.code, l.basket, l.fee_cents, l.br_cents, l.amo_cents]),
    ).toEqual([
      [21, "HBLD634", "100_sante", 500_00, 120_00, 72_00],
      [36, "HBLD734", "libre", 1_250_00, 120_00, 72_00],
      [null, "HBLD031", "100_sante", 1_100_00, 182_75, 109_65],
    ]);
    expect(result.total_matches).toBe(true);
    expect(result.patient_name).toBe("Jean Dupont");
  });
});

describe("parseQuote and the devis's date (issue 33)", () => {
  const dated = (day: string) =>
    parseQuote([
      page([
        [40, [[40, "Dr Claire Martin, Chirurgien-dentiste"]]],
        [145, [[40, `Date du devis : ${day}`]]],
        [200, HEADER],
        [220, row("36", "HBLD073", "Couronne zircone", "2", "450,00 €", "120,00 €", "72,00 €")],
      ]),
    ]);

  it("reads the date and checks the lines with that day's table: a zirconia molar crown is maîtrisé in 2025", () => {
    const in2025 = dated("15/12/2025");
    expect(in2025.quote_date).toBe("2025-12-15");
    expect(in2025.lines[0]).toMatchObject({ code: "HBLD073", basket: "maitrise", uncertain: [] });
  });

  it("flags the same printed basket on a devis of 2026, when the act is 100 % Santé", () => {
    const in2026 = dated("02/03/2026");
    expect(in2026.quote_date).toBe("2026-03-02");
    expect(in2026.lines[0]?.uncertain).toContain("basket");
  });

  it("uses today's table when the devis has no date", () => {
    const result = parseQuote(
      [
        page([
          [200, HEADER],
          [220, row("36", "HBLD073", "Couronne", "2", "450,00", "120,00", "72,00")],
        ]),
      ],
      {
        today: "2025-06-01",
      },
    );
    expect(result.quote_date).toBeNull();
    expect(result.lines[0]).toMatchObject({ basket: "maitrise", uncertain: [] });
  });
});

describe("parseQuote never writes over what was read (issue 34)", () => {
  const read = (cells: Cell[], source: PageWords["source"] = "text") =>
    parseQuote([
      page(
        [
          [145, [[40, "Date du devis : 02/03/2026"]]],
          [200, HEADER],
          [220, cells],
        ],
        { source },
      ),
    ]).lines[0];

  it("keeps a printed BR, AMO and basket that differ from the table, flags them and shows the table's", () => {
    // HBLD734 on 2 March 2026: BR 120,00 € (AMO 60 % = 72,00 €), basket libre; the devis prints the
    // old 107,50 € (AMO 64,50 €) and basket 2 (maîtrisé).
    const line = read(row("36", "HBLD734", "Couronne", "2", "900,00 €", "107,50 €", "64,50 €"));
    expect(line).toMatchObject({
      basket: "maitrise",
      br_cents: 107_50,
      amo_cents: 64_50,
      expected: { basket: "libre", br_cents: 120_00, amo_cents: 72_00, day: "2026-03-02" },
      filled: [],
    });
    expect(line?.uncertain.sort()).toEqual(["amo_cents", "basket", "br_cents"]);
  });

  it("keeps them on a photo too, however sure OCR was", () => {
    const line = read(row("36", "HBLD734", "Couronne", "2", "900,00", "107,50", "64,50"), "ocr");
    expect([line?.basket, line?.br_cents, line?.amo_cents]).toEqual(["maitrise", 107_50, 64_50]);
    expect(line?.expected).toMatchObject({ br_cents: 120_00, amo_cents: 72_00 });
    expect(line?.uncertain.sort()).toEqual(["amo_cents", "basket", "br_cents"]);
  });

  it("flags nothing when the printed figures are the table's", () => {
    const line = read(row("36", "HBLD734", "Couronne", "3", "900,00 €", "120,00 €", "72,00 €"));
    expect(line).toMatchObject({
      basket: "libre",
      br_cents: 120_00,
      amo_cents: 72_00,
      uncertain: [],
      filled: [],
    });
  });

  it("fills what the devis does not print from the table, flagged and listed as filled", () => {
    const line = read(row("36", "HBLD734", "Couronne", "", "900,00 €", "", ""));
    expect(line).toMatchObject({ basket: "libre", br_cents: 120_00, amo_cents: 72_00 });
    expect(line?.filled?.sort()).toEqual(["amo_cents", "basket", "br_cents"]);
    expect(line?.uncertain.sort()).toEqual(["amo_cents", "basket", "br_cents"]);
  });

  it("corrects, flagged, an OCR slip in a BR or an AMO that the line's other figure and the table both prove", () => {
    // HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €. "1200" lost a digit of 120,00 (the AMO printed
    // is 60 % of the table's BR); "7,20" one of 72,00 (the BR printed is the table's).
    const br = read(row("36", "HBLD734", "Couronne", "3", "900,00", "1200", "72,00"), "ocr");
    expect([br?.br_cents, br?.amo_cents, br?.filled]).toEqual([120_00, 72_00, []]);
    expect(br?.uncertain).toEqual(["br_cents"]);
    // What OCR read is never dropped: the review screen shows it beside the correction.
    expect(br?.as_read).toEqual({ br_cents: 12_00 });
    const amo = read(row("36", "HBLD734", "Couronne", "3", "900,00", "120,00", "7,20"), "ocr");
    expect([amo?.br_cents, amo?.amo_cents]).toEqual([120_00, 72_00]);
    expect(amo?.uncertain).toEqual(["amo_cents"]);
    expect(amo?.as_read).toEqual({ amo_cents: 7_20 });
    // Not on a text PDF (its figures are the printer's, not OCR's), nor two slips away.
    const text = read(row("36", "HBLD734", "Couronne", "3", "900,00 €", "1200 €", "72,00 €"));
    expect([text?.br_cents, text?.uncertain, text?.as_read]).toEqual([12_00, ["br_cents"], undefined]);
    const far = read(row("36", "HBLD734", "Couronne", "3", "900,00", "1300", "72,00"), "ocr");
    expect([far?.br_cents, far?.as_read]).toEqual([1300, undefined]);
  });

  it("corrects, flagged, a BR a digit away from the table's when no AMO was read, and a BR and an AMO that both are", () => {
    // HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €. No devis prints 12,00 € for it: a digit lost.
    const alone = read(row("36", "HBLD734", "Couronne", "3", "900,00", "1200", ""), "ocr");
    expect([alone?.br_cents, alone?.amo_cents, alone?.as_read, alone?.filled]).toEqual([
      120_00,
      72_00,
      { br_cents: 12_00 },
      ["amo_cents"],
    ]);
    expect(alone?.uncertain.sort()).toEqual(["amo_cents", "br_cents"]);
    // Both ten times too little (the AMO still 60 % of the BR read), or one too little and one too much.
    for (const [br, amo] of [
      ["1200", "720"],
      ["1200", "720,00"],
    ] as const) {
      const both = read(row("36", "HBLD734", "Couronne", "3", "900,00", br, amo), "ocr");
      expect([both?.br_cents, both?.amo_cents, both?.filled]).toEqual([120_00, 72_00, []]);
      expect(both?.as_read).toEqual({ br_cents: 12_00, amo_cents: amo === "720" ? 7_20 : 720_00 });
      expect(both?.uncertain.sort()).toEqual(["amo_cents", "br_cents"]);
    }
    // A text PDF's figures are the printer's: kept, flagged.
    const text = read(row("36", "HBLD734", "Couronne", "3", "900,00 €", "12,00 €", "7,20 €"));
    expect([text?.br_cents, text?.amo_cents, text?.as_read]).toEqual([12_00, 7_20, undefined]);
  });

  it("re-maps amount columns OCR read one place right, and shows what each cell held (issue 34)", () => {
    // HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €. A garbled header put the fee (900,00 €) in
    // the BR's cell and the BR in the AMO's: the table's BR in the "AMO", a figure above it in the "BR".
    const cells = row("36", "HBLD734", "Couronne", "3", "", "900,00", "120,00");
    const line = read(cells, "ocr");
    expect([line?.fee_cents, line?.br_cents, line?.amo_cents]).toEqual([900_00, 120_00, 72_00]);
    // Never silently: what OCR read in the BR's and the AMO's cells stays beside them, flagged.
    expect(line?.as_read).toEqual({ br_cents: 900_00, amo_cents: 120_00 });
    expect(line?.uncertain.sort()).toEqual(["amo_cents", "br_cents", "fee_cents"]);
    expect(line?.filled).toEqual(["amo_cents"]);
    // A text PDF's columns are the printer's: left as read.
    const text = read(cells);
    expect([text?.fee_cents, text?.br_cents, text?.amo_cents, text?.as_read]).toEqual([
      null,
      900_00,
      120_00,
      undefined,
    ]);
  });

  it("re-maps amount columns OCR read one place left (issue 34)", () => {
    // The BR in the fee's cell, the AMO in the BR's, the fee read just left of them.
    const line = parseQuote([
      page(
        [
          [145, [[40, "Date du devis : 02/03/2026"]]],
          [200, HEADER],
          [
            220,
            [
              [X.tooth, "36"],
              [X.code, "HBLD734"],
              [X.act, "Couronne"],
              [X.basket - 40, "900,00", "right"],
              [X.fee, "120,00", "right"],
              [X.br, "72,00", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]).lines[0];
    expect([line?.fee_cents, line?.br_cents, line?.amo_cents]).toEqual([900_00, 120_00, 72_00]);
    expect(line?.as_read).toEqual({ fee_cents: 120_00, br_cents: 72_00 });
  });

  it("takes a “Montant non remboursé” or a “Dépassement” read as the AMO or the BR for what it is (issue 34)", () => {
    // 828,00 € = the fee less the table's AMO: the non-reimbursed amount, not the AMO.
    const line = read(row("36", "HBLD734", "Couronne", "3", "900,00", "120,00", "828,00"), "ocr");
    expect([line?.fee_cents, line?.br_cents, line?.amo_cents]).toEqual([900_00, 120_00, 72_00]);
    expect(line?.as_read).toEqual({ amo_cents: 828_00 });
    expect(line?.filled).toEqual(["amo_cents"]);
    expect(line?.uncertain).toContain("amo_cents");
    // A "Dépassement" (780,00 € = the fee less the table's BR) read as the BR: the BR from the table.
    const br = read(row("36", "HBLD734", "Couronne", "3", "900,00", "780,00", "72,00"), "ocr");
    expect([br?.br_cents, br?.amo_cents, br?.as_read, br?.filled]).toEqual([
      120_00,
      72_00,
      { br_cents: 780_00 },
      ["br_cents"],
    ]);
  });

  it("takes a “Dépassement” read as the fee for what it is, the fee being the row's amount it falls short of by the BR (issue 34)", () => {
    // A garbled header put the "Dépassement" column (780,00 € = 900,00 € less the BR) where the fee is
    // read, and the fee (900,00 €) in no column: the fee is the amount that is the figure read plus the BR.
    const cells: Cell[] = [
      [X.tooth, "36"],
      [X.code, "HBLD734"],
      [X.act, "Couronne"],
      [X.basket - 40, "900,00", "right"],
      [X.fee, "780,00", "right"],
      [X.br, "120,00", "right"],
      [X.amo, "72,00", "right"],
    ];
    const line = read(cells, "ocr");
    expect([line?.fee_cents, line?.br_cents, line?.amo_cents]).toEqual([900_00, 120_00, 72_00]);
    // Never silently: what was read as the fee stays beside it, flagged.
    expect(line?.as_read).toEqual({ fee_cents: 780_00 });
    expect(line?.uncertain).toContain("fee_cents");
    // A text PDF's columns are the printer's.
    expect(read(cells)?.fee_cents).toBe(780_00);
  });

  it("leaves as read the rows of a re-mapped table whose figures already agree (issue 34)", () => {
    const lines = parseQuote([
      page(
        [
          [145, [[40, "Date du devis : 02/03/2026"]]],
          [200, HEADER],
          [220, row("36", "HBLD734", "Couronne", "3", "900,00", "120,00", "828,00")],
          [240, row("37", "HBLD734", "Couronne", "3", "800,00", "120,00", "72,00")],
          [260, row("46", "HBLD734", "Couronne", "3", "850,00", "120,00", "778,00")],
        ],
        { source: "ocr" },
      ),
    ]).lines;
    expect(lines.map((l) => [l.amo_cents, l.as_read, l.filled])).toEqual([
      [72_00, { amo_cents: 828_00 }, ["amo_cents"]],
      // Its AMO is the table's 60 %: read in the AMO's column whatever the other rows show.
      [72_00, undefined, []],
      [72_00, { amo_cents: 778_00 }, ["amo_cents"]],
    ]);
  });

  it("re-maps a table's columns only when most of its rows show the shift (issue 34)", () => {
    const rows = (second: Cell[]) =>
      parseQuote([
        page(
          [
            [145, [[40, "Date du devis : 02/03/2026"]]],
            [200, HEADER],
            [220, row("36", "HBLD734", "Couronne", "3", "", "900,00", "120,00")],
            [240, second],
            [260, row("46", "HBLD734", "Couronne", "3", "850,00", "120,00", "72,00")],
          ],
          { source: "ocr" },
        ),
      ]).lines.map((l) => [l.fee_cents, l.br_cents]);
    // One row of three: a misread row, not a shifted table.
    expect(rows(row("37", "HBLD734", "Couronne", "3", "800,00", "120,00", "72,00"))).toEqual([
      [null, 900_00],
      [800_00, 120_00],
      [850_00, 120_00],
    ]);
  });

  it("reads a free line whose BR and AMO cells are empty as not reimbursed, filled and flagged (issue 34)", () => {
    // LBMP001 (a custom implant abutment) is outside the act table; its "—" or "NR" lost by OCR.
    const line = read(row("24", "LBMP001", "Pilier implantaire", "", "2 415,00 €", "", ""), "ocr");
    expect(line).toMatchObject({ basket: "libre", fee_cents: 2_415_00, br_cents: 0, amo_cents: 0 });
    expect(line?.filled).toEqual(expect.arrayContaining(["br_cents", "amo_cents"]));
    expect(line?.uncertain).toEqual(expect.arrayContaining(["br_cents", "amo_cents"]));
    // An act of the table gets the table's figures, not 0.
    expect(read(row("36", "HBLD734", "Couronne", "", "900,00 €", "", ""), "ocr")).toMatchObject({
      br_cents: 120_00,
      amo_cents: 72_00,
    });
    // No code read: nothing says the act is not reimbursed.
    expect(read(row("24", "", "Pilier implantaire", "", "2 415,00 €", "", ""), "ocr")).toMatchObject({
      br_cents: null,
      amo_cents: null,
    });
  });

  it("reads a free line's BR and AMO read under 1 € on a photo as 0, flagged, what was read beside (issue 34)", () => {
    // "0,00 €" read "010€" and "006": cents garbled, yet 60 % of each other. No act's BR is under 1 €.
    const line = read(row("24", "LBMP001", "Pilier implantaire", "", "2 415,00 €", "010€", "006"), "ocr");
    expect(line).toMatchObject({ fee_cents: 2_415_00, br_cents: 0, amo_cents: 0 });
    expect(line?.as_read).toEqual({ br_cents: 10, amo_cents: 6 });
    expect(line?.uncertain).toEqual(expect.arrayContaining(["br_cents", "amo_cents"]));
    // Printed in a text PDF, such figures are the devis's own: kept.
    expect(read(row("24", "LBMP001", "Pilier", "", "2 415,00 €", "0,10 €", "0,06 €"), "text")).toMatchObject({
      br_cents: 10,
      amo_cents: 6,
    });
    // A figure of 1 € or more is kept as read.
    expect(read(row("24", "LBMP001", "Pilier", "", "2 415,00 €", "10,00 €", "6,00 €"), "ocr")).toMatchObject({
      br_cents: 10_00,
      amo_cents: 6_00,
    });
  });

  // Tooth, code, act, basket, fee, Dépassement (fee − BR), BR, AMO.
  const at = { ...X, fee: 400, excess: 470, br: 540, amo: 600 };
  const headerStart: Cell[] = [
    [at.tooth, "Dent"],
    [at.code, "Code"],
    [at.act, "Acte"],
    [at.basket, "Panier"],
  ];
  const headerAmounts: Cell[] = [
    [at.fee, "Honoraires", "right"],
    [at.excess, "Dépassement", "right"],
    [at.br, "BR", "right"],
    [at.amo, "AMO", "right"],
  ];

  describe("a fee OCR garbled on a row that prints the “Dépassement” (issue 34)", () => {
    const header = [...headerStart, ...headerAmounts];
    const codeCells: Cell[] = [
      [at.tooth, "22"],
      [at.code, "HBLD785"],
      [at.act, "Bridge"],
    ];
    const amountCells = (fee: string): Cell[] => [
      [at.basket + 10, "Santé"],
      [at.fee, fee, "right"],
      [at.excess, "1229,45 €", "right"],
      [at.br, "279,50 €", "right"],
      [at.amo, "167,70 €", "right"],
    ];
    const lines = (rows: [number, Cell[]][], source: PageWords["source"] = "ocr") =>
      parseQuote([
        page([[145, [[40, "Date du devis : 15/02/2026"]]], [200, header], ...rows], { width: 700, source }),
      ]).lines;

    it("is the Dépassement plus the BR when that sum is what was printed but for one character", () => {
      // HBLD785 on 15 February 2026: BR 279,50 €; 1 229,45 + 279,50 = 1 508,95 €, read "150R95 €".
      const [line] = lines([[220, [...codeCells, ...amountCells("150R95 €")]]]);
      expect(line).toMatchObject({ fee_cents: 1_508_95, br_cents: 279_50, amo_cents: 167_70 });
      expect(line?.uncertain).toContain("fee_cents");
      // Two characters off, or a text PDF: not a figure of ours.
      expect(lines([[220, [...codeCells, ...amountCells("15PR95 €")]]])[0]?.fee_cents).toBeNull();
      expect(lines([[220, [...codeCells, ...amountCells("150R95 €")]]], "text")[0]?.fee_cents).toBeNull();
    });

    it("joins a row read as two lines, its code over its amounts, when its fee is garbled", () => {
      const read = lines([
        [220, codeCells],
        [232, amountCells("150R95 €")],
      ]);
      expect(read).toHaveLength(1);
      // The BR and the AMO are the row's own, read, not the table's filled in.
      expect(read[0]).toMatchObject({ tooth: 22, code: "HBLD785", fee_cents: 1_508_95, filled: [] });
    });
  });

  describe("a header OCR read in part: the figures where the rows' own arithmetic puts them (issue 34)", () => {
    // The header's amount words lost on a dark band but "Montant remboursé AMO", read "Montant
    // remboursé AM)" — a fee's wording — over the AMO.
    const header: Cell[] = [...headerStart, [at.amo, "Montant remboursé AM)", "right"]];
    const rowOf = (tooth: string, code: string, amounts: [string, string, string, string]): Cell[] => [
      [at.tooth, tooth],
      [at.code, code],
      [at.act, "Couronne"],
      [at.fee, amounts[0], "right"],
      [at.excess, amounts[1], "right"],
      [at.br, amounts[2], "right"],
      [at.amo, amounts[3], "right"],
    ];
    const rows = [
      rowOf("21", "HBLD350", ["440,00 €", "320,00 €", "120,00 €", "72,00 €"]),
      rowOf("46", "HBLD634", ["640,00 €", "520,00 €", "120,00 €", "72,00 €"]),
      // The BR garbled ("20,00" for 90,00 €): the AMO and the Dépassement both give the table's.
      rowOf("35", "HBLD245", ["2285,00 €", "2195,00 €", "20,00 €", "54,00 €"]),
    ];
    const lines = (headerCells: Cell[]) =>
      parseQuote([
        page(
          [
            [145, [[40, "Date du devis : 15/02/2026"]]],
            [200, headerCells],
            ...rows.map((cells, i): [number, Cell[]] => [220 + 20 * i, cells]),
          ],
          { width: 700, source: "ocr" },
        ),
      ]).lines;

    it("takes the fee, BR and AMO from their places, flagged, what was read in each cell beside", () => {
      const read = lines(header);
      expect(read.map((l) => [l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
        [440_00, 120_00, 72_00],
        [640_00, 120_00, 72_00],
        [2_285_00, 90_00, 54_00],
      ]);
      // The header's one amount word, wide, had given the fee the Dépassement's cell and the AMO the
      // BR's: what was read there is shown beside, flagged.
      expect(read[0]?.as_read).toEqual({ fee_cents: 320_00, amo_cents: 120_00 });
      expect(read[0]?.uncertain).toEqual(expect.arrayContaining(["fee_cents", "amo_cents"]));
      // The garbled BR is kept beside the table's, flagged.
      expect(read[2]?.as_read).toMatchObject({ br_cents: 20_00 });
      expect(read[2]?.uncertain).toContain("br_cents");
    });

    it("leaves the rows as read when the header put the figures where their arithmetic does", () => {
      const read = lines([...headerStart, ...headerAmounts]);
      expect(read.map((l) => l.fee_cents)).toEqual([440_00, 640_00, 2_285_00]);
      for (const line of read.slice(0, 2)) {
        expect(line.as_read).toBeUndefined();
        expect(line.uncertain).not.toEqual(expect.arrayContaining(["fee_cents"]));
        expect(line.uncertain).not.toEqual(expect.arrayContaining(["br_cents"]));
        expect(line.uncertain).not.toEqual(expect.arrayContaining(["amo_cents"]));
      }
    });
  });

  it("keeps both figures of a free line whose AMO is not 60 % of its BR, and flags them", () => {
    const line = read(row("", "HBQK002", "Radio", "", "40,00 €", "20,00 €", "14,00 €"), "ocr");
    expect(line).toMatchObject({ basket: "libre", br_cents: 20_00, amo_cents: 14_00, expected: null });
    expect(line?.uncertain).toEqual(expect.arrayContaining(["amo_cents", "br_cents"]));
  });
});

describe("parseQuote: other practice layouts (issue 34)", () => {
  it("reads columns in another order and never takes “Montant non remboursé” or “Dépassement” for the AMO", () => {
    // Code, teeth, label, fee, BR, AMO, non remboursé, basket at the end.
    const C = { code: 40, tooth: 95, act: 130, fee: 360, br: 410, amo: 460, rest: 540, basket: 550 };
    const header: Cell[] = [
      [C.code, "Code"],
      [C.tooth, "Dents"],
      [C.act, "Libellé"],
      [C.fee, "Honoraires", "right"],
      [C.br, "BRSS", "right"],
      [C.amo, "Part AMO", "right"],
      [C.rest, "Non remboursé", "right"],
      [C.basket, "Panier"],
    ];
    const line = (
      code: string,
      tooth: string,
      act: string,
      fee: string,
      br: string,
      amo: string,
      rest: string,
      basket: string,
    ): Cell[] => [
      [C.code, code],
      [C.tooth, tooth],
      [C.act, act],
      [C.fee, fee, "right"],
      [C.br, br, "right"],
      [C.amo, amo, "right"],
      [C.rest, rest, "right"],
      [C.basket, basket],
    ];
    const result = parseQuote([
      page([
        ...TOP,
        [200, header],
        [220, line("HBLD634", "21", "Couronne", "500,00", "120,00", "72,00", "428,00", "Mod.")],
        [240, line("LBLD015", "36", "Implant", "1 250,00", "NR", "NR", "1 250,00", "Libre")],
        ...NOISE,
      ]),
    ]);
    expect(
      result.lines.map((l) => [l.code, l.tooth, l.basket, l.fee_cents, l.br_cents, l.amo_cents]),
    ).toEqual([
      ["HBLD634", 21, "maitrise", 500_00, 120_00, 72_00],
      ["LBLD015", 36, "libre", 1250_00, 0, 0],
    ]);
    // The same table with "Dépassement" (fee − BR) in the last amount column.
    const excess = parseQuote([
      page([
        ...TOP,
        [
          200,
          header.map((cell): Cell => (cell[1] === "Non remboursé" ? [C.rest, "Dépassement", "right"] : cell)),
        ],
        [220, line("HBLD634", "21", "Couronne", "500,00", "120,00", "72,00", "380,00", "RAC 0")],
        ...NOISE,
      ]),
    ]);
    expect(excess.lines[0]?.amo_cents).toBe(72_00);
  });

  it("reads a row whose cells are centred on its label wrapped over three lines, the label whole", () => {
    const result = parseQuote([
      page([
        ...TOP,
        [200, HEADER],
        [220, [[X.act, "Couronne céramique"]]],
        [232, row("16", "HBLD158", "monolithique hors zircone", "2", "495,00 €", "120,00 €", "72,00 €")],
        [244, [[X.act, "(2e prémolaire et molaires)"]]],
        [262, [[X.act, "Couronne transitoire"]]],
        [274, row("24", "HBLD724", "(pour une couronne", "2", "60,00 €", "10,00 €", "6,00 €")],
        [286, [[X.act, "à tarif maîtrisé)"]]],
        ...NOISE,
      ]),
    ]);
    expect(result.lines.map((l) => [l.code, l.act])).toEqual([
      ["HBLD158", "Couronne céramique monolithique hors zircone (2e prémolaire et molaires)"],
      ["HBLD724", "Couronne transitoire (pour une couronne à tarif maîtrisé)"],
    ]);
  });
});

describe("parseQuote: a devis without a table, whose lines name their own fields", () => {
  // One act a line, each figure after its name; the lines are not aligned (a longer label pushes the
  // figures right), and every line names three kinds of column, as a header would.
  const labelled = (rows: string[]) =>
    parseQuote([
      page([
        ...TOP,
        ...rows.map((text, k): [number, Cell[]] => [200 + k * 15, [[40, text]]]),
        [200 + rows.length * 15, [[40, "Total des honoraires : 1 550,00 €"]]],
        ...NOISE,
      ]),
    ]);

  it("reads every line, the first one too, each figure the one its name introduces", () => {
    const result = labelled([
      "Dent 15 - HBLD491 - Onlay - Honoraires 410,00 € - BR 100,00 €",
      "Dent 47 - HBLD073 - Couronne transitoire - Dépassement 50,00 € - Honoraires 60,00 € - Base de remboursement 10,00 € - Remb. AMO 6,00 €",
      "Dent 36 : HBLD038 : Couronne : Honoraires : 1 080,00 € : Base SS : 107,50 €",
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.act, l.fee_cents, l.br_cents])).toEqual([
      [15, "HBLD491", "Onlay", 410_00, 100_00],
      [47, "HBLD073", "Couronne transitoire", 60_00, 10_00],
      [36, "HBLD038", "Couronne", 1_080_00, 107_50],
    ]);
    // The AMO printed is read; one not printed is filled (flagged), never taken from a BR's figure.
    expect(result.lines.map((l) => l.filled?.includes("amo_cents"))).toEqual([true, false, true]);
    expect(result.lines[1]?.amo_cents).toBe(6_00);
    expect(result.lines.every((l) => !l.filled?.includes("br_cents") && !l.as_read)).toBe(true);
    expect([result.total_cents, result.lines_total_cents, result.total_matches]).toEqual([
      1_550_00,
      1_550_00,
      true,
    ]);
  });

  it("never guesses which field a figure no name introduces is", () => {
    // The second line's BR is printed without its name: it is not taken for the AMO (nor the BR
    // derived from it), and its fee, named, is still its fee.
    const result = labelled([
      "Dent 15 - HBLD491 - Onlay - Honoraires 410,00 € - BR 100,00 €",
      "Dent 47 - HBLD073 - Couronne transitoire - Honoraires 60,00 € - 10,00 €",
      "Dent 36 - HBLD038 - Couronne - Honoraires 1 080,00 € - Base SS 107,50 €",
    ]);
    const line = result.lines[1];
    expect([line?.fee_cents, line?.amo_cents === 10_00]).toEqual([60_00, false]);
    expect(line?.filled).toContain("br_cents");
    expect(result.total_matches).toBe(true);
  });
});

describe("parseQuote: photos of other layouts (issue 34)", () => {
  it("guesses the columns of a table whose header OCR lost, the label before the code, and reads a doubled “1” as tooth 11", () => {
    // Tooth, label, code, basket, amounts; the tooth of the first row read "1" over two digits' width.
    const C = { tooth: 40, act: 70, code: 300, basket: 360, fee: 470, br: 530, amo: 590 };
    const line = (
      tooth: string,
      act: string,
      code: string,
      basket: string,
      fee: string,
      br: string,
      amo: string,
    ): Cell[] => [
      [C.tooth, tooth],
      [C.act, act],
      [C.code, code],
      [C.basket, basket],
      [C.fee, fee, "right"],
      [C.br, br, "right"],
      [C.amo, amo, "right"],
    ];
    const words = page([
      ...TOP,
      [220, line("1", "Inlay-core sous couronne", "HBLD245", "RAC libre", "1270,00", "90,00", "54,00")],
      [240, line("26", "Couronne métallique", "HBLD038", "RAC 0", "298,70", "120,00", "72,00")],
      ...NOISE,
    ]).words.map((w) => (w.text === "1" ? { ...w, width: w.width * 1.2 } : w));
    const result = parseQuote([{ ...page([]), words, source: "ocr" }]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
      [11, "HBLD245", 1270_00, 90_00, 54_00],
      [26, "HBLD038", 298_70, 120_00, 72_00],
    ]);
    expect(result.lines[0]?.uncertain).toContain("tooth");
  });

  it("keeps reading the table past lines that OCR strews with specks beside it, and reads “ss,00” as 55,00", () => {
    const result = parseQuote([
      {
        ...page([
          ...TOP,
          [200, [...HEADER, [700, "Eos"]]],
          [
            220,
            [
              ...row("16", "HBLD724", "Couronne transitoire (pour une", "2", "ss,00 €", "10,00 €", "6,00 €"),
              [700, "Ë"],
            ],
          ],
          [
            232,
            [
              [X.act, "couronne à tarif maîtrisé)"],
              [660, "Ë"],
              [700, "Ÿ"],
            ],
          ],
          [
            246,
            [
              [X.act, "Pose PS tm are rte"],
              [700, "Ets"],
            ],
          ],
          [
            260,
            row("23", "HBLD680", "Couronne céramique monolithique", "1", "515,00 €", "120,00 €", "72,00 €"),
          ],
          ...NOISE,
        ]),
        source: "ocr",
      },
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents])).toEqual([
      [16, "HBLD724", 55_00],
      [23, "HBLD680", 515_00],
    ]);
  });

  it("reads header words OCR glued together (“Basede”, “del'acte”) and never takes the excess beside them for the BR", () => {
    const C = { tooth: 40, code: 75, act: 130, basket: 330, fee: 430, excess: 490, br: 560, amo: 640 };
    const result = parseQuote([
      {
        ...page([
          ...TOP,
          [
            195,
            [
              [C.code, "Code"],
              [C.act, "Libellé"],
              [C.basket, "Panier"],
              [C.excess, "Dont", "right"],
              [C.br, "Basede", "right"],
              [C.amo, "Montant", "right"],
            ],
          ],
          [
            207,
            [
              [C.tooth, "Localisation"],
              [C.fee, "Honoraires", "right"],
            ],
          ],
          [
            219,
            [
              [C.code, "CCAM"],
              [C.act, "del'acte"],
              [C.basket, "desoins"],
              [C.excess, "dépassement", "right"],
              [C.br, "remb.", "right"],
              [C.amo, "remboursé AMO", "right"],
            ],
          ],
          [
            240,
            [
              [C.tooth, "17"],
              [C.code, "HBLD245"],
              [C.act, "Inlay-core"],
              [C.basket, "RAC libre"],
              [C.fee, "1 900,00", "right"],
              [C.excess, "1 810,00", "right"],
              [C.br, "90,00", "right"],
              [C.amo, "54,00", "right"],
            ],
          ],
          ...NOISE,
        ]),
        source: "ocr",
      },
    ]);
    expect(
      result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents, l.amo_cents, l.filled]),
    ).toEqual([[17, "HBLD245", 1900_00, 90_00, 54_00, []]]);
  });

  it("reads header words OCR misread by a letter or two (“omoraires”, “Base de Lemb.”) and never takes the AMO's figures for the fee", () => {
    // A photo's two-line header: "Honoraires" lost its "H" and read "m" for "n"; "Montant" (over an "AMO"
    // lost) named the fee instead, which then took the AMO's figures.
    const C = { tooth: 40, code: 75, act: 130, basket: 330, fee: 430, br: 510, amo: 590 };
    const result = parseQuote([
      {
        ...page([
          ...TOP,
          [
            195,
            [
              [C.code, "Code"],
              [C.act, "Acte"],
              [C.basket, "Panier"],
              [C.br, "Base de", "right"],
              [C.amo, "Montant", "right"],
            ],
          ],
          [
            207,
            [
              [C.tooth, "Dent"],
              [C.fee, "omoraires", "right"],
            ],
          ],
          [
            219,
            [
              [C.basket, "de soins"],
              [C.br, "Lemb.", "right"],
              [C.amo, "ne", "right"],
            ],
          ],
          [
            240,
            [
              [C.tooth, "25"],
              [C.code, "HBLD090"],
              [C.act, "Inlay-core"],
              [C.basket, "RAC 0"],
              [C.fee, "120,00 €", "right"],
              [C.br, "90,00 €", "right"],
              [C.amo, "54,00 €", "right"],
            ],
          ],
          [
            260,
            [
              [C.tooth, "14"],
              [C.code, "HBLD634"],
              [C.act, "Couronne"],
              [C.basket, "RAC 0"],
              [C.fee, "290,00 €", "right"],
              [C.br, "120,00 €", "right"],
              [C.amo, "72,00 €", "right"],
            ],
          ],
          ...NOISE,
        ]),
        source: "ocr",
      },
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents])).toEqual([
      [25, "HBLD090", 120_00, 90_00],
      [14, "HBLD634", 290_00, 120_00],
    ]);
  });

  it("puts cells read again in place of the first reading of their line, by line index (issue 34)", () => {
    const ocr = page(
      [
        [200, HEADER],
        // A code OCR garbled and a tooth it lost; then a line read right.
        [220, row("", "Hpr.noas", "Couronne", "3", "612,71", "120,00", "72,00")],
        [240, row("25", "HBLD491", "Couronne", "2", "450,00", "120,00", "72,00")],
        [
          260,
          [
            [X.act, "Total"],
            [X.fee, "1 062,71", "right"],
          ],
        ],
      ],
      { source: "ocr" },
    );
    const first = parseQuote([ocr]);
    expect(first.lines.map((l) => [l.tooth, l.code])).toEqual([
      [null, null],
      [25, "HBLD491"],
    ]);
    const corrections = new Map([
      [
        0,
        [
          { field: "code" as const, text: "HBLD033", confidence: 40 },
          { field: "tooth" as const, text: "24", confidence: 90 },
        ],
      ],
    ]);
    const again = parseQuote([ocr], { corrections });
    expect(again.lines.map((l) => [l.tooth, l.code, l.fee_cents])).toEqual([
      [24, "HBLD033", 612_71],
      [25, "HBLD491", 450_00],
    ]);
    // The code read again at 40 % confidence is flagged; its act's table terms are now known.
    expect(again.lines[0]?.uncertain).toContain("code");
    expect(again.lines[0]?.expected).not.toBeNull();
    expect(again.lines[1]?.uncertain).not.toContain("code");
  });

  it("reads as one row its code and its amounts that OCR read as two lines, one above the other (issue 34)", () => {
    // Cells centred on a label wrapped over two lines: the code comes with the label's first line, the
    // amounts with its second, 12 px lower (a word is 10 px high).
    const read = (source: PageWords["source"]) =>
      parseQuote([
        page(
          [
            [200, HEADER],
            [
              220,
              [
                [X.tooth, "25"],
                [X.code, "HBLD745"],
                [X.act, "Inlay-core sous"],
              ],
            ],
            [
              232,
              [
                [X.act, "couronne"],
                [X.basket + 10, "2"],
                [X.fee, "195,00", "right"],
                [X.br, "90,00", "right"],
                [X.amo, "54,00", "right"],
              ],
            ],
            [250, row("36", "HBLD734", "Couronne", "3", "900,00", "120,00", "72,00")],
            [
              270,
              [
                [X.act, "Total"],
                [X.fee, "1 095,00", "right"],
              ],
            ],
          ],
          { source },
        ),
      ]);
    const result = read("ocr");
    expect(
      result.lines.map((l) => [l.tooth, l.code, l.basket, l.fee_cents, l.br_cents, l.amo_cents]),
    ).toEqual([
      [25, "HBLD745", "maitrise", 195_00, 90_00, 54_00],
      [36, "HBLD734", "libre", 900_00, 120_00, 72_00],
    ]);
    expect(result.total_matches).toBe(true);
  });

  it("does not end the table at wrapped label lines that fall outside the act column (issue 34)", () => {
    // OCR put the label's wrapped lines under the code column (a garbled header places the act column
    // too far right): two lines of words without a digit, left of the amounts.
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("45", "HBLD158", "Couronne", "2", "545,18", "120,00", "72,00")],
          [235, [[X.code, "zircone"]]],
          [250, [[X.code, "(molaire)"]]],
          [265, row("35", "HBLD491", "Couronne", "2", "440,00", "120,00", "72,00")],
          [
            285,
            [
              [X.act, "Total"],
              [X.fee, "985,18", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents])).toEqual([
      [45, "HBLD158", 545_18],
      [35, "HBLD491", 440_00],
    ]);
  });

  it("guesses the columns of a table without a readable header whose basket is printed last (issue 34)", () => {
    // Code, tooth, label, fee, BR, AMO, "Non remboursé", then the basket: no header read at all.
    const C = { code: 40, tooth: 90, act: 120, fee: 330, br: 390, amo: 445, other: 510, basket: 530 };
    const line = (
      code: string,
      tooth: string,
      act: string,
      fee: string,
      br: string,
      amo: string,
      rest: string,
    ): Cell[] => [
      [C.code, code],
      ...(tooth ? ([[C.tooth, tooth]] as Cell[]) : []),
      [C.act, act],
      [C.fee, fee, "right"],
      [C.br, br, "right"],
      [C.amo, amo, "right"],
      [C.other, rest, "right"],
      [C.basket, "RAC 0"],
    ];
    const result = parseQuote([
      page(
        [
          [220, line("HBLD350", "32", "Couronne céramique", "440,00€", "120,00€", "72,00€", "368,00€")],
          [240, line("HBLD031", "", "Prothèse complète", "970,00€", "182,75€", "109,65€", "860,35€")],
          [260, line("HBLD634", "31", "Couronne céramo", "500,00€", "120,00€", "72,00€", "428,00€")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
      [32, "HBLD350", 440_00, 120_00, 72_00],
      [null, "HBLD031", 970_00, 182_75, 109_65],
      [31, "HBLD634", 500_00, 120_00, 72_00],
    ]);
  });

  it("cuts short an OCR box that runs over the next headers of its line", () => {
    // A tuned photo's words (code-dabord): tesseract gave "Honoraires" a box reaching past "Montant non",
    // which joined the header's two lines into one block — "Remb. AMO" and "Montant non remboursé" lost,
    // and the dashes of the BR and the AMO read under the fee's wide column.
    const w = (text: string, x: number, y: number, width: number, height: number): Word => ({
      text,
      x,
      y,
      width,
      height,
      confidence: 90,
    });
    const words: Word[] = [
      w("Code", 315, 585, 53, 17),
      w("Localisation", 398, 585, 123, 18),
      w("Libellé", 750, 581, 73, 31),
      w("Panier", 1064, 585, 64, 18),
      w("Honoraires", 1151, 585, 396, 18),
      w("BRSS", 1279, 581, 53, 31),
      w("Remb.", 1346, 581, 66, 31),
      w("Montant", 1424, 581, 78, 31),
      w("non", 1512, 581, 39, 31),
      w("de", 741, 608, 21, 31),
      w("l'acte", 776, 608, 56, 31),
      w("de", 1049, 609, 25, 30),
      w("soins", 1084, 609, 58, 30),
      w("AMO", 1353, 613, 49, 17),
      w("remboursé", 1431, 613, 108, 17),
      w("LBLDO15", 292, 648, 92, 30),
      w("25", 443, 648, 27, 30),
      w("Implant", 529, 648, 73, 30),
      w("dentaire", 609, 648, 73, 30),
      w("(non", 691, 648, 38, 30),
      w("remboursé)", 739, 648, 107, 30),
      w("Libre", 1069, 648, 53, 30),
      w("930,99", 1176, 648, 68, 31),
      w("€", 1253, 652, 9, 17),
      w("—", 1313, 661, 20, 4),
      w("—", 1389, 661, 21, 4),
      w("930,99", 1467, 653, 82, 18),
      w("€", 1540, 649, 13, 30),
      w("Total", 334, 687, 53, 31),
      w("930,99", 1180, 692, 83, 20),
      w("€", 1253, 688, 13, 30),
    ];
    const result = parseQuote([{ page: 1, width: 1800, height: 2500, words, source: "ocr" }]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
      [25, "LBLD015", 930_99, 0, 0],
    ]);
    // Its text and its start are kept, its end brought before the next word; other boxes are not touched.
    const trimmed = trimOverlongBoxes(words);
    const honoraires = trimmed.find((t) => t.text === "Honoraires");
    expect(honoraires?.x).toBe(1151);
    expect((honoraires?.x ?? 0) + (honoraires?.width ?? 0)).toBeLessThan(1279);
    expect(trimmed.filter((t) => t.text !== "Honoraires")).toEqual(
      words.filter((t) => t.text !== "Honoraires"),
    );
  });

  it("names a row's garbled code by its digits when the row's BR or AMO bears the act out, flagged", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          // Letters garbled beyond lookalikes, the BR the act's: HBLD031 (182,75 €).
          [220, row("", "MaLDo31", "Prothèse complète résine", "1", "1 100,00", "182,75", "109,65")],
          // The code's letters broken into punctuation (no code read), the AMO the act's 60 %: HBLD245.
          [240, row("24", "HE[D245;", "Inlay-core", "3", "515,45", "", "54,00")],
          // The same digits, but neither the BR nor the AMO is the act's: left as read.
          [260, row("26", "MaLDo31", "Prothèse", "1", "900,00", "120,00", "72,00")],
          // A code of the right shape outside the table: kept.
          [280, row("15", "HBMD460", "Onlay", "3", "600,00", "100,00", "60,00")],
          // Read among the label's words (a wrapped label's line put before it).
          [300, row("", "", "complète résine, une MaLDo31 Prothèse", "1", "1 100,00", "182,75", "109,65")],
          // Its four letters all garbled, its three digits read as digits, the BR the act's: HBLD227.
          [320, row("48", "|upup227", "Bridge", "2", "1 470,00", "279,50", "167,70")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.code, l.uncertain.includes("code")])).toEqual([
      ["HBLD031", true],
      ["HBLD245", true],
      [null, false],
      ["HBMD460", false],
      ["HBLD031", true],
      ["HBLD227", true],
    ]);
  });

  it("names a code whose digits OCR read as letters, or one as another digit, when the row's figures bear out one act, flagged", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          // HBLD090 (BR 90,00 €): its 9s read as S and O, no digit left.
          [220, row("11", "HBLDOSO", "Inlay-core", "1", "175,00", "90,00", "54,00")],
          // HBLD785 (BR 279,50 €): its 8 and 5 read as S.
          [240, row("", "HBLD7SS", "Bridge", "1", "1 220,00", "279,50", "167,70")],
          // The same word with a BR of 120,00 €: HBLD038 and HBLD680 both fit, neither is chosen.
          [260, row("12", "HBLDOSO", "Couronne", "1", "500,00", "120,00", "72,00")],
          // A digit read as a digit is never changed: HBLD7S6 is not HBLD785 (read as a free code, its
          // lookalike repaired).
          [280, row("", "HBLD7S6", "Bridge", "1", "1 220,00", "279,50", "167,70")],
          // Its 5 read as a dollar sign.
          [300, row("", "HBLD78$", "Bridge", "1", "1 220,00", "279,50", "167,70")],
          // HBLD634 (BR 120,00 €): its 6 read as a small g.
          [320, row("14", "HBLDg34", "Couronne", "1", "500,00", "120,00", "72,00")],
          // HBLD031 (BR 182,75 €): its 0 read as a 9, a code outside the table.
          [340, row("", "HBLD931", "Prothèse complète", "1", "1 100,00", "182,75", "109,65")],
          // The same word with a BR no act one digit away has: kept as read.
          [360, row("", "HBLD931", "Prothèse complète", "1", "1 100,00", "150,00", "90,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.code, l.uncertain.includes("code")])).toEqual([
      ["HBLD090", true],
      ["HBLD785", true],
      [null, false],
      ["HBLD756", true],
      ["HBLD785", true],
      ["HBLD634", true],
      ["HBLD031", true],
      ["HBLD931", false],
    ]);
    expect(result.lines[1]?.as_read).toBeUndefined();
  });

  it("reads the code and the tooth of a word OCR glued them into, the space between them lost", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("", "46HBLD734", "Couronne", "3", "600,00", "120,00", "72,00")],
          [240, row("", "HBLDO7336", "Couronne", "1", "500,00", "120,00", "72,00")],
          // A code and two digits that are no tooth: left as read.
          [260, row("", "HBLD73499", "Couronne", "3", "600,00", "120,00", "72,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code])).toEqual([
      [46, "HBLD734"],
      [36, "HBLD073"],
      [null, null],
    ]);
    expect(result.lines[1]?.uncertain).toContain("code");
  });

  it("finds a code printed after the label when the header's code column was not read (issue 34)", () => {
    // No "Code" header read: the codes, printed after the label, fall into the act's zone or the
    // basket's. A code of the act table there is the row's, whatever its place among the label's words.
    const header: Cell[] = [
      [40, "Dent"],
      [80, "Acte"],
      [330, "Panier"],
      [445, "Honoraires", "right"],
      [515, "BR", "right"],
      [580, "AMO", "right"],
    ];
    const result = parseQuote([
      page(
        [
          [200, header],
          [
            220,
            [
              [40, "46"],
              [80, "Couronne céramo-métallique"],
              [230, "HBLD734"],
              [340, "3"],
              [445, "600,00", "right"],
              [515, "120,00", "right"],
              [580, "72,00", "right"],
            ],
          ],
          [
            240,
            [
              [40, "15"],
              [80, "Couronne sur implant"],
              [185, "HBLD418"],
              [340, "3"],
              [445, "900,00", "right"],
              [515, "107,50", "right"],
              [580, "64,50", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.act, l.basket])).toEqual([
      [46, "HBLD734", "Couronne céramo-métallique", "libre"],
      [15, "HBLD418", "Couronne sur implant", "libre"],
    ]);
  });

  it("keeps the cells of a first column whose header OCR garbled, left of the columns read", () => {
    // "CODE" read "cone": the table's columns begin at "Dent", yet the codes left of it are the table's.
    const header: Cell[] = [
      [30, "cone"],
      [85, "Dent"],
      [130, "Acte"],
      [X.basket, "Panier"],
      [X.fee, "Honoraires", "right"],
      [X.br, "BR", "right"],
      [X.amo, "AMO", "right"],
    ];
    const line = (code: string, tooth: string, act: string, fee: string, br: string, amo: string): Cell[] => [
      [30, code],
      [85, tooth],
      [130, act],
      [X.basket + 10, "1"],
      [X.fee, fee, "right"],
      [X.br, br, "right"],
      [X.amo, amo, "right"],
    ];
    const result = parseQuote([
      page(
        [
          [200, header],
          [220, line("HBLD634", "21", "Couronne céramo-métallique", "500,00", "120,00", "72,00")],
          [240, line("HBLD090", "36", "Inlay-core", "175,00", "90,00", "54,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.code, l.tooth, l.fee_cents])).toEqual([
      ["HBLD634", 21, 500_00],
      ["HBLD090", 36, 175_00],
    ]);
  });

  it("reads on past a row OCR garbled beyond reading when an act's row follows before the total", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("21", "HBLD634", "Couronne céramo-métallique", "1", "500,00", "120,00", "72,00")],
          // Two lines garbled beyond reading, apart: no code, no fee read.
          [240, row("48", "npLDess", "Coxomme ccaneltoire", "", "", "", "")],
          [256, row("", "", "", "Lie", "830:9€", "", "")],
          [272, row("22", "HBLD486", "Couronne transitoire", "3", "1 020,00", "10,00", "6,00")],
          [
            292,
            [
              [X.act, "Total des honoraires"],
              [X.fee, "2 350,99", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => l.code)).toEqual(["HBLD634", "HBLD486"]);
    expect(result.total_cents).toBe(2_350_99);
  });

  it("takes a line whose fee is the rows' sum, its word garbled, for the total rather than a row", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("42", "HBLD724", "Couronne transitoire", "2", "35,00", "10,00", "6,00")],
          [240, row("", "", "TOFAL", "", "35,00", "10,00", "6,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => l.code)).toEqual(["HBLD724"]);
    expect([result.total_cents, result.total_matches]).toEqual([35_00, true]);
  });

  it("reads as one row two touching lines, one with the tooth and no amount, the other amounts only", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("21", "HBLD634", "Couronne céramo-métallique", "1", "500,00", "120,00", "72,00")],
          // One row OCR put on two lines, its code and its fee garbled.
          [240, row("48", "npLDess", "Coxomme ccaneltoire", "", "", "", "")],
          [252, row("", "", "", "Lie", "830:9€", "10,00€", "6,00€")],
          [272, row("22", "HBLD486", "Couronne transitoire", "3", "1 020,00", "10,00", "6,00")],
          [
            292,
            [
              [X.act, "Total des honoraires"],
              [X.fee, "2 350,99", "right"],
            ],
          ],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
      [21, "HBLD634", 500_00, 120_00, 72_00],
      // Its fee what the total leaves for it, flagged.
      [48, null, 830_99, 10_00, 6_00],
      [22, "HBLD486", 1_020_00, 10_00, 6_00],
    ]);
    expect(result.lines[1]?.uncertain).toContain("fee_cents");
  });

  it("reads as one row a line with the tooth and a garbled code over a touching line of its amounts", () => {
    const result = parseQuote([
      page(
        [
          [200, HEADER],
          [220, row("21", "HBLD634", "Couronne céramo-métallique", "1", "500,00", "120,00", "72,00")],
          // One row OCR put on two lines: its tooth and its code (garbled) above, every amount below —
          // a row of its own on its fee and BR, without its tooth.
          [240, row("31", "HBLDOSO", "Inlay-core sous couronne", "", "", "", "")],
          [250, row("", "", "", "Santé", "135,00", "90,00", "54,00")],
          [272, row("22", "HBLD486", "Couronne transitoire", "3", "1 020,00", "10,00", "6,00")],
        ],
        { source: "ocr" },
      ),
    ]);
    expect(result.lines.map((l) => [l.tooth, l.fee_cents, l.br_cents, l.amo_cents])).toEqual([
      [21, 500_00, 120_00, 72_00],
      [31, 135_00, 90_00, 54_00],
      [22, 1_020_00, 10_00, 6_00],
    ]);
    expect(result.lines[1]?.act).toContain("Inlay-core");
  });
});
