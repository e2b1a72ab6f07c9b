import { type Kysely, sql } from "kysely";

/**
 * Two-step sign-in (ADR 098, addendum of 07/12): the device a sign-in remembered (« ne plus demander
 * de code sur cet appareil », the plugin's `trust-device-…` record), written on the session it
 * opened, so that ending that session from « Appareils connectés » forgets the device too. Null for
 * every other session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column remembered_device text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column remembered_device`.execute(db);
}
