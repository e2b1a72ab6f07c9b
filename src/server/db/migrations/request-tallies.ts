import { type Kysely, type RawBuilder, sql } from "kysely";

/**
 * The request tallies' upkeep (migrations 008 and 013, ADR 009): which requests are counted is the only thing that changed between the two, so both build the
 * same triggers and fill from a predicate on the request row. Applied migrations call these: what they
 * build must never change (`db/schema.test.ts` holds the resulting schema).
 */
export interface Counted {
  /** The predicate on a request's own columns (`status <> 'cancelled'`). */
  row: RawBuilder<unknown>;
  /** The same on the row before an update (`old.status …`). */
  old: RawBuilder<unknown>;
  /** The same on the row after an update (`new.status …`). */
  new: RawBuilder<unknown>;
  /** The update trigger's test that the predicate's answer changed. */
  changed: RawBuilder<unknown>;
}

const BUCKET = sql.raw(`coalesce(recipient_dentist_id::text, 'all'), treatment_type,
               date_trunc('month', created_at at time zone 'Europe/Paris')::date`);

export async function createTallyTriggers(db: Kysely<unknown>, counted: Counted): Promise<void> {
  // Inserts and deletes (including a patient's requests deleted in cascade): one statement-level
  // trigger each, so a bulk statement updates each tally row once.
  await sql`
    create or replace function request_tallies_on_insert_delete() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into request_tallies as t (audience, treatment_type, month, requests)
        select ${BUCKET}, count(*)::int
        from new_rows where ${counted.row}
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (audience, treatment_type, month) do update set requests = t.requests + excluded.requests;
      else
        insert into request_tallies as t (audience, treatment_type, month, requests)
        select ${BUCKET}, -count(*)::int
        from old_rows where ${counted.row}
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (audience, treatment_type, month) do update set requests = t.requests + excluded.requests;
      end if;
      return null;
    end
    $$
  `.execute(db);

  // Updates: only those that change what is counted (counted or not, audience, type, month).
  await sql`
    create or replace function request_tallies_on_update() returns trigger language plpgsql as $$
    begin
      if ${counted.old} then
        insert into request_tallies as t (audience, treatment_type, month, requests)
        values (coalesce(old.recipient_dentist_id::text, 'all'), old.treatment_type,
                date_trunc('month', old.created_at at time zone 'Europe/Paris')::date, -1)
        on conflict (audience, treatment_type, month) do update set requests = t.requests - 1;
      end if;
      if ${counted.new} then
        insert into request_tallies as t (audience, treatment_type, month, requests)
        values (coalesce(new.recipient_dentist_id::text, 'all'), new.treatment_type,
                date_trunc('month', new.created_at at time zone 'Europe/Paris')::date, 1)
        on conflict (audience, treatment_type, month) do update set requests = t.requests + 1;
      end if;
      return null;
    end
    $$
  `.execute(db);
  await sql`drop trigger if exists requests_tallies_update on requests`.execute(db);
  await sql`
    create trigger requests_tallies_update
    after update of status, recipient_dentist_id, treatment_type, created_at on requests
    for each row
    when (
      ${counted.changed}
      or old.recipient_dentist_id is distinct from new.recipient_dentist_id
      or old.treatment_type is distinct from new.treatment_type
      or old.created_at is distinct from new.created_at
    )
    execute function request_tallies_on_update()
  `.execute(db);
}

/** The tallies of the requests already there. */
export async function fillTallies(db: Kysely<unknown>, counted: Counted): Promise<void> {
  await sql`delete from request_tallies`.execute(db);
  await sql`
    insert into request_tallies (audience, treatment_type, month, requests)
    select ${BUCKET}, count(*)::int
    from requests where ${counted.row}
    group by 1, 2, 3
  `.execute(db);
}
