import { type Kysely, sql } from "kysely";
import {
  counted,
  OPEN,
  RESET_ANSWERED,
  recountDentists,
  tallyFunction,
  tallyTriggers,
  truncateFunction,
} from "./041_dentist_tallies";

/**
 * A dentist sets a request aside (« Ne pas donner suite », ADR 091): it leaves his requests to answer
 * and his "À faire", and stays in his lists under « Écartées » until he puts it back or answers it.
 *
 * - `request_dentists.set_aside_at`: when he set it aside (null: not set aside). Counted only on a row
 *   still pending: an answer takes the request out of his requests to answer anyway.
 * - `dentist_tallies.set_aside`: his pending rows set aside on a request still open to him (the same
 *   requests as `answered`, migration 041), what the "to answer" count subtracts besides `answered`.
 *   Kept by migration 041's triggers, whose functions now count it too; an update of a row counts
 *   again when its `set_aside_at` is set or cleared.
 * - His rows set aside, in the order of their requests (the « Écartées » list), from a partial index.
 */

/** 041's recount, then the set-aside rows of the same dentists on the requests still open to them. */
const recountWithSetAside = (ids: string) => `
  ${recountDentists(ids)};
  update dentist_tallies t set set_aside = x.set_aside
  from (
    select k.dentist_id,
      (select count(*)::int from request_dentists rd join requests r on r.id = rd.request_id
        where rd.dentist_id = k.dentist_id and rd.status = 'pending' and rd.set_aside_at is not null
          and r.status in ${OPEN}
          and (r.recipient_dentist_id is null or r.recipient_dentist_id = k.dentist_id)) as set_aside
    from dentist_tallies k where k.dentist_id in (${ids})
  ) x
  where t.dentist_id = x.dentist_id and t.set_aside <> x.set_aside`;

/** What of a row the tallies count: 041's, and whether it is set aside. */
const countedWithSetAside = (r: string) => `(${counted(r)}, ${r}.set_aside_at is not null)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_dentists add column set_aside_at timestamptz`.execute(db);
  await sql`alter table dentist_tallies add column set_aside integer not null default 0`.execute(db);
  await sql`create index request_dentists_set_aside_idx on request_dentists (dentist_id, request_id)
    where set_aside_at is not null`.execute(db);
  for (const { table, op, ids } of tallyTriggers(countedWithSetAside)) {
    await sql.raw(tallyFunction("create or replace", table, op, ids, recountWithSetAside)).execute(db);
  }
  await sql
    .raw(
      truncateFunction(
        "create or replace",
        "update dentist_tallies set answered = 0, set_aside = 0 where answered <> 0 or set_aside <> 0",
      ),
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table, op, ids } of tallyTriggers(counted)) {
    await sql.raw(tallyFunction("create or replace", table, op, ids, recountDentists)).execute(db);
  }
  await sql.raw(truncateFunction("create or replace", RESET_ANSWERED)).execute(db);
  await sql`drop index request_dentists_set_aside_idx`.execute(db);
  await sql`alter table dentist_tallies drop column set_aside`.execute(db);
  await sql`alter table request_dentists drop column set_aside_at`.execute(db);
}
