import { type Kysely, sql } from "kysely";

/**
 * The team suspends an account (ADR 092): when, and the reason the person was told. A suspended
 * account has no session and cannot sign in; the reason goes with the date, never one without the
 * other. The admin's filter of suspended accounts has its index in migration 057.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles
      add column suspended_at timestamptz,
      add column suspension_reason text,
      add constraint profiles_suspension_reason
        check ((suspended_at is null) = (suspension_reason is null))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles
      drop constraint profiles_suspension_reason,
      drop column suspension_reason,
      drop column suspended_at
  `.execute(db);
}
