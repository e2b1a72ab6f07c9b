import { type Kysely, sql } from "kysely";

/**
 * A patient whose chosen dentist stops receiving requests is e-mailed (ADR 080): nobody else sees
 * the request, and the patient learnt of it only on the request's page (ADR 073).
 * `recipient_away_mailed_at` is when the mail job told the patient; it is emptied when the dentist
 * receives requests again, so that a later absence is told too. Requests sent before this migration
 * count as told, so that nobody is e-mailed on the day it is deployed about an absence that began
 * before; those whose dentist receives requests are emptied by the job's first run.
 * `requests_recipient_away_idx`: the job's two scans, the requests addressed by name (opening a request
 * to all empties its recipient, which leaves the index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests add column recipient_away_mailed_at timestamptz`.execute(db);
  await sql`update requests set recipient_away_mailed_at = created_at where recipient_dentist_id is not null`.execute(
    db,
  );
  await sql`create index requests_recipient_away_idx on requests (recipient_dentist_id)
    where recipient_dentist_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index requests_recipient_away_idx`.execute(db);
  await sql`alter table requests drop column recipient_away_mailed_at`.execute(db);
}
