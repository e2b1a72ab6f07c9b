import type { Kysely } from "kysely";

/**
 * Dentist verification (an admin verifies or refuses): the RPPS number and the practice address a
 * dentist gives, and when they asked to be verified. The state is derived ('verified' if
 * is_verified, else 'requested' if verification_requested_at, else 'none'), never stored twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("profiles")
    .addColumn("rpps", "text")
    .addColumn("practice_address", "text")
    .addColumn("practice_postcode", "text")
    .addColumn("verification_requested_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("profiles")
    .dropColumn("verification_requested_at")
    .dropColumn("practice_postcode")
    .dropColumn("practice_address")
    .dropColumn("rpps")
    .execute();
}
