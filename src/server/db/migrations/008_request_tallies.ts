import { type Kysely, sql } from "kysely";
import { type Counted, createTallyTriggers, fillTallies } from "./request-tallies";

/**
 * What the dentist list and dashboard need to stay fast at 100 000 requests (decision 009):
 *
 * - `request_tallies`: the number of non-cancelled requests per audience ('all' for requests sent
 *   to every verified dentist, else the recipient dentist's id), treatment type and Paris month,
 *   kept by triggers in the same transaction as the change. A dentist's visible count, this
 *   month's received requests and the treatment types present are sums over a few rows.
 * - Partial indexes that are exactly the visible requests of each audience (not cancelled), in
 *   list order, so a page is a merge of two index scans; one by treatment type for the filter.
 * - A trigram index on profiles.full_name for the patient-name search (ilike '%…%').
 */
/** Every request but the cancelled ones (migration 013 counts the open ones only). */
const COUNTED: Counted = {
  row: sql.raw("status <> 'cancelled'"),
  old: sql.raw("old.status <> 'cancelled'"),
  new: sql.raw("new.status <> 'cancelled'"),
  changed: sql.raw("(old.status = 'cancelled') is distinct from (new.status = 'cancelled')"),
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("request_tallies")
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("treatment_type", "text", (c) => c.notNull())
    // The first day of the request's month in Europe/Paris.
    .addColumn("month", "date", (c) => c.notNull())
    .addColumn("requests", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("request_tallies_pk", ["audience", "treatment_type", "month"])
    .execute();

  await createTallyTriggers(db, COUNTED);
  await sql`
    create trigger requests_tallies_insert after insert on requests
    referencing new table as new_rows for each statement
    execute function request_tallies_on_insert_delete()
  `.execute(db);
  await sql`
    create trigger requests_tallies_delete after delete on requests
    referencing old table as old_rows for each statement
    execute function request_tallies_on_insert_delete()
  `.execute(db);

  await sql`
    create function request_tallies_on_truncate() returns trigger language plpgsql as $$
    begin
      delete from request_tallies;
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create trigger requests_tallies_truncate after truncate on requests
    for each statement execute function request_tallies_on_truncate()
  `.execute(db);

  // The requests already there.
  await fillTallies(db, COUNTED);

  // Each audience's visible requests in list order (created_at desc, id desc).
  await sql`create index requests_open_visible_idx on requests (created_at desc, id desc) where recipient_dentist_id is null and status <> 'cancelled'`.execute(
    db,
  );
  await sql`create index requests_open_visible_treatment_idx on requests (treatment_type, created_at desc, id desc) where recipient_dentist_id is null and status <> 'cancelled'`.execute(
    db,
  );
  await sql`create index requests_addressed_visible_idx on requests (recipient_dentist_id, created_at desc, id desc) where recipient_dentist_id is not null and status <> 'cancelled'`.execute(
    db,
  );

  // Patient-name search (ilike '%term%'): PGlite loads pg_trgm (db/index.ts); PostgreSQL ships it
  // in contrib and lets a database owner create it (a trusted extension).
  await sql`create extension if not exists pg_trgm`.execute(db);
  // fastupdate off: PGlite has no autovacuum to merge GIN's pending list, which every search would
  // then read in full; profiles are written rarely.
  await sql`create index profiles_full_name_trgm_idx on profiles using gin (full_name gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists profiles_full_name_trgm_idx`.execute(db);
  for (const index of [
    "requests_addressed_visible_idx",
    "requests_open_visible_treatment_idx",
    "requests_open_visible_idx",
  ])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  for (const trigger of [
    "requests_tallies_truncate",
    "requests_tallies_update",
    "requests_tallies_delete",
    "requests_tallies_insert",
  ])
    await sql`drop trigger if exists ${sql.id(trigger)} on requests`.execute(db);
  for (const fn of [
    "request_tallies_on_truncate",
    "request_tallies_on_update",
    "request_tallies_on_insert_delete",
  ])
    await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
  await db.schema.dropTable("request_tallies").ifExists().execute();
}
