import { type Kysely, sql } from "kysely";

/** No cached response reads the second factors (ADR 030): listed, no trigger. */
export const TWO_FACTOR_SILENT_TABLES = ["two_factors"] as const;

/**
 * Two-step sign-in (ADR 098), Better Auth's two-factor plugin in our snake_case: whether a person
 * turned it on, and their authenticator's secret and recovery codes, both encrypted with the
 * server's AUTH_SECRET by Better Auth. One row per person (a setup not yet confirmed has
 * `verified` false), deleted with the account; the failures since the last good code and the end
 * of a lock after too many (the plugin's lockout).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column two_factor_enabled boolean not null default false`.execute(db);
  await sql`
    create table two_factors (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null unique references users (id) on delete cascade,
      secret text not null,
      backup_codes text not null,
      verified boolean not null default true,
      failed_verification_count integer not null default 0,
      locked_until timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table two_factors`.execute(db);
  await sql`alter table users drop column two_factor_enabled`.execute(db);
}
