import { describe, expect, it } from "vitest";
import { readCrown, readResult } from "../../testing/read-results";
import { fullySupported, LINE_SUPPORT_MAX, readingSupport } from "./support";

/*
 * Issue 34: how well a photo's reading is borne out by the devis and the act table, to choose between
 * two readings of the same photo at two image sizes (read.ts).
 */

// HBLD734 on 2 March 2026: BR 120,00 €, AMO 72,00 €, a molar's crown.

describe("readingSupport", () => {
  it("gives a line borne out in full its maximum, and fees adding up to the total their share", () => {
    expect(readingSupport(readResult([readCrown(), readCrown({ tooth: 46 })]))).toBe(2 * LINE_SUPPORT_MAX);
    expect(fullySupported(readResult([readCrown()]))).toBe(true);
    // The same lines, the printed total not matched: 2 a line less, worth a second reading.
    const off = readResult([readCrown()], { total_matches: false });
    expect(readingSupport(off)).toBe(LINE_SUPPORT_MAX - 2);
    expect(fullySupported(off)).toBe(false);
    expect(fullySupported(readResult([]))).toBe(false);
  });

  it("scores less a tooth the act does not allow, a flagged or filled BR or AMO, a line without a known code", () => {
    // 11 is an incisor: not a molar's crown.
    expect(readingSupport(readResult([readCrown({ tooth: 11 })]))).toBe(LINE_SUPPORT_MAX - 1);
    expect(readingSupport(readResult([readCrown({ br_cents: 12_00, uncertain: ["br_cents"] })]))).toBe(
      LINE_SUPPORT_MAX - 1,
    );
    expect(readingSupport(readResult([readCrown({ filled: ["amo_cents"] })]))).toBe(LINE_SUPPORT_MAX - 1);
    // A line read in excess (no code, a stray amount): it costs, so a reading without it wins.
    const extra = readCrown({ code: null, tooth: null, expected: null, fee_cents: 50_00 });
    const withExtra = readResult([readCrown(), extra], { total_matches: false });
    expect(readingSupport(withExtra)).toBeLessThan(readingSupport(readResult([readCrown()])));
    expect(readingSupport(withExtra)).toBe(LINE_SUPPORT_MAX - 2 - 2 + 1);
  });

  it("prefers a reading that found a row the other lost", () => {
    const lost = readResult([readCrown()], { total_cents: 1_800_00, total_matches: false });
    const found = readResult([readCrown(), readCrown({ tooth: 46 })]);
    expect(readingSupport(found)).toBeGreaterThan(readingSupport(lost));
  });
});
