import { type Kysely, sql } from "kysely";

/**
 * A request's sending, named by the form (ADR 101): the upload form draws one id per request being
 * written and sends it again on a retry. When the connection dropped after the server saved the
 * request, the retry finds it instead of creating a second one (the patient's list, and the
 * dentists', showed the same request twice). One per patient and id; null for the requests sent
 * before, and for any client that sends none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests add column submission_id uuid`.execute(db);
  await sql`create unique index requests_submission_idx on requests (patient_id, submission_id)
    where submission_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index requests_submission_idx`.execute(db);
  await sql`alter table requests drop column submission_id`.execute(db);
}
