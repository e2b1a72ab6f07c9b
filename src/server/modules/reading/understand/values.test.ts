import { describe, expect, it } from "vitest";
import { isNoAmount, parseAmount, readBasket, readCode, readTooth } from "./values";

describe("parseAmount", () => {
  it.each([
    ["1 250,00 €", 1_250_00],
    ["1\u00a0250,00 €", 1_250_00],
    ["1\u202f250,00", 1_250_00],
    ["1250,00", 1_250_00],
    ["1.250,00", 1_250_00],
    ["72,00", 72_00],
    ["72.00", 72_00],
    ["107,50€", 107_50],
    ["120 €", 120_00],
    ["0,00", 0],
    ["12 345,67 €", 12_345_67],
    ["1O7,5O", 107_50],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  it.each(["", "€", "HBLD634", "Couronne", "12/11/2026", "1,2,3"])("refuses %j", (text) => {
    expect(parseAmount(text)).toBeNull();
  });

  it("takes NR and dashes as no amount", () => {
    for (const text of ["NR", "—", "–", "-"]) expect(isNoAmount(text)).toBe(true);
    expect(isNoAmount("120,00")).toBe(false);
  });
});

describe("readCode", () => {
  it("keeps a code of the right shape as read, known or not", () => {
    expect(readCode("HBLD634")).toEqual({ code: "HBLD634", repaired: false, known: true });
    expect(readCode("hbld634")).toEqual({ code: "HBLD634", repaired: false, known: true });
    expect(readCode("HBMD460")).toEqual({ code: "HBMD460", repaired: false, known: false });
  });

  it("repairs OCR lookalikes in a code of the table", () => {
    expect(readCode("HBLDO38")).toEqual({ code: "HBLD038", repaired: true, known: true });
    expect(readCode("H8LD634")).toEqual({ code: "HBLD634", repaired: true, known: true });
    expect(readCode("LBLDO15")).toEqual({ code: "LBLD015", repaired: true, known: true });
    expect(readCode("1BLD015")).toBeNull();
    // OCR doubled a zero: dropped only when that gives a code of the table.
    expect(readCode("HBLDO031")).toEqual({ code: "HBLD031", repaired: true, known: true });
    expect(readCode("HBLD0O73")).toEqual({ code: "HBLD073", repaired: true, known: true });
    expect(readCode("HBMD0O60")).toBeNull();
    expect(readCode("HBLD6344")).toBeNull();
    // Not in the table once repaired, letters repaired: refused.
    expect(readCode("H8MDO99")).toBeNull();
    expect(readCode("1BMP001")).toBeNull();
  });

  it("repairs the digits of a code outside the table when its letters and a digit read plainly", () => {
    // The implant abutment (LBMP001) is a free line: no table to check it against, the CCAM shape only.
    expect(readCode("LBMPO01")).toEqual({ code: "LBMP001", repaired: true, known: false });
    expect(readCode("HBMDO99")).toEqual({ code: "HBMD099", repaired: true, known: false });
    // One character from a code of the table (HBLD634, HBLD486): refused, its cell is read again.
    expect(readCode("HBLD63I")).toBeNull();
    expect(readCode("HBLD4S6")).toBeNull();
    // Not a digit read as one: no code (a word of seven letters is not a code).
    expect(readCode("HBMDOIS")).toBeNull();
    expect(readCode("Pilules")).toBeNull();
    // A small letter among the letters: garbled ("LaMPO01" for LBMP001), not repaired.
    expect(readCode("LaMPO01")).toBeNull();
  });

  it("drops punctuation OCR glued to a code", () => {
    expect(readCode("—HBLDO9O")).toEqual({ code: "HBLD090", repaired: true, known: true });
    expect(readCode("HBLD634,")).toEqual({ code: "HBLD634", repaired: false, known: true });
  });

  it("does not repair a missing character, nor an extra one but a doubled zero", () => {
    expect(readCode("HBLD63")).toBeNull();
    expect(readCode("HBLD6344")).toBeNull();
    expect(readCode("HBL634")).toBeNull();
  });
});

describe("readTooth", () => {
  it("reads FDI teeth, with lookalikes repaired", () => {
    expect(readTooth("21")).toEqual({ tooth: 21, repaired: false });
    expect(readTooth("48")).toEqual({ tooth: 48, repaired: false });
    expect(readTooth("I6")).toEqual({ tooth: 16, repaired: true });
  });

  it("refuses what is not an FDI tooth", () => {
    for (const text of ["19", "50", "10", "8", "123", "ab"]) expect(readTooth(text)).toBeNull();
  });
});

describe("readBasket", () => {
  it.each([
    ["1", "100_sante"],
    ["2", "maitrise"],
    ["3", "libre"],
    ["100 % Santé", "100_sante"],
    ["RAC 0", "100_sante"],
    ["RACO", "100_sante"],
    ["Ubre", "libre"],
    ["Maîtrisé", "maitrise"],
    ["LIBRE", "libre"],
    ["RAC modéré", "maitrise"],
    ["Mod.", "maitrise"],
    ["RAC libre", "libre"],
    ["4", null],
  ])("reads %j (digits and words) as %s", (text, basket) => {
    expect(readBasket(text)).toBe(basket);
  });
});
