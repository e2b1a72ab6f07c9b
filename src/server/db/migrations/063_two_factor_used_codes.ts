import { type Kysely, sql } from "kysely";

/** No cached response reads the used codes (ADR 030): listed, no trigger. */
export const USED_CODE_SILENT_TABLES = ["two_factor_used_codes"] as const;

/**
 * Two-step sign-in (ADR 098, addendum of 06/12): the authenticator codes that opened a session,
 * so that each signs in once (RFC 6238, 5.2). The plugin takes a code during the step before its
 * own and the step after (90 seconds in all) and keeps no trace of it: a code seen over a shoulder
 * or in a recording would open a second session within that time. A row older than 90 seconds
 * means nothing and is deleted at the person's next sign-in; the rows go with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table two_factor_used_codes (
      user_id uuid not null references users (id) on delete cascade,
      code text not null,
      used_at timestamptz not null,
      primary key (user_id, code)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table two_factor_used_codes`.execute(db);
}
