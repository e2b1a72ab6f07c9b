import { type Kysely, sql } from "kysely";

/**
 * Erasure (issue 14). An erased account is replaced by a pseudonym: a profile of its own, with no
 * e-mail of the person, no password and `erased_at` set, to which the records others keep are
 * re-attached (an accepted offer for the dentist's accounting, a conversation the other party
 * keeps, log rows). The person's own row and everything of theirs then go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("profiles").addColumn("erased_at", "timestamptz").execute();
  await sql`create index profiles_erased_idx on profiles (erased_at) where erased_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists profiles_erased_idx`.execute(db);
  await db.schema.alterTable("profiles").dropColumn("erased_at").execute();
}
