import { type Kysely, sql } from "kysely";

/**
 * The patient's access history also holds the team's reads of their support thread and its images
 * (issue 14): such a row names the patient whose thread was read instead of a request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table document_access alter column request_id drop not null`.execute(db);
  await sql`alter table document_access add column support_patient_id uuid references profiles(id) on delete cascade`.execute(
    db,
  );
  await sql`alter table document_access drop constraint if exists document_access_action_check`.execute(db);
  await sql`
    alter table document_access add constraint document_access_action_check
    check (action in ('view', 'download', 'request_view', 'attachment_view', 'attachment_download',
                      'support_thread_view', 'support_image_view'))
  `.execute(db);
  // A read is about one request or about one patient's support thread, never both.
  await sql`alter table document_access add constraint document_access_subject_check
    check ((request_id is null) <> (support_patient_id is null)
       and (request_id is null) = (action in ('support_thread_view', 'support_image_view')))`.execute(db);
  await sql`create index document_access_support_idx on document_access (support_patient_id, created_at desc)
    where support_patient_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from document_access where support_patient_id is not null`.execute(db);
  await sql`drop index if exists document_access_support_idx`.execute(db);
  await sql`alter table document_access drop constraint if exists document_access_subject_check`.execute(db);
  await sql`alter table document_access drop column support_patient_id`.execute(db);
  await sql`alter table document_access alter column request_id set not null`.execute(db);
  await sql`alter table document_access drop constraint if exists document_access_action_check`.execute(db);
  await sql`
    alter table document_access add constraint document_access_action_check
    check (action in ('view', 'download', 'request_view', 'attachment_view', 'attachment_download'))
  `.execute(db);
}
