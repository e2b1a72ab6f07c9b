import { type Kysely, sql } from "kysely";

/**
 * A change of plan the dentist asked for (ADR 096): the plan his subscription moves to at the end of
 * the paid period, and that instant; both null when none is planned. Cleared when the subscription
 * reaches it (its plan is the new one), ends or is cancelled, or once that instant has passed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table subscriptions
      add column next_plan text,
      add column next_plan_at timestamptz,
      add constraint subscriptions_next_plan
        check (next_plan is null or next_plan in ('monthly', 'yearly')),
      add constraint subscriptions_next_plan_at
        check ((next_plan is null) = (next_plan_at is null))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table subscriptions
      drop constraint subscriptions_next_plan_at,
      drop constraint subscriptions_next_plan,
      drop column next_plan_at,
      drop column next_plan
  `.execute(db);
}
