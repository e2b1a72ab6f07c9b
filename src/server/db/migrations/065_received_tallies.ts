import { type Kysely, sql } from "kysely";

/**
 * No cached response needs to hear of these rows (ADR 030): each change comes with a change of
 * `requests` in the same statement, whose notification names the same people (everyone for a
 * request sent to all, its parties otherwise). Listed, no trigger.
 */
export const RECEIVED_TALLY_SILENT_TABLES = ["request_month_tallies"] as const;

/** Counted: every request but the cancelled ones (as `request_tallies` did, migration 008). */
const COUNTED_NEW = sql.raw("new.status <> 'cancelled'");
const COUNTED_OLD = sql.raw("old.status <> 'cancelled'");
/** The request's audience ('all' or its recipient's id) and Paris month, as request_tallies has them. */
const BUCKET = sql.raw(`coalesce(recipient_dentist_id::text, 'all'),
               date_trunc('month', created_at at time zone 'Europe/Paris')::date`);

/**
 * The dentist dashboard's « Demandes reçues » this month (ADR 009, its addendum of 07/12): the
 * requests sent to him (to every verified dentist or to him by name) received in the month, whatever
 * became of them since, except those their patient withdrew. It was a sum over `request_tallies`,
 * which counts the open requests only since migration 013: the count went down when a patient
 * accepted an offer. Kept by triggers in the change's transaction, as `request_tallies` is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table request_month_tallies (
      audience text not null,
      month date not null,
      received integer not null default 0,
      primary key (audience, month)
    )`.execute(db);

  await sql`
    create function request_month_tallies_on_insert_delete() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into request_month_tallies as t (audience, month, received)
        select ${BUCKET}, count(*)::int
        from new_rows where status <> 'cancelled'
        group by 1, 2 order by 1, 2
        on conflict (audience, month) do update set received = t.received + excluded.received;
      else
        insert into request_month_tallies as t (audience, month, received)
        select ${BUCKET}, -count(*)::int
        from old_rows where status <> 'cancelled'
        group by 1, 2 order by 1, 2
        on conflict (audience, month) do update set received = t.received + excluded.received;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger requests_month_tallies_insert after insert on requests
    referencing new table as new_rows for each statement
    execute function request_month_tallies_on_insert_delete()`.execute(db);
  await sql`
    create trigger requests_month_tallies_delete after delete on requests
    referencing old table as old_rows for each statement
    execute function request_month_tallies_on_insert_delete()`.execute(db);

  await sql`
    create function request_month_tallies_on_update() returns trigger language plpgsql as $$
    begin
      if ${COUNTED_OLD} then
        insert into request_month_tallies as t (audience, month, received)
        values (coalesce(old.recipient_dentist_id::text, 'all'),
                date_trunc('month', old.created_at at time zone 'Europe/Paris')::date, -1)
        on conflict (audience, month) do update set received = t.received - 1;
      end if;
      if ${COUNTED_NEW} then
        insert into request_month_tallies as t (audience, month, received)
        values (coalesce(new.recipient_dentist_id::text, 'all'),
                date_trunc('month', new.created_at at time zone 'Europe/Paris')::date, 1)
        on conflict (audience, month) do update set received = t.received + 1;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger requests_month_tallies_update
    after update of status, recipient_dentist_id, created_at on requests
    for each row
    when (
      (old.status = 'cancelled') is distinct from (new.status = 'cancelled')
      or old.recipient_dentist_id is distinct from new.recipient_dentist_id
      or old.created_at is distinct from new.created_at
    )
    execute function request_month_tallies_on_update()`.execute(db);

  await sql`
    create function request_month_tallies_on_truncate() returns trigger language plpgsql as $$
    begin
      delete from request_month_tallies;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger requests_month_tallies_truncate after truncate on requests
    for each statement execute function request_month_tallies_on_truncate()`.execute(db);

  // The requests already there.
  await sql`
    insert into request_month_tallies (audience, month, received)
    select ${BUCKET}, count(*)::int
    from requests where status <> 'cancelled'
    group by 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger requests_month_tallies_truncate on requests`.execute(db);
  await sql`drop trigger requests_month_tallies_update on requests`.execute(db);
  await sql`drop trigger requests_month_tallies_delete on requests`.execute(db);
  await sql`drop trigger requests_month_tallies_insert on requests`.execute(db);
  await sql`drop function request_month_tallies_on_truncate()`.execute(db);
  await sql`drop function request_month_tallies_on_update()`.execute(db);
  await sql`drop function request_month_tallies_on_insert_delete()`.execute(db);
  await sql`drop table request_month_tallies`.execute(db);
}
