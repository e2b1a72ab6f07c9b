import { type Kysely, sql } from "kysely";

/**
 * An RPPS number belongs to one practitioner for life: the admins' verification queue shows the other
 * accounts that gave the same number, and « Vérifier » refuses a number another verified dentist holds
 * (ADR 075). Both look dentists up by that number: indexed, only where one was given.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index profiles_rpps_idx on profiles (rpps) where rpps is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index profiles_rpps_idx`.execute(db);
}
