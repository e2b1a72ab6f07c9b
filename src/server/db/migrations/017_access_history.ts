import { type Kysely, sql } from "kysely";

/**
 * The patient's access history covers every read of their health data by someone else (issue 14),
 * not only documents: a dentist opening the request page (`request_view`, no document) and the
 * other party opening a chat attachment the patient sent (`attachment_view` / `attachment_download`,
 * the file's name copied in `object_name`, as actor_name copies the reader's name).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table document_access alter column document_id drop not null`.execute(db);
  await sql`alter table document_access add column object_name text`.execute(db);
  await sql`alter table document_access drop constraint if exists document_access_action_check`.execute(db);
  await sql`
    alter table document_access add constraint document_access_action_check
    check (action in ('view', 'download', 'request_view', 'attachment_view', 'attachment_download'))
  `.execute(db);
  // A document read names its document; the other reads do not.
  await sql`
    alter table document_access add constraint document_access_document_check
    check ((action in ('view', 'download')) = (document_id is not null))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from document_access where document_id is null`.execute(db);
  await sql`alter table document_access drop constraint if exists document_access_document_check`.execute(db);
  await sql`alter table document_access drop constraint if exists document_access_action_check`.execute(db);
  await sql`alter table document_access add constraint document_access_action_check check (action in ('view', 'download'))`.execute(
    db,
  );
  await sql`alter table document_access drop column object_name`.execute(db);
  await sql`alter table document_access alter column document_id set not null`.execute(db);
}
