import { type Kysely, sql } from "kysely";

/**
 * A suspension with an end (ADR 092's addendum): the instant it is lifted by itself (the chosen
 * day's 0:00 in Paris), or none (the team lifts it by hand). Only a suspended account has one. The
 * mail job finds the suspensions due from a partial index that holds only the dated ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles
      add column suspension_ends_at timestamptz,
      add constraint profiles_suspension_ends_at
        check (suspension_ends_at is null or suspended_at is not null)
  `.execute(db);
  await sql`
    create index profiles_suspension_ends_idx on profiles (suspension_ends_at)
      where suspension_ends_at is not null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index profiles_suspension_ends_idx`.execute(db);
  await sql`
    alter table profiles
      drop constraint profiles_suspension_ends_at,
      drop column suspension_ends_at
  `.execute(db);
}
