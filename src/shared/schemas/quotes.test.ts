import { describe, expect, it } from "vitest";
import {
  type Cover,
  compareQuotes,
  coverSchema,
  estimateLines,
  type QuoteLineDto,
  quoteLineInputSchema,
  quoteLineIssues,
  resolveLine,
  resolveOfferLine,
  withDevisBases,
} from "./quotes";

/** Issue 15: lines resolved from the table, the ceilings refused on offers, the comparison by tooth. */

const DAY = "2026-11-25";
const line = (input: Partial<QuoteLineDto> & { fee_cents: number }) =>
  resolveLine(quoteLineInputSchema.parse({ act: "Acte", ...input }), DAY);
/** A cover at 200 % of the BR, the schema's defaults for the rest (AMO included, no ceiling, responsible). */
const cover = (overrides: Partial<Cover> = {}): Cover =>
  coverSchema.parse({ percent_of_br: 200, ...overrides });

describe("resolveLine", () => {
  it("takes basket, BR and the day's ceiling from the table, whatever the browser sent", () => {
    const input = quoteLineInputSchema.parse({
      code: "hbld634",
      act: "Couronne",
      tooth: 21,
      fee_cents: 50_000,
      br_cents: 99_999,
    });
    expect(resolveLine(input, DAY)).toEqual({
      code: "HBLD634",
      act: "Couronne",
      tooth: 21,
      fee_cents: 50_000,
      basket: "100_sante",
      br_cents: 12_000,
      ceiling_cents: 51_500,
    });
    expect(resolveLine(input, "2024-05-01").ceiling_cents).toBe(50_000);
  });

  it("keeps a line outside the table as a free line: 'libre', its BR or 0, no ceiling", () => {
    expect(line({ code: "ABCD123", fee_cents: 10_000 })).toMatchObject({
      code: "ABCD123",
      basket: "libre",
      br_cents: 0,
      ceiling_cents: null,
    });
    expect(line({ fee_cents: 10_000, br_cents: 2_000 })).toMatchObject({ code: null, br_cents: 2_000 });
  });

  it("refuses a malformed code in the schema", () => {
    const result = quoteLineInputSchema.safeParse({ code: "HB634", act: "x", fee_cents: 100 });
    expect(result.success).toBe(false);
  });
});

describe("quoteLineIssues", () => {
  const offer = { refuseAboveCeiling: true, prefix: ["lines"] };
  const own = { refuseAboveCeiling: false, prefix: ["quote_lines"] };

  it("refuses on an offer a fee above a 100 % Santé or maîtrisé ceiling, naming it", () => {
    const lines = [
      line({ code: "HBLD634", tooth: 21, fee_cents: 60_000 }),
      line({ code: "HBLD491", tooth: 15, fee_cents: 56_650 }),
      line({ code: "HBLD734", tooth: 36, fee_cents: 200_000 }),
    ];
    const issues = quoteLineIssues(lines, offer);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(["lines", 0, "fee_cents"]);
    expect(issues[0]?.message).toMatch(/100\s% Santé/);
    expect(issues[0]?.message).toMatch(/515,00\s€/);
  });

  it("worked examples of 2026: HBLD634 refused at 515,50 €, accepted at 515,00 €; HBLD724 refused above 61,80 €", () => {
    const at = (code: string, tooth: number | null, fee_cents: number) =>
      quoteLineIssues([line({ code, tooth, fee_cents })], offer);
    expect(at("HBLD634", 21, 51_550)[0]?.message).toMatch(/100\s% Santé \(515,00\s€\)/);
    expect(at("HBLD634", 21, 51_500)).toEqual([]);
    expect(at("HBLD724", 21, 7_000)[0]?.message).toMatch(/Tarifs maîtrisés \(61,80\s€\)/);
    expect(at("HBLD724", 21, 6_180)).toEqual([]);
    expect(at("HBLD038", 36, 29_900)[0]?.message).toMatch(/100\s% Santé \(298,70\s€\)/);
    // The same HBLD634 on a devis of 2025 is within its 500 € ceiling at 500 €, above it at 515 €.
    const in2025 = (fee_cents: number) =>
      resolveLine(
        quoteLineInputSchema.parse({ act: "Acte", code: "HBLD634", tooth: 21, fee_cents }),
        "2025-06-01",
      );
    expect(quoteLineIssues([in2025(50_000)], offer)).toEqual([]);
    expect(quoteLineIssues([in2025(51_500)], offer)[0]?.message).toMatch(/500,00\s€/);
  });

  it("only flags it on the patient's own quote (it is their dentist's)", () => {
    const lines = [line({ code: "HBLD634", tooth: 21, fee_cents: 60_000 })];
    expect(quoteLineIssues(lines, own)).toEqual([]);
    expect(estimateLines(lines, null).lines[0]?.above_ceiling).toBe(true);
  });

  it("refuses an act on a tooth it does not fit, a missing tooth, a tooth on an arch act", () => {
    const issues = quoteLineIssues(
      [
        line({ code: "HBLD634", tooth: 36, fee_cents: 40_000 }),
        line({ code: "HBLD038", fee_cents: 20_000 }),
        line({ code: "HBLD031", tooth: 11, fee_cents: 100_000 }),
        line({ code: "HBLD031", fee_cents: 100_000 }),
        line({ act: "Gouttière", fee_cents: 100_000 }),
      ],
      own,
    );
    expect(issues.map((i) => i.path)).toEqual([
      ["quote_lines", 0, "tooth"],
      ["quote_lines", 1, "tooth"],
      ["quote_lines", 2, "tooth"],
    ]);
    expect(issues[0]?.message).toBe("Cet acte ne s'applique pas à la dent 36.");
  });
});

describe("compareQuotes", () => {
  // The patient's devis: a ceramo-metal crown on 36 at 750 € and an inlay-core on 36 at 250 €.
  const original = [
    line({ code: "HBLD734", tooth: 36, fee_cents: 75_000 }),
    line({ code: "HBLD090", tooth: 36, fee_cents: 25_000 }),
  ];
  const sante = {
    id: "sante",
    amount_cents: 47_900,
    lines: [
      line({ code: "HBLD038", tooth: 36, fee_cents: 29_870 }),
      line({ code: "HBLD090", tooth: 36, fee_cents: 18_000 }),
    ],
  };
  const zircone = {
    id: "zircone",
    amount_cents: 63_000,
    lines: [
      line({ code: "HBLD073", tooth: 36, fee_cents: 45_000 }),
      line({ code: "HBLD090", tooth: 36, fee_cents: 18_000 }),
      line({ code: "HBLD734", tooth: 37, fee_cents: 60_000 }),
    ],
  };
  const freeText = { id: "ancienne", amount_cents: 90_000, lines: [] };

  it("estimates each offer for the cover, sorts by reste à charge and gives the saving", () => {
    const result = compareQuotes(original, [zircone, freeText, sante], cover());
    // Original at 200 % BR, RO inclus: crown (BR 120 €) 750 − 72 − 168 = 510; inlay-core 100 % Santé above
    // its 180,25 € ceiling: 250 − 180,25 = 69,75 → 579,75 €.
    expect(result.original?.total.rest_cents).toBe(57_975);
    expect(result.offers.map((o) => o.offer_id)).toEqual(["sante", "zircone", "ancienne"]);
    const [first] = result.offers;
    expect(first?.estimate.total.rest_cents).toBe(0);
    expect(first?.estimate.all_sante).toBe(true);
    expect(first?.saving_cents).toBe(57_975);
    // Since 2026 the zirconia molar crown (HBLD073) is 100 % Santé: 0 € on 36, only the crown on 37 is left.
    expect(result.offers[1]?.estimate.lines.map((l) => l.rest_cents)).toEqual([0, 0, 36_000]);
    expect(result.offers[2]).toMatchObject({ structured: false, saving_cents: null });
  });

  it("ranks an offer without lines after the estimated ones, even when its price is below their reste à charge", () => {
    // zircone leaves 360 € (the crown on 37); an offer of 300 € without lines is a price, not an
    // estimate: it would pay 300 € minus whatever the cover gives, unknown.
    const cheap = { id: "globale", amount_cents: 30_000, lines: [] };
    const result = compareQuotes(original, [cheap, zircone, sante], cover());
    expect(result.offers.map((o) => [o.offer_id, o.estimate.total.rest_cents])).toEqual([
      ["sante", 0],
      ["zircone", 36_000],
      ["globale", 30_000],
    ]);
    // After the partial ones too: zircone without the inlay-core on 36 leaves an act untreated.
    const partial = { ...zircone, id: "partielle", lines: [zircone.lines[0] as QuoteLineDto] };
    const withPartial = compareQuotes(original, [cheap, partial], cover());
    expect(withPartial.offers.map((o) => [o.offer_id, o.partial])).toEqual([
      ["partielle", true],
      ["globale", false],
    ]);
  });

  it("flags no tooth « non traitée » by an offer without lines: it says nothing of the teeth", () => {
    const result = compareQuotes(original, [freeText], cover());
    expect(result.rows.map((r) => [r.tooth, r.offers[0]?.flag])).toEqual([
      [36, "same"],
      [null, "same"],
    ]);
  });

  it("aligns the lines by tooth and flags a different material and a tooth treated in one quote only", () => {
    const result = compareQuotes(original, [sante, zircone], cover());
    expect(result.rows.map((r) => r.tooth)).toEqual([36, 37]);
    const [t36, t37] = result.rows;
    expect(t36?.original).toEqual(["HBLD734 · Acte", "HBLD090 · Acte"]);
    expect(t36?.offers.map((o) => o.flag)).toEqual(["different_material", "different_material"]);
    expect(t37?.offers.map((o) => o.flag)).toEqual(["same", "extra"]);
    const missing = compareQuotes(original, [{ ...sante, lines: [sante.lines[0] as QuoteLineDto] }], cover());
    expect(missing.rows[0]?.offers[0]?.flag).toBe("different_act");
    const none = compareQuotes(
      original,
      [{ id: "autre", amount_cents: 1, lines: [line({ code: "HBLD038", tooth: 46, fee_cents: 29_870 })] }],
      cover(),
    );
    expect(none.rows.find((r) => r.tooth === 36)?.offers[0]?.flag).toBe("missing");
  });

  it("worked example: an offer treating fewer teeth saves only on the teeth it treats, and is ranked after", () => {
    // No mutuelle. The devis: HBLD734 on 36 and 46 at 800 € each; BR 120 €, AMO 72 €, reste à charge
    // 728 € each, 1 456 € in all.
    const devis = [
      line({ code: "HBLD734", tooth: 36, fee_cents: 80_000 }),
      line({ code: "HBLD734", tooth: 46, fee_cents: 80_000 }),
    ];
    // A: 36 only at 700 € (reste à charge 628 €); B: both teeth at 700 € (1 256 €).
    const onlyA = {
      id: "A",
      amount_cents: 70_000,
      lines: [line({ code: "HBLD734", tooth: 36, fee_cents: 70_000 })],
    };
    const bothB = {
      id: "B",
      amount_cents: 140_000,
      lines: [
        line({ code: "HBLD734", tooth: 36, fee_cents: 70_000 }),
        line({ code: "HBLD734", tooth: 46, fee_cents: 70_000 }),
      ],
    };
    const result = compareQuotes(devis, [onlyA, bothB], null);
    expect(result.original?.total.rest_cents).toBe(145_600);
    // B treats the whole devis: first, although A's total is lower; 1 456 − 1 256 = 200 €.
    expect(result.offers.map((o) => o.offer_id)).toEqual(["B", "A"]);
    expect(result.offers[0]).toMatchObject({
      saving_cents: 20_000,
      original_rest_cents: 145_600,
      partial: false,
      untreated_teeth: [],
    });
    // A over tooth 36 only: 728 − 628 = 100 € (not 1 456 − 628 = 828 €), said partial: 46 untreated.
    expect(result.offers[1]?.estimate.total.rest_cents).toBe(62_800);
    expect(result.offers[1]).toMatchObject({
      saving_cents: 10_000,
      original_rest_cents: 72_800,
      partial: true,
      untreated_teeth: [46],
      untreated_acts: [],
    });
  });

  it("counts a devis line without a tooth (an arch act) as treated only by an offer with its code", () => {
    const arch = line({ code: "HBLD031", fee_cents: 100_000 });
    const devis = [arch, line({ code: "HBLD734", tooth: 36, fee_cents: 80_000 })];
    const crownOnly = {
      id: "C",
      amount_cents: 70_000,
      lines: [line({ code: "HBLD734", tooth: 36, fee_cents: 70_000 })],
    };
    const both = {
      ...crownOnly,
      id: "D",
      lines: [...crownOnly.lines, line({ code: "HBLD031", fee_cents: 90_000 })],
    };
    const result = compareQuotes(devis, [crownOnly, both], null);
    expect(result.offers.map((o) => [o.offer_id, o.partial])).toEqual([
      ["D", false],
      ["C", true],
    ]);
    expect(result.offers[1]).toMatchObject({ untreated_teeth: [], untreated_acts: ["HBLD031 · Acte"] });
    // C against the devis's crown on 36 only: 728 − 628 = 100 €.
    expect(result.offers[1]?.saving_cents).toBe(10_000);
  });

  it("counts a tooth as treated act by act: an inlay-core alone does not treat the devis's crown on that tooth", () => {
    // The devis: a ceramo-metal crown (800 €) and an inlay-core (250 €) on 36. The offer: the inlay-core
    // alone (200 €). Not the whole devis: partial, the crown left, its saving on the inlay-core only.
    const devis = [
      line({ code: "HBLD734", tooth: 36, fee_cents: 80_000 }),
      line({ code: "HBLD090", tooth: 36, fee_cents: 25_000 }),
    ];
    const inlayOnly = {
      id: "E",
      amount_cents: 20_000,
      lines: [line({ code: "HBLD090", tooth: 36, fee_cents: 20_000 })],
    };
    const result = compareQuotes(devis, [inlayOnly], null);
    expect(result.offers[0]).toMatchObject({ partial: true, untreated_teeth: [] });
    expect(result.offers[0]?.untreated_acts).toEqual(["HBLD734 · Acte (dent 36)"]);
    const inlayDevis = compareQuotes([devis[1] as QuoteLineDto], [], null).original?.total
      .rest_cents as number;
    expect(result.offers[0]?.original_rest_cents).toBe(inlayDevis);
    expect(result.offers[0]?.saving_cents).toBe(
      inlayDevis - (result.offers[0]?.estimate.total.rest_cents as number),
    );
  });

  it("gives an offer's act outside the table the BR the patient's devis states for it (ADR 038, 07/12)", () => {
    // Her devis: an act the table does not know (HBLD036) on 36, 650 €, with the BR printed on it, 120 €.
    // Reimbursed 60 % of 120 = 72 € by the Assurance Maladie and 200 % − 60 % of 120 = 168 € by her
    // mutuelle: 650 − 72 − 168 = 410 € left.
    const devis = [line({ code: "HBLD036", tooth: 36, fee_cents: 65_000, br_cents: 12_000 })];
    // The offer: the same act on 36 at 550 €. Its BR is never the dentist's: 0 as stored (ADR 038)…
    const offered = resolveOfferLine(
      quoteLineInputSchema.parse({
        code: "HBLD036",
        act: "Acte",
        tooth: 36,
        fee_cents: 55_000,
        br_cents: 99_000,
      }),
      DAY,
    );
    expect(offered).toMatchObject({ basket: "libre", br_cents: 0 });
    // …and the devis's 120 € in the comparison: 550 − 72 − 168 = 310 €, 100 € saved (was 550 €, 140 € more
    // than the devis for the same act at a lower fee).
    const result = compareQuotes(devis, [{ id: "F", amount_cents: 55_000, lines: [offered] }], cover());
    expect(result.original?.total.rest_cents).toBe(41_000);
    expect(result.offers[0]?.estimate.lines[0]).toMatchObject({ br_cents: 12_000, amo_cents: 7_200 });
    expect(result.offers[0]?.estimate.total.rest_cents).toBe(31_000);
    expect(result.offers[0]?.saving_cents).toBe(10_000);
    // Without a mutuelle: the Assurance Maladie's 72 € only, 478 € left.
    expect(
      compareQuotes(devis, [{ id: "F", amount_cents: 55_000, lines: [offered] }], null).offers[0]?.estimate
        .total.rest_cents,
    ).toBe(47_800);
  });

  it("takes a devis's base for an act outside the table only from the devis's lines of that code", () => {
    const free = (input: Partial<QuoteLineDto> & { fee_cents: number }) =>
      resolveOfferLine(quoteLineInputSchema.parse({ act: "Acte", ...input }), DAY);
    const devis = [
      line({ code: "HBLD036", tooth: 36, fee_cents: 65_000, br_cents: 12_000 }),
      line({ code: "HBLD036", tooth: 46, fee_cents: 65_000, br_cents: 10_000 }),
      line({ code: "HBMD001", tooth: 11, fee_cents: 9_000, br_cents: 3_000 }),
      line({ tooth: 21, fee_cents: 5_000, br_cents: 2_000 }),
    ];
    const bases = (lines: QuoteLineDto[]) => withDevisBases(lines, devis).map((l) => l.br_cents);
    expect(
      bases([
        // The same tooth: its line's base.
        free({ code: "HBLD036", tooth: 46, fee_cents: 50_000 }),
        // Another tooth, where the devis's lines of that code disagree: none.
        free({ code: "HBLD036", tooth: 37, fee_cents: 50_000 }),
        // Another tooth, one base for that code in the devis: that one.
        free({ code: "hbmd001", tooth: 12, fee_cents: 8_000 }),
        // No code, or a code the devis does not name: 0, whatever the devis's free lines say.
        free({ tooth: 21, fee_cents: 5_000 }),
        free({ code: "HBMD002", tooth: 11, fee_cents: 8_000 }),
      ]),
    ).toEqual([10_000, 0, 3_000, 0, 0]);
    // As the screens keep a code outside the table: in the free line's text (« HBMD038 · … »).
    const screens = [
      line({ act: "HBMD038 · Restauration 2 faces", tooth: 36, fee_cents: 9_000, br_cents: 4_000 }),
    ];
    expect(
      withDevisBases(
        [
          free({ act: "HBMD038 · Restauration 2 faces", tooth: 36, fee_cents: 8_000 }),
          free({ act: "hbmd038 Restauration composite", tooth: 36, fee_cents: 8_500 }),
          free({ act: "HBMD0381 Restauration", tooth: 36, fee_cents: 8_000 }),
          free({ act: "Restauration 2 faces", tooth: 36, fee_cents: 8_000 }),
        ],
        screens,
      ).map((l) => l.br_cents),
    ).toEqual([4_000, 4_000, 0, 0]);
    // A code the table knows keeps the table's BR.
    const crown = free({ code: "HBLD634", tooth: 21, fee_cents: 50_000 });
    expect(withDevisBases([crown], [{ ...crown, basket: "libre", br_cents: 99_000 }])[0]?.br_cents).toBe(
      12_000,
    );
  });

  it("without a structured original quote, gives no saving and no flag", () => {
    const result = compareQuotes([], [sante], null);
    expect(result.original).toBeNull();
    expect(result.offers[0]).toMatchObject({ saving_cents: null, partial: false, untreated_teeth: [] });
    expect(result.rows.every((row) => row.offers.every((o) => o.flag === "same"))).toBe(true);
    // Without a mutuelle: the Assurance Maladie only (60 % of 120 € + 60 % of 90 €).
    expect(result.offers[0]?.estimate.total.amo_cents).toBe(7_200 + 5_400);
  });
});
