import type { ReadLine, ReadResult } from "../../shared/schemas/reading";

/**
 * A read line as the reader returns it: HBLD734 (a molar's crown) on tooth 36, on a devis of
 * 2 March 2026, when the act table gives a BR of 120,00 € and an AMO of 72,00 €.
 */
export const readCrown = (overrides: Partial<ReadLine> = {}): ReadLine => ({
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

/** A reading of these lines whose printed total matches their fees. */
export const readResult = (lines: ReadLine[], overrides: Partial<ReadResult> = {}): ReadResult => ({
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
