import { describe, expect, it } from "vitest";
import type { Word } from "../types";
import { editDistance, findHeader, headerTypos, SYNONYMS } from "./header";
import { groupLines } from "./lines";

const CHAR = 5;
const HEIGHT = 10;

/** Header cells as OCR reads them: [x, y, text], a word box per space-separated word. */
function words(cells: [x: number, y: number, text: string][]): Word[] {
  return cells.flatMap(([x, y, text]) => {
    let cursor = x;
    return text.split(" ").map((part) => {
      const word = { text: part, x: cursor, y, width: part.length * CHAR, height: HEIGHT, confidence: 90 };
      cursor += (part.length + 1) * CHAR;
      return word;
    });
  });
}

/** The kinds of the header found in these words, left to right. */
const kinds = (cells: [number, number, string][]) =>
  findHeader(groupLines(words(cells)))?.columns.map((c) => c.kind) ?? null;

/** A one-line header: tooth, code, act, then `fee`, `br` and `amo` as given. */
const line = (fee: string, br: string, amo: string) =>
  kinds([
    [10, 100, "Dent"],
    [60, 100, "Code"],
    [120, 100, "Acte"],
    [300, 100, fee],
    [450, 100, br],
    [570, 100, amo],
  ]);

describe("header", () => {
  it("never takes a header for another kind's: every two synonyms of different kinds differ by more letters than either may have misread", () => {
    const all = Object.entries(SYNONYMS).flatMap(([kind, phrases]) =>
      phrases.map((tokens) => ({ kind, letters: tokens.join("") })),
    );
    const close = all.flatMap((a) =>
      all
        .filter((b) => a.kind !== b.kind)
        .filter((b) => {
          const most = Math.max(headerTypos(a.letters.length), headerTypos(b.letters.length));
          return editDistance(a.letters, b.letters, most) <= most;
        })
        .map((b) => `${a.kind} ${a.letters} ~ ${b.kind} ${b.letters}`),
    );
    expect(close).toEqual([]);
  });

  it("reads headers OCR misread by a letter or two, a stray letter or a space added or lost", () => {
    const want = ["tooth", "code", "act", "fee", "br", "amo"];
    expect(line("Montant t des honoraires", "Base de remb.", "Part AMO")).toEqual(want);
    expect(line("omoraires", "Base de Lemb.", "Remb. AMO")).toEqual(want);
    expect(line("Honorai res", "Basede remb.", "Montant remboursé AM0")).toEqual(want);
    expect(line("Honoralres", "Base de rernboursement", "Remboursement AM0")).toEqual(want);
  });

  it("reads a header's first words glued to the “de” after them, the rest lost (“Prixde”, “Resteà”)", () => {
    expect(line("Prixde", "BR", "Resteà")).toEqual(["tooth", "code", "act", "fee", "br", "other"]);
  });

  it("spans a garbled header's words: “Montant t des honoraires” is one column, not “Montant” and a stray rest", () => {
    const header = findHeader(
      groupLines(
        words([
          [10, 100, "Dent"],
          [60, 100, "Code"],
          [120, 100, "Acte"],
          [300, 100, "Montant t des honoraires"],
          [450, 100, "BR"],
        ]),
      ),
    );
    const fee = header?.columns.find((c) => c.kind === "fee");
    expect([fee?.x0, fee?.x1]).toEqual([300, 300 + "Montant t des honoraires".length * CHAR]);
  });

  it("never reads on past a header spelt exactly into the next one's words: “BASE ss” then “REMB.” over “AMO”", () => {
    expect(
      kinds([
        [10, 100, "CODE"],
        [60, 100, "DENTS"],
        [120, 100, "LIBELLE"],
        [300, 100, "HONOR."],
        [345, 100, "BASE ss"],
        [385, 100, "REMB."],
        [385, 112, "AMO"],
        [425, 100, "RESTE A"],
        [425, 112, "CHARGE"],
      ]),
    ).toEqual(["code", "tooth", "act", "fee", "br", "amo", "other"]);
  });

  it("never reads “Montant non remboursé” misread for the AMO, nor a short word misread for another (“Des te” is no “Reste”)", () => {
    expect(line("Honoraires", "BR", "Montant non rernboursé")).toEqual([
      "tooth",
      "code",
      "act",
      "fee",
      "br",
      "other",
    ]);
    expect(line("Honoraires", "BR", "Montant nom remboursé AMO")).toEqual([
      "tooth",
      "code",
      "act",
      "fee",
      "br",
      "other",
    ]);
    expect(
      kinds([
        [10, 100, "Des te"],
        [60, 100, "Code"],
        [120, 100, "Acte"],
        [300, 100, "Honoraires"],
      ]),
    ).toEqual(["code", "act", "fee"]);
  });

  it("reads “Acte CCAM” stacked over two lines as the code, beside the act's label", () => {
    expect(
      kinds([
        [10, 100, "Dents"],
        [60, 100, "Acte"],
        [60, 112, "CCAM"],
        [120, 100, "Nature"],
        [120, 112, "de l'acte"],
        [300, 106, "Honoraires"],
      ]),
    ).toEqual(["tooth", "code", "act", "fee"]);
  });

  it("ends a header before a line holding a code or an amount: the table's first row is no header line", () => {
    const lines = groupLines(
      words([
        [10, 100, "Code"],
        [120, 100, "Désignation"],
        [300, 100, "Honoraires"],
        [450, 100, "BR"],
        [10, 112, "CCAM"],
        [120, 112, "de l'acte"],
        [570, 112, "AMO"],
        // The label's "dent" would name a tooth column.
        [10, 124, "HBLD785"],
        [120, 124, "Couronne sur dent"],
        [300, 124, "450,00"],
      ]),
    );
    const header = findHeader(lines);
    expect([header?.columns.map((c) => c.kind), header?.lastLine]).toEqual([
      ["code", "act", "fee", "br", "amo"],
      1,
    ]);
  });

  it("never takes for the header a row that names its own fields: a line holding a code or an amount is a row", () => {
    // Each act line names three kinds ("Dent", "Honoraires", "Base SS"): none of them is a header.
    expect(
      kinds([
        [10, 100, "Dent 15 - HBLD491 - Onlay - Honoraires 410,00 EUR - Base SS 100,00 EUR"],
        [10, 114, "Dent 25 - HBLD491 - Onlay - Honoraires 410,00 EUR - Base SS 100,00 EUR"],
      ]),
    ).toBeNull();
    // One with a figure and no code, one with a code and no figure: rows all the same.
    expect(kinds([[10, 100, "Dent 32 Acte Honoraires 95,50 BR"]])).toBeNull();
    expect(kinds([[10, 100, "Dent 32 HBLD073 Acte Honoraires BR"]])).toBeNull();
    // A header above such rows is still found.
    expect(
      kinds([
        [10, 100, "Dent"],
        [60, 100, "Code"],
        [300, 100, "Honoraires"],
        [450, 100, "BR"],
        [10, 114, "15"],
        [60, 114, "HBLD491"],
        [300, 114, "410,00"],
        [450, 114, "100,00"],
      ]),
    ).toEqual(["tooth", "code", "fee", "br"]);
  });

  it("reads a two-line header that a slant and specks read as “|” split into more text lines", () => {
    // Left-hand one-line headers sit a little higher than the right-hand ones (the photo's slant), a
    // rule's speck is read as a line of its own.
    expect(
      kinds([
        [10, 100, "Localisation"],
        [300, 100, "Honoraires"],
        [450, 100, "Base de"],
        [640, 107, "|"],
        [80, 114, "Code"],
        [160, 114, "Nature"],
        [570, 114, "Montant"],
        [700, 121, "|"],
        [80, 128, "CCAM"],
        [160, 128, "de l'acte"],
        [450, 128, "remb."],
        [570, 128, "remboursé AMO"],
      ]),
    ).toEqual(["tooth", "code", "act", "fee", "br", "amo"]);
  });
});
