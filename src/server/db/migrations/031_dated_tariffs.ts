import { type Kysely, sql } from "kysely";
import { termsOn } from "../../../shared/domain/acts";

/**
 * Dated tariffs (issue 33). A patient's devis gets its date (`requests.quote_date`, the day its lines are
 * estimated with: 2025's baskets and ceilings for a devis of 2025). Lines stored before were resolved
 * with the earlier table (ceilings raised on 1 January 2025 instead of 2026, HBLD073 maîtrisé in 2026,
 * HBLD724 in 100 % Santé, BR 107,50 € for HBLD734/HBLD403…): every line of a code of the table gets the
 * basket, BR and ceiling of the corrected table on its day — the devis's date (taken as the request's
 * creation day for the devis entered before this migration) or the offer's creation day. Free lines
 * (codes outside the table) keep theirs.
 *
 * This migration reads the table of acts as it is in the code: run again later it would apply a later
 * table, which is what "recompute from the table" means for rows written before dated tariffs existed.
 */
type Row = {
  id: string;
  code: string;
  tooth: number | null;
  basket: string;
  br_cents: number;
  ceiling_cents: number | null;
  day: string;
};

async function recompute(db: Kysely<unknown>, table: "request_quote_lines" | "offer_lines", rows: Row[]) {
  for (const row of rows) {
    const terms = termsOn(row.code, row.day, row.tooth);
    if (!terms) continue;
    if (
      terms.basket === row.basket &&
      terms.brCents === row.br_cents &&
      terms.ceilingCents === row.ceiling_cents
    )
      continue;
    await sql`update ${sql.table(table)}
      set basket = ${terms.basket}, br_cents = ${terms.brCents}, ceiling_cents = ${terms.ceilingCents}
      where id = ${row.id}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("requests").addColumn("quote_date", "date").execute();
  await recomputeStoredLines(db);
}

/**
 * Dates the devis stored without a date (their request's creation day), then gives every stored line of
 * a code of the table its basket, BR and ceiling for its day. Idempotent. Exported for its test.
 */
export async function recomputeStoredLines(db: Kysely<unknown>): Promise<void> {
  await sql`update requests r set quote_date = (r.created_at at time zone 'Europe/Paris')::date
    where r.quote_date is null
      and exists (select 1 from request_quote_lines q where q.request_id = r.id)`.execute(db);

  const devis = await sql<Row>`select q.id, q.code, q.tooth, q.basket, q.br_cents, q.ceiling_cents,
      to_char(r.quote_date, 'YYYY-MM-DD') as day
    from request_quote_lines q join requests r on r.id = q.request_id
    where q.code is not null`.execute(db);
  await recompute(db, "request_quote_lines", devis.rows);

  const offers = await sql<Row>`select l.id, l.code, l.tooth, l.basket, l.br_cents, l.ceiling_cents,
      to_char(o.created_at at time zone 'Europe/Paris', 'YYYY-MM-DD') as day
    from offer_lines l join offers o on o.id = l.offer_id
    where l.code is not null`.execute(db);
  await recompute(db, "offer_lines", offers.rows);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("requests").dropColumn("quote_date").execute();
}
