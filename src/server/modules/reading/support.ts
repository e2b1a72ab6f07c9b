import { actByCode, actFitsTooth } from "../../../shared/domain/acts";
import type { ReadLine, ReadResult } from "../../../shared/schemas/reading";

/**
 * How well a reading of a photo or a scan is borne out by the devis itself and the act table (issue 34,
 * ADR 041 addendum of 29 November), to choose between two readings of the same file at two image sizes:
 * tesseract loses or garbles whole rows at one size and not at the other, on different pages. Per line: a
 * code of the table (2), a tooth the act allows (1), a fee (1), a BR and an AMO read and not flagged (1
 * each); a line without a known code counts −2 (often a line read in excess); fees that add up to the
 * printed total count 2 per line. No ground truth is used: only what a reader can check.
 */
export function readingSupport(result: ReadResult): number {
  let support = 0;
  for (const line of result.lines) support += lineSupport(line);
  if (result.total_matches === true) support += 2 * result.lines.length;
  return support;
}

/** The most a line can score (its total's share included): a reading scoring less is worth a second look. */
export const LINE_SUPPORT_MAX = 2 + 1 + 1 + 1 + 1 + 2;

/** What one line scores (see readingSupport). */
export function lineSupport(line: ReadLine): number {
  const known = line.code ? actByCode(line.code) : undefined;
  if (!known) return -2 + (line.fee_cents !== null ? 1 : 0);
  let support = 2;
  if (known.teeth === "arch" ? line.tooth === null : line.tooth !== null && actFitsTooth(known, line.tooth))
    support += 1;
  if (line.fee_cents !== null && !line.uncertain.includes("fee_cents")) support += 1;
  const sure = (field: "br_cents" | "amo_cents") =>
    line[field] !== null && !line.uncertain.includes(field) && !(line.filled?.includes(field) ?? false);
  if (sure("br_cents")) support += 1;
  if (sure("amo_cents")) support += 1;
  return support;
}

/** True when every line is borne out and the fees add up to the total: no second reading is needed. */
export function fullySupported(result: ReadResult): boolean {
  return result.lines.length > 0 && readingSupport(result) >= LINE_SUPPORT_MAX * result.lines.length;
}
