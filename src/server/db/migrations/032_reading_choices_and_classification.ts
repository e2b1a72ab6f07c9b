import { type Kysely, sql } from "kysely";

/**
 * Issue 34 (ADR 043).
 *
 * - `choices`: what the patient chose, on confirming a reading, for each printed basket, BR or AMO that
 *   contradicted the act table — the value read or the table's (`[{ line, field, use }]`). What was read
 *   stays in `result`, never written over.
 * - `purpose`: 'read' for a document typed 'Devis' (read as before); 'classify' for another image or PDF
 *   of a request without lines, read only if it is recognised as a devis.
 * - status 'not_quote': a document classified as not a devis (or not looked at, the request's devis
 *   being read or recognised already). Nothing is shown for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table quote_readings add column choices jsonb`.execute(db);
  await sql`alter table quote_readings add column purpose text not null default 'read'
    check (purpose in ('read', 'classify'))`.execute(db);
  await sql`alter table quote_readings drop constraint quote_readings_status_check`.execute(db);
  await sql`alter table quote_readings add constraint quote_readings_status_check
    check (status in ('pending', 'running', 'done', 'failed', 'not_quote'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from quote_readings where status = 'not_quote'`.execute(db);
  await sql`alter table quote_readings drop constraint quote_readings_status_check`.execute(db);
  await sql`alter table quote_readings add constraint quote_readings_status_check
    check (status in ('pending', 'running', 'done', 'failed'))`.execute(db);
  await sql`alter table quote_readings drop column purpose`.execute(db);
  await sql`alter table quote_readings drop column choices`.execute(db);
}
