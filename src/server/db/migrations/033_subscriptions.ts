import { type Kysely, sql } from "kysely";

/**
 * Dentists' subscriptions (issue 35, ADR 044).
 *
 * - `subscriptions`: one row per dentist, from his verification (a 30-day trial, no card), then as
 *   the payment provider's events say. `limited_from` is the instant his access becomes limited (no
 *   new requests, no offers), computed by the domain (shared/domain/subscription.ts, limitedFrom)
 *   whenever the row is written: the access wing compares it with the app's clock. `last_event_at`
 *   is the creation time of the latest provider event applied: an older one never moves it back.
 * - `billing_events`: each provider event id, stored once (insert … on conflict do nothing) in the
 *   transaction that applies it: a redelivered event changes nothing.
 * - Dentists verified before this migration start their trial today.
 * - A write to `subscriptions` changes what a dentist may see: it notifies `sourio_changes` (the
 *   response cache, migration 028) and, per dentist, `sourio_sessions` (the session cache, migration
 *   030), whoever wrote it.
 */
export const NOTIFYING_TABLES_033 = ["subscriptions"] as const;
export const SILENT_TABLES_033 = ["billing_events"] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("subscriptions")
    .addColumn("dentist_id", "uuid", (c) => c.primaryKey().references("profiles.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('trialing', 'active', 'past_due', 'canceled', 'unpaid')`),
    )
    .addColumn("status_since", "timestamptz", (c) => c.notNull())
    .addColumn("trial_ends_at", "timestamptz", (c) => c.notNull())
    .addColumn("limited_from", "timestamptz")
    .addColumn("plan", "text", (c) => c.check(sql`plan in ('monthly', 'yearly')`))
    .addColumn("customer_id", "text", (c) => c.unique())
    .addColumn("subscription_id", "text", (c) => c.unique())
    .addColumn("current_period_end", "timestamptz")
    .addColumn("cancel_at_period_end", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("last_event_at", "timestamptz")
    .addColumn("trial_warned_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The admin list by state, and the trial e-mail job.
  await sql`create index subscriptions_status_idx on subscriptions (status, updated_at desc)`.execute(db);
  await sql`create index subscriptions_trial_end_idx on subscriptions (trial_ends_at)
    where status = 'trialing' and trial_warned_at is null`.execute(db);

  await db.schema
    .createTable("billing_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await sql`
    insert into subscriptions (dentist_id, status, status_since, trial_ends_at, limited_from)
    select id, 'trialing', now(), now() + interval '30 days', now() + interval '30 days'
    from profiles where role = 'dentist' and is_verified and erased_at is null`.execute(db);

  await sql`
    create trigger subscriptions_changed after insert or update or delete or truncate on subscriptions
    for each statement execute function sourio_table_changed()`.execute(db);
  // The session cache keeps each dentist's limited_from: the dentists of the rows written.
  await sql`
    create function sourio_subscriptions_written() returns trigger language plpgsql as $$
    declare ids text;
    begin
      if tg_op = 'INSERT' then
        select string_agg(distinct dentist_id::text, ',') into ids from new_rows;
      else
        select string_agg(distinct dentist_id::text, ',') into ids from old_rows;
      end if;
      if ids is not null then
        perform pg_notify('sourio_sessions', case when length(ids) > 7900 then '*' else ids end);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger subscriptions_insert_sessions after insert on subscriptions
    referencing new table as new_rows
    for each statement execute function sourio_subscriptions_written()`.execute(db);
  for (const op of ["update", "delete"])
    await sql`
      create trigger ${sql.raw(`subscriptions_${op}_sessions`)} after ${sql.raw(op)} on subscriptions
      referencing old table as old_rows
      for each statement execute function sourio_subscriptions_written()`.execute(db);
  await sql`
    create trigger subscriptions_truncate_sessions after truncate on subscriptions
    for each statement execute function sourio_people_changed('dentist_id')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("billing_events").ifExists().execute();
  await db.schema.dropTable("subscriptions").ifExists().execute();
  await sql`drop function if exists sourio_subscriptions_written()`.execute(db);
}
