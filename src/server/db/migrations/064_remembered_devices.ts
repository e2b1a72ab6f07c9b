import { type Kysely, sql } from "kysely";

/**
 * Two-step sign-in (ADR 098, addendum of 07/12): the device a sign-in remembered (« ne plus demander
 * de code sur cet appareil », the plugin's `trust-device-…` record), written on the session it
 * opened, so that ending that session from « Appareils connectés » forgets the device too. Null for
 * every other session. And the person's records found by her id (`value`), as « Sécurité » counts her
 * remembered devices at each visit and forgets them on demand, instead of reading every row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column remembered_device text`.execute(db);
  await sql`create index verifications_value_idx on verifications (value)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index verifications_value_idx`.execute(db);
  await sql`alter table sessions drop column remembered_device`.execute(db);
}
