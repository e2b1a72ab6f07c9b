import { describe, expect, it } from "vitest";
import {
  ACTS,
  actByCode,
  actFitsTooth,
  ceilingOn,
  SOURCES,
  santeAlternative,
  searchActs,
  TARIFF_PERIODS,
  type TariffPeriod,
  TOOTH_GROUPS,
  tariffOn,
  tariffTableProblems,
  termsOn,
} from "./acts";
import { isFdiTooth } from "./offers";
import { estimateQuote, type MutuelleCover } from "./out-of-pocket";

/** Issues 15 and 33: the reference table of acts, its dated tariff periods and its search. */

const ADULT_TEETH = [1, 2, 3, 4].flatMap((q) => [1, 2, 3, 4, 5, 6, 7, 8].map((t) => q * 10 + t));

describe("the reference table", () => {
  it("gives every act a CCAM code, a French label and valid teeth", () => {
    const codes = new Set<string>();
    for (const act of ACTS) {
      expect(act.code, act.code).toMatch(/^[A-Z]{4}\d{3}$/);
      expect(codes.has(act.code), `${act.code} deux fois`).toBe(false);
      codes.add(act.code);
      expect(act.label.length, act.code).toBeGreaterThan(3);
      if (act.teeth !== "arch") {
        const teeth = ADULT_TEETH.filter((tooth) => actFitsTooth(act, tooth));
        expect(teeth.length, act.code).toBeGreaterThan(0);
        expect(teeth.every(isFdiTooth)).toBe(true);
        expect(TOOTH_GROUPS[act.teeth].every((n) => n >= 1 && n <= 8)).toBe(true);
      }
    }
  });

  it("covers the common prosthetic acts, with the ones added in 2026 (HBLD318, HBLD490, HBLD486)", () => {
    for (const code of ["HBLD038", "HBLD318", "HBLD634", "HBLD491", "HBLD734", "HBLD680", "HBLD158"])
      expect(actByCode(code), code).toBeDefined();
    for (const code of ["HBLD350", "HBLD073", "HBLD403", "HBLD490", "HBLD724", "HBLD486", "HBLD090"])
      expect(actByCode(code), code).toBeDefined();
    for (const code of ["HBLD745", "HBLD245", "HBLD033", "HBLD785", "HBLD227", "HBLD031", "HBLD035"])
      expect(actByCode(code), code).toBeDefined();
    expect(actByCode("hbld634 ")?.code).toBe("HBLD634");
    expect(termsOn("LBLD015", "2026-11-28")?.brCents).toBe(0);
    expect(actByCode("HBLD038")?.label).toContain("alliage non précieux");
  });

  it("has no problem: ordered periods, a source for every row, a ceiling for every capped act", () => {
    expect(tariffTableProblems()).toEqual([]);
    for (const period of TARIFF_PERIODS)
      for (const id of period.sources) expect(SOURCES[id].title.length, id).toBeGreaterThan(10);
  });

  it("gives no act a BR under 1 € but 0, on any day and tooth (the reading reads such a figure as 0)", () => {
    // The reading (parse.ts, checkRow) takes a free line's BR or AMO read under 1 € on a photo for a
    // garbled 0,00 €: that holds only while no act of the table has a BR between 0 and 1 €.
    const days = TARIFF_PERIODS.map((period) => period.from);
    let seen = 0;
    for (const act of ACTS)
      for (const day of days)
        for (const tooth of act.teeth === "arch" ? [null] : [null, ...ADULT_TEETH]) {
          const br = termsOn(act.code, day, tooth)?.brCents;
          if (br === undefined) continue;
          seen += 1;
          expect(br === 0 || br >= 1_00, `${act.code} le ${day} (dent ${tooth}) : ${br}`).toBe(true);
        }
    expect(seen).toBeGreaterThan(ACTS.length * days.length);
  });

  it("finds a row without a source, a capped act without a ceiling and overlapping periods", () => {
    const [first, second] = TARIFF_PERIODS as [TariffPeriod, TariffPeriod];
    const noSource: TariffPeriod = { ...second, changes: { HBLD634: { ceilingCents: 530_00, sources: [] } } };
    expect(tariffTableProblems([first, noSource])).toContain("2026-01-01 HBLD634\u202f: ligne sans source");
    const noCeiling: TariffPeriod = {
      ...second,
      changes: { HBLD734: { basket: "maitrise", sources: ["C23"] } },
    };
    expect(tariffTableProblems([first, noCeiling])).toContain(
      "2026-01-01 HBLD734\u202f: acte plafonné sans plafond",
    );
    const overlapping = [first, second, { ...second, changes: {} }];
    expect(tariffTableProblems(overlapping).join("\n")).toContain("se chevauchent");
    expect(tariffTableProblems([second, first]).join("\n")).toContain("se chevauchent ou dans le désordre");
    const groups: TariffPeriod = {
      ...second,
      changes: {
        HBLD038: {
          sources: ["C23"],
          byTeeth: [
            { teeth: "molar", basket: "maitrise", sources: ["C23"] },
            { teeth: "secondPremolarAndMolar", basket: "libre", sources: ["C23"] },
          ],
        },
      },
    };
    expect(tariffTableProblems([first, groups])).toContain(
      "2026-01-01 HBLD038\u202f: groupes de dents qui se chevauchent",
    );
  });

  it("takes the 2021–2025 ceilings throughout 2025, and the +3 % ones, to the cent, from 1 January 2026", () => {
    expect(ceilingOn("HBLD634", "2025-12-31")).toBe(500_00);
    expect(ceilingOn("HBLD038", "2025-06-01")).toBe(290_00);
    expect(ceilingOn("HBLD035", "2025-06-01")).toBe(2_300_00);
    expect(ceilingOn("HBLD227", "2023-03-01")).toBe(1_635_00);
    const in2026: Record<string, number> = {
      HBLD038: 298_70,
      HBLD634: 515_00,
      HBLD680: 515_00,
      HBLD491: 566_50,
      HBLD158: 566_50,
      HBLD350: 453_20,
      HBLD073: 453_20,
      HBLD090: 180_25,
      HBLD033: 896_10,
      HBLD785: 1_508_95,
      HBLD227: 1_684_05,
      HBLD031: 1_133_00,
      HBLD035: 2_369_00,
      HBLD724: 61_80,
    };
    for (const [code, ceiling] of Object.entries(in2026)) {
      const tooth = actByCode(code)?.teeth === "arch" ? null : code === "HBLD073" ? 36 : null;
      expect(ceilingOn(code, "2026-01-01", tooth), code).toBe(ceiling);
    }
    expect(ceilingOn("HBLD734", "2026-11-25")).toBeNull();
    expect(tariffOn("2026-11-28").from).toBe("2026-01-01");
    expect(tariffOn("2025-12-31").from).toBe("2021-01-01");
  });

  it("dates the baskets too: the zirconia molar crown is maîtrisé in 2025, 100 % Santé from 2026", () => {
    expect(termsOn("HBLD073", "2025-12-31", 36)?.basket).toBe("maitrise");
    expect(termsOn("HBLD073", "2026-01-01", 36)?.basket).toBe("100_sante");
    expect(termsOn("HBLD724", "2026-06-01")?.basket).toBe("maitrise");
    expect(termsOn("HBLD490", "2026-06-01")?.basket).toBe("100_sante");
    expect(termsOn("HBLD486", "2026-06-01")?.basket).toBe("libre");
    expect(termsOn("HBLD745", "2026-06-01")?.basket).toBe("maitrise");
    expect(termsOn("HBLD734", "2026-06-01")?.brCents).toBe(120_00);
    expect(termsOn("HBLD403", "2026-06-01")?.brCents).toBe(120_00);
    expect(termsOn("HBLD073", "2026-06-01", 36)?.sources).toContain("SCDP");
    expect(termsOn("NOPE123", "2026-06-01")).toBeUndefined();
  });

  it("takes a new year's tariff from one more data entry, and a basket by tooth group", () => {
    const next: TariffPeriod = {
      from: "2027-01-01",
      label: "Exemple : revalorisation au 1er janvier 2027",
      sources: ["C23"],
      changes: {
        HBLD634: { ceilingCents: 530_00, sources: ["C23"] },
        HBLD038: { sources: ["C23"], byTeeth: [{ teeth: "molar", basket: "maitrise", sources: ["C23"] }] },
      },
    };
    const periods = [...TARIFF_PERIODS, next];
    expect(tariffTableProblems(periods)).toEqual([]);
    expect(ceilingOn("HBLD634", "2026-12-31", null, periods)).toBe(515_00);
    expect(ceilingOn("HBLD634", "2027-01-01", null, periods)).toBe(530_00);
    expect(ceilingOn("HBLD038", "2027-06-01", 21, periods)).toBe(298_70);
    expect(termsOn("HBLD038", "2027-06-01", 21, periods)?.basket).toBe("100_sante");
    expect(termsOn("HBLD038", "2027-06-01", 36, periods)?.basket).toBe("maitrise");
    expect(termsOn("HBLD038", "2027-06-01", 36, periods)?.ceilingCents).toBe(298_70);
  });
});

describe("worked examples (issue 33)", () => {
  const responsible200: MutuelleCover = {
    percentOfBr: 200,
    roIncluded: true,
    annualCeilingCents: null,
    implantAllowanceCents: null,
    responsible: true,
  };
  const estimate = (code: string, tooth: number | null, feeCents: number, day: string) => {
    const terms = termsOn(code, day, tooth);
    if (!terms) throw new Error(code);
    return estimateQuote(
      [{ feeCents, brCents: terms.brCents, basket: terms.basket, ceilingCents: terms.ceilingCents }],
      responsible200,
    ).total;
  };

  it("a zirconia molar crown at 450 € on a devis of 2026-03-01: 0 € left with a contrat responsable", () => {
    const total = estimate("HBLD073", 36, 450_00, "2026-03-01");
    expect(total).toMatchObject({ amoCents: 72_00, mutuelleCents: 378_00, restCents: 0 });
  });

  it("the same on a devis of 2025-06-01: maîtrisé, ceiling 440 €, 210 € left (mutuelle 200 % RO inclus)", () => {
    expect(ceilingOn("HBLD073", "2025-06-01", 36)).toBe(440_00);
    const total = estimate("HBLD073", 36, 450_00, "2025-06-01");
    // BR 120 €: AMO 72 €, the mutuelle tops up to 200 % of the BR (240 €): 168 €; 450 − 240 = 210 €.
    expect(total).toMatchObject({ amoCents: 72_00, mutuelleCents: 168_00, restCents: 210_00 });
  });

  it("a ceramo-metal molar crown (HBLD734) at 700 €: BR 120 €, 460 € left with 200 % RO inclus", () => {
    const total = estimate("HBLD734", 36, 700_00, "2026-06-01");
    expect(total).toMatchObject({ amoCents: 72_00, mutuelleCents: 168_00, restCents: 460_00 });
  });
});

describe("searchActs", () => {
  const codes = (query: string, tooth: number | null = null) => searchActs(query, tooth).map((a) => a.code);

  it("finds acts by plain words, accents and case aside", () => {
    const found = codes("couronne céramique molaire");
    expect(found).toEqual(expect.arrayContaining(["HBLD734", "HBLD073", "HBLD158"]));
    expect(found).not.toContain("HBLD634");
    expect(codes("INLAY")).toEqual(expect.arrayContaining(["HBLD090", "HBLD745", "HBLD245"]));
    expect(codes("dentier")).toEqual(["HBLD031", "HBLD035"]);
    expect(codes("transitoire")).toEqual(["HBLD490", "HBLD724", "HBLD486"]);
  });

  it("finds acts by the abbreviations and names dentists write on their devis", () => {
    expect(codes("CCM molaire")).toEqual(["HBLD734", "HBLD227"]);
    expect(codes("ccm", 21)).toEqual(["HBLD634", "HBLD785"]);
    expect(codes("bridge ccm")).toEqual(["HBLD785", "HBLD227"]);
    expect(codes("CCC")).toEqual(["HBLD403"]);
    expect(codes("couronne zirconium", 36)).toEqual(["HBLD073"]);
    expect(codes("IC")).toEqual(["HBLD090", "HBLD745", "HBLD245"]);
  });

  it("finds an act by its code, and keeps only the acts that fit the chosen tooth", () => {
    expect(codes("hbld634")).toEqual(["HBLD634"]);
    const onMolar = codes("couronne", 36);
    expect(onMolar).toContain("HBLD734");
    expect(onMolar).toContain("HBLD158");
    expect(onMolar).not.toContain("HBLD634");
    expect(codes("couronne", 21)).toContain("HBLD634");
    expect(codes("zzzz")).toEqual([]);
  });
});

describe("santeAlternative", () => {
  it("proposes the 100 % Santé act of the same kind for the tooth on the day", () => {
    expect(santeAlternative("HBLD734", 36, "2025-06-01")?.code).toBe("HBLD038");
    expect(santeAlternative("HBLD734", 36, "2026-06-01")?.code).toBe("HBLD073");
    expect(santeAlternative("HBLD403", 21, "2026-06-01")?.code).toBe("HBLD634");
    expect(santeAlternative("HBLD491", 15, "2026-06-01")?.code).toBe("HBLD350");
    expect(santeAlternative("HBLD227", 46, "2026-06-01")?.code).toBe("HBLD033");
    expect(santeAlternative("HBLD724", 46, "2026-06-01")?.code).toBe("HBLD490");
  });

  it("proposes nothing for a 100 % Santé act, a free line or an act without alternative", () => {
    expect(santeAlternative("HBLD634", 21, "2026-06-01")).toBeUndefined();
    expect(santeAlternative("HBLD073", 36, "2026-06-01")).toBeUndefined();
    expect(santeAlternative(null, 21, "2026-06-01")).toBeUndefined();
    expect(santeAlternative("LBLD015", 36, "2026-06-01")).toBeUndefined();
  });
});
