import { describe, expect, it } from "vitest";
import type { ReadLine, ReadResult } from "../../../shared/schemas/reading";
import { fullySupported, LINE_SUPPORT_MAX, readingSupport } from "./support";

/*
 * Issue 34: how well a photo's reading is borne out by the devis and the act table, to choose between
 * two readings of the same photo at two image sizes (read.ts).
 */

// HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €, a molar's crown.
const crown = (overrides: Partial<ReadLine> = {}): ReadLine => ({
  tooth: 36,
  code: "HBLD734",
  act: "Couronne",
  basket: "libre",
  fee_cents: 900_00,
  br_cents: 120_00,
  amo_cents: 72_00,
  uncertain: [],
  expected: { basket: "libre", br_cents: 120_00, amo_cents: 72_00, day: "2026-03-02" },
  filled: [],
  ...overrides,
});
const reading = (lines: ReadLine[], overrides: Partial<ReadResult> = {}): ReadResult => ({
  lines,
  total_cents: lines.reduce((s, l) => s + (l.fee_cents ?? 0), 0),
  lines_total_cents: lines.reduce((s, l) => s + (l.fee_cents ?? 0), 0),
  total_matches: true,
  patient_name: null,
  practitioner_name: null,
  practitioner_number: null,
  confidence: 0.9,
  ...overrides,
});

describe("readingSupport", () => {
  it("gives a line borne out in full its maximum, and fees adding up to the total their share", () => {
    expect(readingSupport(reading([crown(), crown({ tooth: 46 })]))).toBe(2 * LINE_SUPPORT_MAX);
    expect(fullySupported(reading([crown()]))).toBe(true);
    // The same lines, the printed total not matched: 2 a line less, worth a second reading.
    const off = reading([crown()], { total_matches: false });
    expect(readingSupport(off)).toBe(LINE_SUPPORT_MAX - 2);
    expect(fullySupported(off)).toBe(false);
    expect(fullySupported(reading([]))).toBe(false);
  });

  it("scores less a tooth the act does not allow, a flagged or filled BR or AMO, a line without a known code", () => {
    // 11 is an incisor: not a molar's crown.
    expect(readingSupport(reading([crown({ tooth: 11 })]))).toBe(LINE_SUPPORT_MAX - 1);
    expect(readingSupport(reading([crown({ br_cents: 12_00, uncertain: ["br_cents"] })]))).toBe(
      LINE_SUPPORT_MAX - 1,
    );
    expect(readingSupport(reading([crown({ filled: ["amo_cents"] })]))).toBe(LINE_SUPPORT_MAX - 1);
    // A line read in excess (no code, a stray amount): it costs, so a reading without it wins.
    const extra = crown({ code: null, tooth: null, expected: null, fee_cents: 50_00 });
    const withExtra = reading([crown(), extra], { total_matches: false });
    expect(readingSupport(withExtra)).toBeLessThan(readingSupport(reading([crown()])));
    expect(readingSupport(withExtra)).toBe(LINE_SUPPORT_MAX - 2 - 2 + 1);
  });

  it("prefers a reading that found a row the other lost", () => {
    const lost = reading([crown()], { total_cents: 1_800_00, total_matches: false });
    const found = reading([crown(), crown({ tooth: 46 })]);
    expect(readingSupport(found)).toBeGreaterThan(readingSupport(lost));
  });
});
