import { type Kysely, sql } from "kysely";

/**
 * The public median saving (issue 36) compared each accepted offer's price with the whole devis: an
 * offer treating one crown of three counted the two others as saved (ADR 046 addendum of
 * 03/12/2026). `compared_quote_cents` is the devis's price the offer's is compared with, like with
 * like, written when the offer is accepted (`comparedQuoteCents`: the fees of the devis lines it
 * treats), null when that cannot be known (the devis or the offer without lines) and once the
 * acceptance is withdrawn. Offers accepted before this migration stay null: their figure is not
 * measured (what they treated was never compared).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table offers add column compared_quote_cents integer
    check (compared_quote_cents > 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table offers drop column compared_quote_cents`.execute(db);
}
