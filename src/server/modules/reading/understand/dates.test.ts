import { describe, expect, it } from "vitest";
import { findQuoteDate } from "./dates";

/** Issue 33: the date printed on the devis chooses the tariffs its lines are checked with. */
describe("findQuoteDate", () => {
  it.each([
    [["Date du devis : 15/12/2025"], "2025-12-15"],
    [["Devis du 03.02.2026"], "2026-02-03"],
    [["Fait à Lyon, le 1er mars 2026"], "2026-03-01"],
    [["Le 7 décembre 2025"], "2025-12-07"],
    [["Édité le 15-12-2025 - page 1"], "2025-12-15"],
  ])("reads %j as %s", (lines, day) => {
    expect(findQuoteDate(lines)).toBe(day);
  });

  it("never takes a birth date or an appointment for the devis's date, and prefers the line that names it", () => {
    expect(findQuoteDate(["Patient : Marie Dupont, née le 04/05/1961", "Date du devis : 15/12/2025"])).toBe(
      "2025-12-15",
    );
    expect(findQuoteDate(["Date de naissance : 12/03/1980"])).toBeNull();
    expect(findQuoteDate(["Rendez-vous le 20/01/2026", "Le 15/12/2025"])).toBe("2025-12-15");
    expect(findQuoteDate(["Total 1 250,00 €", "Devis valable 6 mois à compter du 15/12/2025"])).toBe(
      "2025-12-15",
    );
  });

  it("refuses impossible or implausible dates", () => {
    expect(findQuoteDate(["Date du devis : 31/02/2026"])).toBeNull();
    expect(findQuoteDate(["Date du devis : 15/13/2025"])).toBeNull();
    expect(findQuoteDate(["Date : 01/01/1999"])).toBeNull();
    expect(findQuoteDate(["HBLD634 21 500,00"])).toBeNull();
  });
});
