import type { Kysely } from "kysely";

/**
 * Consent to the terms of use and the privacy policy at sign-up (issue 16): when it was given and
 * which version of the texts was shown (TERMS_VERSION in src/shared/domain/terms.ts). Accounts made
 * before have none recorded (null): they accepted nothing through this form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("profiles")
    .addColumn("terms_accepted_at", "timestamptz")
    .addColumn("terms_version", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["terms_version", "terms_accepted_at"])
    await db.schema.alterTable("profiles").dropColumn(column).execute();
}
