import { type Kysely, sql } from "kysely";

/**
 * Issue 38 (ADR 057, addendum): the dentist dashboard's own figures, kept by the database instead of
 * aggregated over all of the dentist's `request_dentists` rows (joined to their requests) on every
 * read.
 *
 * - `dentist_tallies` (one row per dentist who has a row): `answered`, his rows answered (status
 *   responded or confirmed) on a request still open to him (status new or in review, sent to every
 *   dentist or to him by name), what the dashboard's "to answer" and response rate subtract;
 * - `dentist_month_tallies` (per dentist and month in Europe/Paris): `replies`, his rows whose
 *   `replied_at` falls in that month, and `confirmations`, his confirmed rows whose `updated_at`
 *   falls in it. The dashboard sums the months from the current one on: the same rows as
 *   `replied_at >= ` (or `updated_at >= `) the month's first midnight in Paris.
 *
 * Kept by statement triggers (insert, update, delete with their transition tables; truncate) on
 * `request_dentists`, and on updates of `requests` that change whether a request is open or to whom
 * it is sent, in the writing transaction: the dentists a statement touched are counted again, under
 * a lock on their `dentist_tallies` row (created first when missing), so that two transactions
 * writing for one dentist at once on PostgreSQL do not each count from a snapshot missing the
 * other's row (migration 040, `counters-concurrency.test.ts`). Rows are written only where a figure
 * changed. A request deleted deletes its rows in cascade (their trigger counts again); a profile
 * deleted deletes its tallies in cascade.
 *
 * Neither table notifies (ADR 052): the dashboard that reads them is told by the writes that change
 * them (`request_dentists:` names its dentist; a request's status or recipient names every dentist
 * with a row on it).
 */

export const DENTIST_TALLY_SILENT_TABLES = ["dentist_tallies", "dentist_month_tallies"] as const;

/** The statuses of a request still open to offers (access/rules.ts, OPEN_REQUEST_STATUSES). */
export const OPEN = "('new', 'in_review')";

/** The month, in Paris, of a timestamp (as request_tallies counts months, migration 008). */
const parisMonth = (column: string) => `date_trunc('month', ${column} at time zone 'Europe/Paris')::date`;

/** The dentists whose ids `ids` selects, their tallies counted again, under a lock. */
export const recountDentists = (ids: string) => `
  insert into dentist_tallies (dentist_id)
    select p.id from profiles p where p.id in (${ids}) order by p.id
    on conflict (dentist_id) do nothing;
  perform 1 from dentist_tallies where dentist_id in (${ids}) order by dentist_id for no key update;
  update dentist_tallies t set answered = x.answered
  from (
    select k.dentist_id,
      (select count(*)::int from request_dentists rd join requests r on r.id = rd.request_id
        where rd.dentist_id = k.dentist_id and rd.status in ('responded', 'confirmed')
          and r.status in ${OPEN}
          and (r.recipient_dentist_id is null or r.recipient_dentist_id = k.dentist_id)) as answered
    from dentist_tallies k where k.dentist_id in (${ids})
  ) x
  where t.dentist_id = x.dentist_id and t.answered <> x.answered;
  delete from dentist_month_tallies t
  where t.dentist_id in (${ids}) and not exists (
    select 1 from request_dentists rd where rd.dentist_id = t.dentist_id and (
      (rd.replied_at is not null and ${parisMonth("rd.replied_at")} = t.month)
      or (rd.status = 'confirmed' and ${parisMonth("rd.updated_at")} = t.month)));
  insert into dentist_month_tallies as t (dentist_id, month, replies, confirmations)
    select x.dentist_id, x.month, sum(x.replies)::int, sum(x.confirmations)::int
    from (
      select rd.dentist_id, ${parisMonth("rd.replied_at")} as month, 1 as replies, 0 as confirmations
      from request_dentists rd where rd.dentist_id in (${ids}) and rd.replied_at is not null
      union all
      select rd.dentist_id, ${parisMonth("rd.updated_at")}, 0, 1
      from request_dentists rd where rd.dentist_id in (${ids}) and rd.status = 'confirmed'
    ) x
    group by 1, 2 order by 1, 2
    on conflict (dentist_id, month) do update
      set replies = excluded.replies, confirmations = excluded.confirmations
      where (t.replies, t.confirmations) is distinct from (excluded.replies, excluded.confirmations)`;

/** What of a `request_dentists` row the tallies count (an update changing none of it counts nothing again). */
export const counted = (r: string) =>
  `(${r}.request_id, ${r}.dentist_id, ${r}.status, ${r}.replied_at, case when ${r}.status = 'confirmed' then ${r}.updated_at end)`;

/**
 * Per trigger: the table, the event, the ids of the dentists to count again, an update of a row
 * counting again when `counts` of it changed (migration 055 counts one more column).
 */
export const tallyTriggers = (
  counts: (r: string) => string,
): { table: string; op: "insert" | "update" | "delete"; ids: string }[] => [
  { table: "request_dentists", op: "insert", ids: "select dentist_id from new_rows" },
  { table: "request_dentists", op: "delete", ids: "select dentist_id from old_rows" },
  {
    table: "request_dentists",
    op: "update",
    // Rows paired by their key (a hash join, also for a bulk update); a row whose key changed is
    // counted again on both sides.
    ids: `select o.dentist_id from old_rows o
        left join new_rows n on n.request_id = o.request_id and n.dentist_id = o.dentist_id
        where n.request_id is null or ${counts("o")} is distinct from ${counts("n")}
      union select n.dentist_id from new_rows n
        left join old_rows o on o.request_id = n.request_id and o.dentist_id = n.dentist_id
        where o.request_id is null`,
  },
  {
    table: "requests",
    op: "update",
    ids: `select rd.dentist_id from request_dentists rd where rd.request_id in (
        select o.id from old_rows o join new_rows n on n.id = o.id
        where (o.status in ${OPEN}, o.recipient_dentist_id) is distinct from (n.status in ${OPEN}, n.recipient_dentist_id))`,
  },
];

const TRIGGERS = tallyTriggers(counted);

/** A trigger's function: the dentists `ids` selects counted again by `recount`, when there are any. */
export const tallyFunction = (
  verb: "create" | "create or replace",
  table: string,
  op: string,
  ids: string,
  recount: (ids: string) => string,
) => `
  ${verb} function sourio_dentist_tallies_${table}_${op}() returns trigger language plpgsql as $$
  begin
    if exists (${ids}) then
      ${recount(ids)};
    end if;
    return null;
  end
  $$`;

/** The truncate trigger's function: `reset` sets the dentists' counts back to 0, the months go. */
export const truncateFunction = (verb: "create" | "create or replace", reset: string) => `
  ${verb} function sourio_dentist_tallies_truncate() returns trigger language plpgsql as $$
  begin
    ${reset};
    delete from dentist_month_tallies;
    return null;
  end
  $$`;

/** What a truncate resets here (migration 055 resets one more count). */
export const RESET_ANSWERED = "update dentist_tallies set answered = 0 where answered <> 0";

const transition = (op: string) =>
  op === "insert"
    ? "new table as new_rows"
    : op === "delete"
      ? "old table as old_rows"
      : "old table as old_rows new table as new_rows";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dentist_tallies (
      dentist_id uuid primary key references profiles(id) on delete cascade,
      answered integer not null default 0
    )`.execute(db);
  await sql`
    create table dentist_month_tallies (
      dentist_id uuid not null references profiles(id) on delete cascade,
      month date not null,
      replies integer not null default 0,
      confirmations integer not null default 0,
      primary key (dentist_id, month)
    )`.execute(db);
  // The dashboard's 30-day average response time reads only the rows replied to in the last 30 days.
  await sql`create index request_dentists_dentist_replied_idx on request_dentists (dentist_id, replied_at)
    where replied_at is not null`.execute(db);

  for (const { table, op, ids } of TRIGGERS) {
    // Only the dentists that some row concerns: a statement changing nothing counted does nothing.
    await sql.raw(tallyFunction("create", table, op, ids, recountDentists)).execute(db);
    await sql
      .raw(`
        create trigger ${table}_dentist_tallies_${op} after ${op} on ${table}
        referencing ${transition(op)} for each statement
        execute function sourio_dentist_tallies_${table}_${op}()`)
      .execute(db);
  }
  await sql.raw(truncateFunction("create", RESET_ANSWERED)).execute(db);
  await sql`
    create trigger request_dentists_dentist_tallies_truncate after truncate on request_dentists
    for each statement execute function sourio_dentist_tallies_truncate()`.execute(db);

  // The rows already there.
  await sql
    .raw(`do $$ begin ${recountDentists("select distinct dentist_id from request_dentists")}; end $$`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger request_dentists_dentist_tallies_truncate on request_dentists`.execute(db);
  await sql`drop function sourio_dentist_tallies_truncate()`.execute(db);
  for (const { table, op } of TRIGGERS) {
    await sql.raw(`drop trigger ${table}_dentist_tallies_${op} on ${table}`).execute(db);
    await sql.raw(`drop function sourio_dentist_tallies_${table}_${op}()`).execute(db);
  }
  await sql`drop index request_dentists_dentist_replied_idx`.execute(db);
  await sql`drop table dentist_month_tallies`.execute(db);
  await sql`drop table dentist_tallies`.execute(db);
}
