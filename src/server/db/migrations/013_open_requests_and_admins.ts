import { type Kysely, sql } from "kysely";
import { type Counted, createTallyTriggers, fillTallies } from "./request-tallies";

/**
 * Issue 13 (ADR 012):
 *
 * - A completed or cancelled request is no longer open to every verified dentist: the request
 *   tallies count open requests only (new, in review), and the partial indexes of the dentist list
 *   are exactly the open requests of each audience, so the list stays a merge of index scans.
 * - Admins are not patients: `profiles.role` may be null (an admin who is neither patient nor
 *   dentist); the admins made by ADMIN_EMAIL / create-admin who never used the patient area lose the
 *   patient role they were given by default.
 */
const OPEN = sql.raw("status in ('new', 'in_review')");
const OPEN_COUNTED: Counted = {
  row: OPEN,
  old: sql.raw("old.status in ('new', 'in_review')"),
  new: sql.raw("new.status in ('new', 'in_review')"),
  changed: sql.raw(
    "(old.status in ('new', 'in_review')) is distinct from (new.status in ('new', 'in_review'))",
  ),
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTallyTriggers(db, OPEN_COUNTED);
  await fillTallies(db, OPEN_COUNTED);

  for (const index of [
    "requests_addressed_visible_idx",
    "requests_open_visible_treatment_idx",
    "requests_open_visible_idx",
  ])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  await sql`create index requests_open_all_idx on requests (created_at desc, id desc) where recipient_dentist_id is null and ${OPEN}`.execute(
    db,
  );
  await sql`create index requests_open_all_treatment_idx on requests (treatment_type, created_at desc, id desc) where recipient_dentist_id is null and ${OPEN}`.execute(
    db,
  );
  await sql`create index requests_open_addressed_idx on requests (recipient_dentist_id, created_at desc, id desc) where recipient_dentist_id is not null and ${OPEN}`.execute(
    db,
  );
  // The requests a dentist was chosen for (his accepted offers).
  await sql`create index offers_accepted_dentist_idx on offers (dentist_id) where status = 'accepted'`.execute(
    db,
  );

  await sql`alter table profiles alter column role drop not null`.execute(db);
  await sql`
    update profiles set role = null, updated_at = now()
    where is_admin and role = 'patient'
      and not exists (select 1 from requests r where r.patient_id = profiles.id)
      and not exists (select 1 from support_messages s where s.patient_id = profiles.id)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update profiles set role = 'patient' where role is null`.execute(db);
  await sql`alter table profiles alter column role set not null`.execute(db);
  await sql`drop index if exists offers_accepted_dentist_idx`.execute(db);
  for (const index of [
    "requests_open_addressed_idx",
    "requests_open_all_treatment_idx",
    "requests_open_all_idx",
  ])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  // The tallies and indexes of migration 008 come back by re-running its up() after this one.
}
