import type { Kysely } from "kysely";

/** A patient's optional birth date: the proposal page shows the patient's age when it is known. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("profiles").addColumn("birth_date", "date").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("profiles").dropColumn("birth_date").execute();
}
