import { type Kysely, sql } from "kysely";

/**
 * Consent recorded with each request (issue 14): the version and the text shown on the upload
 * form, when it was given, and when the patient withdrew it (the request then closes to dentists).
 * Requests sent before keep their date and a version that says the text was not kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("requests")
    .addColumn("consent_version", "text", (c) => c.notNull().defaultTo("avant-2026-11-25"))
    .addColumn("consent_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("consent_at", "timestamptz")
    .addColumn("consent_withdrawn_at", "timestamptz")
    .execute();
  await sql`update requests set consent_at = created_at`.execute(db);
  await sql`alter table requests alter column consent_at set default now()`.execute(db);
  await sql`alter table requests alter column consent_at set not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["consent_withdrawn_at", "consent_at", "consent_text", "consent_version"])
    await db.schema.alterTable("requests").dropColumn(column).execute();
}
