import type { ReadResult } from "../../../shared/schemas/reading";
import type { CorpusDevis, CorpusLine } from "./model";

/** Scoring a reading against a generated devis's ground truth. Teeth count as fields. */

export const SCORED_FIELDS = ["tooth", "code", "basket", "fee_cents", "br_cents", "amo_cents"] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];

export interface ReadingScore {
  expectedLines: number;
  /**
   * Expected lines found: aligned with a line read whose code is right, or 4 of whose 6 fields are (a
   * line the patient sees on the review screen as the devis's, to correct at most a field or two).
   */
  linesFound: number;
  /** Lines read whose six fields are all right. */
  linesExact: number;
  fieldsRight: number;
  /** 6 × (expected lines + lines read that match no expected line). */
  fieldsTotal: number;
  /** What went wrong, for failure messages: "line 2 fee_cents: 118000 ≠ 117500", "line 3 missing"… */
  wrong: string[];
}

function fieldsOf(expected: CorpusLine, read: ReadResult["lines"][number]): ScoredField[] {
  const wrong: ScoredField[] = [];
  if (expected.tooth !== read.tooth) wrong.push("tooth");
  if (expected.code.toUpperCase() !== (read.code ?? "").toUpperCase()) wrong.push("code");
  if (expected.basket !== read.basket) wrong.push("basket");
  if (expected.fee_cents !== read.fee_cents) wrong.push("fee_cents");
  if (expected.br_cents !== read.br_cents) wrong.push("br_cents");
  if (expected.amo_cents !== read.amo_cents) wrong.push("amo_cents");
  return wrong;
}

/**
 * Scores a reading against the devis' ground truth: lines are matched in order (the alignment that keeps
 * the order and gets the most fields right, so one missed line does not shift all the others), each
 * expected line counts 6 fields, a missing line 6 wrong ones, an extra line read 6 wrong ones.
 */
export function scoreReading(expected: CorpusDevis, result: ReadResult): ReadingScore {
  const want = expected.lines;
  const got = result.lines;
  const n = want.length;
  const m = got.length;
  const right = (i: number, j: number) =>
    SCORED_FIELDS.length - fieldsOf(want[i] as CorpusLine, got[j] as ReadResult["lines"][number]).length;
  // best[i][j]: most fields right aligning want[i..] with got[j..].
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = best[i] as number[];
      const below = best[i + 1] as number[];
      row[j] = Math.max(below[j] as number, row[j + 1] as number, right(i, j) + (below[j + 1] as number));
    }
  let i = 0;
  let j = 0;
  let linesExact = 0;
  let linesFound = 0;
  let fieldsRight = 0;
  let extra = 0;
  const wrong: string[] = [];
  while (i < n && j < m) {
    const here = (best[i] as number[])[j] as number;
    const matched = right(i, j);
    if (matched > 0 && here === matched + ((best[i + 1] as number[])[j + 1] as number)) {
      fieldsRight += matched;
      if (matched === SCORED_FIELDS.length) linesExact++;
      const line = want[i] as CorpusLine;
      const read = got[j] as ReadResult["lines"][number];
      const wrongFields = fieldsOf(line, read);
      if (!wrongFields.includes("code") || matched >= 4) linesFound++;
      for (const field of fieldsOf(line, read))
        wrong.push(`line ${i + 1} ${field}: read ${String(read[field])}, expected ${String(line[field])}`);
      i++;
      j++;
    } else if (here === ((best[i + 1] as number[])[j] as number)) {
      wrong.push(`line ${i + 1} (${(want[i] as CorpusLine).code}) missing`);
      i++;
    } else {
      wrong.push(`extra line read (${got[j]?.code ?? "no code"})`);
      extra++;
      j++;
    }
  }
  for (; i < n; i++) wrong.push(`line ${i + 1} (${(want[i] as CorpusLine).code}) missing`);
  for (; j < m; j++) {
    wrong.push(`extra line read (${got[j]?.code ?? "no code"})`);
    extra++;
  }
  return {
    expectedLines: n,
    linesFound,
    linesExact,
    fieldsRight,
    fieldsTotal: SCORED_FIELDS.length * (n + extra),
    wrong,
  };
}

/** Sums scores (for a kind of document): accuracy = fieldsRight / fieldsTotal. */
export function sumScores(scores: readonly ReadingScore[]) {
  const sum = { expectedLines: 0, linesFound: 0, linesExact: 0, fieldsRight: 0, fieldsTotal: 0 };
  for (const s of scores) {
    sum.expectedLines += s.expectedLines;
    sum.linesFound += s.linesFound;
    sum.linesExact += s.linesExact;
    sum.fieldsRight += s.fieldsRight;
    sum.fieldsTotal += s.fieldsTotal;
  }
  return {
    ...sum,
    accuracy: sum.fieldsTotal === 0 ? 1 : sum.fieldsRight / sum.fieldsTotal,
    found: sum.expectedLines === 0 ? 1 : sum.linesFound / sum.expectedLines,
  };
}
