import { type Kysely, sql } from "kysely";

/**
 * The admin's « Comptes suspendus seulement » (ADR 092): the suspended accounts of a role in the
 * users' list order, from a partial index that holds only them (a handful among every account).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index profiles_suspended_idx on profiles (role, created_at desc, id desc)
      where suspended_at is not null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index profiles_suspended_idx`.execute(db);
}
