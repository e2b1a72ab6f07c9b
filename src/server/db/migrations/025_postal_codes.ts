import { type Kysely, sql } from "kysely";

/**
 * A patient's postal code (issue 16, decision 019): with the dentist's practice postcode (migration 005,
 * reused as the dentist's place) it gives the distance shown to both. Only the code is stored; the
 * commune's name and point are looked up in the communes dataset at read time. Nothing is backfilled:
 * the city typed so far is free text and does not tell a postal code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("profiles")
    .addColumn("postal_code", "text", (c) => c.check(sql`postal_code ~ '^[0-9]{5}$'`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("profiles").dropColumn("postal_code").execute();
}
