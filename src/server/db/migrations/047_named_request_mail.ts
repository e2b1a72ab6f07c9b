import { type Kysely, sql } from "kysely";

/**
 * A request addressed to one dentist by name is e-mailed to him (ADR 074): nobody else sees it, and
 * nothing told him until he opened his list. `recipient_mailed_at` is when the mail job settled it:
 * it told him, or found nothing to tell (he had opened the request, or it was closed). Requests sent
 * before this migration count as settled at their sending, so that the job tells no one about them.
 * `requests_recipient_mail_due_idx`: the job's scan, the named requests still to settle, in the
 * order they were sent (opening a request to all empties its recipient, which leaves the index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests add column recipient_mailed_at timestamptz`.execute(db);
  await sql`update requests set recipient_mailed_at = created_at where recipient_dentist_id is not null`.execute(
    db,
  );
  await sql`create index requests_recipient_mail_due_idx on requests (created_at)
    where recipient_dentist_id is not null and recipient_mailed_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index requests_recipient_mail_due_idx`.execute(db);
  await sql`alter table requests drop column recipient_mailed_at`.execute(db);
}
