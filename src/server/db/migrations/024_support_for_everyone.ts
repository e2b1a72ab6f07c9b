import { type Kysely, sql } from "kysely";

/**
 * Support for everyone (issue 16, item 7, ADR 018): a support thread belongs to one person, patient
 * or dentist (`support_threads.patient_id` keeps its name and now means "the thread's owner"); the
 * thread records its owner's role for the team's filter, and a message may name the request it is
 * about ("Besoin d'aide ?" on a request page).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table support_threads add column role text not null default 'patient'
    check (role in ('patient', 'dentist'))`.execute(db);
  await sql`update support_threads t set role = 'dentist'
    from profiles p where p.id = t.patient_id and p.role = 'dentist'`.execute(db);
  // The team's inbox filtered by role, latest first.
  await sql`create index support_threads_role_last_idx on support_threads (role, last_message_at desc, patient_id desc)`.execute(
    db,
  );
  await sql`alter table support_messages add column request_id uuid references requests(id) on delete set null`.execute(
    db,
  );
  await sql`create index support_messages_request_idx on support_messages (request_id) where request_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists support_messages_request_idx`.execute(db);
  await sql`alter table support_messages drop column request_id`.execute(db);
  await sql`drop index if exists support_threads_role_last_idx`.execute(db);
  await sql`delete from support_threads where role <> 'patient'`.execute(db);
  await sql`alter table support_threads drop column role`.execute(db);
}
