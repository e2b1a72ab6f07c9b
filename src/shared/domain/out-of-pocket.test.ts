import { describe, expect, it } from "vitest";
import { estimateQuote, type MutuelleCover, type QuoteLineAmounts } from "./out-of-pocket";

/** Issue 15: the reste à charge, on the issue's worked examples and the ceilings' edge cases. */

const euros = (n: number) => Math.round(n * 100);
/** A ceramo-metal crown on a molar (tarifs libres), BR 120 €. */
const molarCrown = (fee: number): QuoteLineAmounts => ({
  feeCents: euros(fee),
  brCents: euros(120),
  basket: "libre",
  ceilingCents: null,
});
/** A 100 % Santé ceramo-metal crown on an incisor, ceiling 500 €. */
const santeCrown = (fee: number): QuoteLineAmounts => ({
  feeCents: euros(fee),
  brCents: euros(120),
  basket: "100_sante",
  ceilingCents: euros(500),
});
const implant = (fee: number): QuoteLineAmounts => ({
  feeCents: euros(fee),
  brCents: 0,
  basket: "libre",
  ceilingCents: null,
  implant: true,
});
const cover = (overrides: Partial<MutuelleCover> = {}): MutuelleCover => ({
  percentOfBr: 300,
  roIncluded: true,
  annualCeilingCents: null,
  implantAllowanceCents: null,
  responsible: true,
  ...overrides,
});

describe("estimateQuote", () => {
  it("a 750 € molar crown at 300 % of the BR, AMO included: the mutuelle pays 288 €, the patient 390 €", () => {
    const { lines } = estimateQuote([molarCrown(750)], cover());
    expect(lines[0]).toMatchObject({ amoCents: 7_200, mutuelleCents: 28_800, restCents: 39_000 });
  });

  it("the same crown at 300 % on top of the AMO: the mutuelle pays 360 €, the patient 318 €", () => {
    const { lines } = estimateQuote([molarCrown(750)], cover({ roIncluded: false }));
    expect(lines[0]).toMatchObject({ amoCents: 7_200, mutuelleCents: 36_000, restCents: 31_800 });
  });

  it("a 100 % Santé crown at its ceiling with a contrat responsable costs nothing, whatever the percentage", () => {
    for (const percentOfBr of [100, 300]) {
      const { lines } = estimateQuote([santeCrown(500)], cover({ percentOfBr }));
      expect(lines[0]).toMatchObject({
        amoCents: 7_200,
        mutuelleCents: 42_800,
        restCents: 0,
        aboveCeiling: false,
      });
    }
  });

  it("flags a fee above the ceiling and leaves only the excess to pay", () => {
    const { lines } = estimateQuote([santeCrown(560)], cover());
    expect(lines[0]).toMatchObject({ mutuelleCents: 42_800, restCents: 6_000, aboveCeiling: true });
  });

  it("without a mutuelle counts the Assurance Maladie only, and says so", () => {
    const estimate = estimateQuote([molarCrown(750), santeCrown(500)], null);
    expect(estimate.withMutuelle).toBe(false);
    expect(estimate.lines.map((l) => l.restCents)).toEqual([67_800, 42_800]);
    expect(estimate.total).toEqual({
      feeCents: 125_000,
      brCents: 24_000,
      amoCents: 14_400,
      mutuelleCents: 0,
      restCents: 110_600,
    });
  });

  it("uses the annual ceiling up in the order of the lines, and leaves 100 % Santé lines out of it", () => {
    const { lines, total } = estimateQuote(
      [molarCrown(750), santeCrown(500), molarCrown(750)],
      cover({ annualCeilingCents: euros(400) }),
    );
    expect(lines.map((l) => l.mutuelleCents)).toEqual([28_800, 42_800, 11_200]);
    expect(lines[2]?.restCents).toBe(75_000 - 7_200 - 11_200);
    expect(total.feeCents - total.amoCents - total.mutuelleCents).toBe(total.restCents);
  });

  it("pays an implant (no BR) from the yearly implant allowance only", () => {
    const none = estimateQuote([implant(1_200)], cover());
    expect(none.lines[0]).toMatchObject({ amoCents: 0, mutuelleCents: 0, restCents: 120_000 });
    const allowance = estimateQuote(
      [implant(1_200), implant(1_200)],
      cover({ implantAllowanceCents: euros(1_500) }),
    );
    expect(allowance.lines.map((l) => l.mutuelleCents)).toEqual([120_000, 30_000]);
  });

  it("gives nothing from the implant allowance to another act without BR (a free line)", () => {
    const free = { ...implant(400), implant: false };
    const { lines } = estimateQuote([free], cover({ implantAllowanceCents: euros(1_500) }));
    expect(lines[0]).toMatchObject({ amoCents: 0, mutuelleCents: 0, restCents: 40_000 });
  });

  it("never pays more than the fee: a generous cover on a cheap act leaves nothing, not less than nothing", () => {
    const { lines } = estimateQuote([molarCrown(200)], cover({ percentOfBr: 500 }));
    expect(lines[0]).toMatchObject({ amoCents: 7_200, mutuelleCents: 12_800, restCents: 0 });
    const nonResponsible = estimateQuote([santeCrown(500)], cover({ responsible: false, percentOfBr: 100 }));
    // Not a contrat responsable: only its percentage (100 % of the BR, AMO included) is paid.
    expect(nonResponsible.lines[0]).toMatchObject({ mutuelleCents: 4_800, restCents: 38_000 });
  });
});
