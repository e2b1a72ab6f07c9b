import { describe, expect, it } from "vitest";
import {
  ACTS,
  actByCode,
  actFitsTooth,
  ceilingOn,
  santeAlternative,
  searchActs,
  TARIFF_PERIODS,
  TOOTH_GROUPS,
  tariffOn,
} from "./acts";
import { isFdiTooth } from "./offers";
import { BASKETS } from "./out-of-pocket";

/** Issue 15: the reference table of acts, its tariff periods and its search. */

const ADULT_TEETH = [1, 2, 3, 4].flatMap((q) => [1, 2, 3, 4, 5, 6, 7, 8].map((t) => q * 10 + t));

describe("the reference table", () => {
  it("gives every act a CCAM code, a French label, a basket, a BR ≥ 0 and valid teeth", () => {
    const codes = new Set<string>();
    for (const act of ACTS) {
      expect(act.code, act.code).toMatch(/^[A-Z]{4}\d{3}$/);
      expect(codes.has(act.code), `${act.code} deux fois`).toBe(false);
      codes.add(act.code);
      expect(act.label.length, act.code).toBeGreaterThan(3);
      expect(BASKETS, act.code).toContain(act.basket);
      expect(Number.isInteger(act.brCents) && act.brCents >= 0, act.code).toBe(true);
      if (act.teeth !== "arch") {
        const teeth = ADULT_TEETH.filter((tooth) => actFitsTooth(act, tooth));
        expect(teeth.length, act.code).toBeGreaterThan(0);
        expect(teeth.every(isFdiTooth)).toBe(true);
        expect(TOOTH_GROUPS[act.teeth].every((n) => n >= 1 && n <= 8)).toBe(true);
      }
    }
  });

  it("covers the common prosthetic acts of the issue", () => {
    for (const code of [
      "HBLD038",
      "HBLD634",
      "HBLD491",
      "HBLD734",
      "HBLD680",
      "HBLD158",
      "HBLD350",
      "HBLD073",
      "HBLD403",
      "HBLD090",
      "HBLD745",
      "HBLD245",
      "HBLD033",
      "HBLD785",
      "HBLD227",
      "HBLD031",
      "HBLD035",
      "HBLD418",
      "LBLD015",
    ])
      expect(actByCode(code), code).toBeDefined();
    expect(ACTS.some((act) => act.category === "temporary")).toBe(true);
    expect(actByCode("hbld634 ")?.code).toBe("HBLD634");
    expect(actByCode("LBLD015")?.brCents).toBe(0);
  });

  it("gives, in every tariff period, a ceiling to each act of a capped basket and none to the free ones", () => {
    for (const period of TARIFF_PERIODS) {
      expect(period.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(period.source.length).toBeGreaterThan(10);
      for (const act of ACTS) {
        const ceiling = period.ceilings[act.code];
        if (act.basket === "libre") expect(ceiling, `${period.validFrom} ${act.code}`).toBeUndefined();
        else {
          expect(ceiling, `${period.validFrom} ${act.code}`).toBeDefined();
          expect(ceiling as number, act.code).toBeGreaterThanOrEqual(act.brCents);
        }
      }
      for (const code of Object.keys(period.ceilings)) expect(actByCode(code), code).toBeDefined();
    }
    const days = TARIFF_PERIODS.map((p) => p.validFrom);
    expect([...days].sort()).toEqual(days);
  });

  it("takes the ceilings in force on the day: the 2020 ones, then those of 1 January 2025", () => {
    expect(ceilingOn("HBLD634", "2024-12-31")).toBe(500_00);
    expect(ceilingOn("HBLD038", "2024-06-01")).toBe(290_00);
    expect(ceilingOn("HBLD090", "2020-01-01")).toBe(175_00);
    expect(ceilingOn("HBLD785", "2023-03-01")).toBe(1_465_00);
    expect(ceilingOn("HBLD227", "2023-03-01")).toBe(1_635_00);
    expect(ceilingOn("HBLD031", "2023-03-01")).toBe(1_100_00);
    expect(ceilingOn("HBLD634", "2025-01-01")).toBe(515_00);
    expect(ceilingOn("HBLD734", "2026-11-25")).toBeNull();
  });

  it("takes a new year's tariff from one more data entry", () => {
    const next = {
      validFrom: "2027-01-01",
      source: "Exemple : revalorisation au 1er janvier 2027",
      ceilings: { ...tariffOn("2026-12-31").ceilings, HBLD634: 530_00 },
    };
    const periods = [...TARIFF_PERIODS, next];
    expect(ceilingOn("HBLD634", "2026-12-31", periods)).toBe(515_00);
    expect(ceilingOn("HBLD634", "2027-01-01", periods)).toBe(530_00);
    expect(ceilingOn("HBLD038", "2027-06-01", periods)).toBe(299_00);
  });
});

describe("searchActs", () => {
  const codes = (query: string, tooth: number | null = null) => searchActs(query, tooth).map((a) => a.code);

  it("finds acts by plain words, accents and case aside", () => {
    const found = codes("couronne céramique molaire");
    expect(found).toEqual(expect.arrayContaining(["HBLD734", "HBLD073"]));
    expect(found).not.toContain("HBLD634");
    expect(codes("INLAY")).toEqual(expect.arrayContaining(["HBLD090", "HBLD745", "HBLD245"]));
    expect(codes("dentier")).toEqual(["HBLD031", "HBLD035"]);
  });

  it("finds an act by its code, and keeps only the acts that fit the chosen tooth", () => {
    expect(codes("hbld634")).toEqual(["HBLD634"]);
    const onMolar = codes("couronne", 36);
    expect(onMolar).toContain("HBLD734");
    expect(onMolar).not.toContain("HBLD634");
    expect(codes("couronne", 21)).toContain("HBLD634");
    expect(codes("zzzz")).toEqual([]);
  });
});

describe("santeAlternative", () => {
  it("proposes the 100 % Santé act of the same kind for the tooth", () => {
    expect(santeAlternative("HBLD734", 36)?.code).toBe("HBLD038");
    expect(santeAlternative("HBLD403", 21)?.code).toBe("HBLD634");
    expect(santeAlternative("HBLD491", 15)?.code).toBe("HBLD350");
    expect(santeAlternative("HBLD227", 46)?.code).toBe("HBLD033");
  });

  it("proposes nothing for a 100 % Santé act, a free line or an act without alternative", () => {
    expect(santeAlternative("HBLD634", 21)).toBeUndefined();
    expect(santeAlternative(null, 21)).toBeUndefined();
    expect(santeAlternative("LBLD015", 36)).toBeUndefined();
  });
});
