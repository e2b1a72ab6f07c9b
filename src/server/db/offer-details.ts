import { QUOTE_LINE_FIELDS } from "../../shared/schemas/quotes";
import type { Db } from "./index";

/**
 * The line items and the proposed slots of offers already filtered by the caller (the dentist's
 * own offers, or those of the person's data export), in two queries, each ordered by offer.
 */
export async function offerLinesAndSlots(db: Db, offerIds: string[]) {
  if (offerIds.length === 0) return { lines: [], slots: [] };
  const [lines, slots] = await Promise.all([
    db
      .selectFrom("offer_lines")
      .select(["offer_id", "position", ...QUOTE_LINE_FIELDS])
      .where("offer_id", "in", offerIds)
      .orderBy("offer_id")
      .orderBy("position")
      .execute(),
    db
      .selectFrom("offer_slots")
      .select(["offer_id", "starts_at"])
      .where("offer_id", "in", offerIds)
      .orderBy("offer_id")
      .orderBy("starts_at")
      .execute(),
  ]);
  return { lines, slots };
}

/** One offer's lines, as the API and the export show them (without the offer id and position). */
export function linesOf(lines: Awaited<ReturnType<typeof offerLinesAndSlots>>["lines"], offerId: string) {
  return lines
    .filter((line) => line.offer_id === offerId)
    .map(({ offer_id: _offer, position: _position, ...line }) => line);
}
