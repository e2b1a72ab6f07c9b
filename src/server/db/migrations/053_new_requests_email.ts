import { type Kysely, sql } from "kysely";

/**
 * The morning e-mail of new requests (ADR 086): a dentist may stop it, on by default like the other
 * e-mails one may stop (ADR 081). Patients never get it; the column is theirs too, unused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table profiles add column email_new_requests boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table profiles drop column email_new_requests`.execute(db);
}
