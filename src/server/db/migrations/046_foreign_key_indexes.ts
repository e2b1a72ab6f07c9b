import { type Kysely, sql } from "kysely";

/**
 * An index behind every foreign key. PostgreSQL indexes the referenced key, not the referencing
 * column: deleting a document looked for its access rows (`document_access.document_id`, on delete
 * cascade) by reading the whole access history, once per document; erasing an account set its
 * messages, support messages, access rows and moderation decisions to null, and deleted its reports,
 * the same way (and its appointments and reviews, whose indexes hold only live appointments and
 * published reviews); the export and the erasure filter on these columns too (`documents.owner_id`,
 * `document_access.actor_id`, `messages.sender_id`, `review_reports.dentist_id`). A partial index
 * `where col is not null` serves its key as well as a full one. The catalog test
 * `schema.test.ts` › « every foreign key leads an index » keeps it so for new tables.
 */
const INDEXES = [
  ["appointments_dentist_idx", "appointments", "dentist_id"],
  ["appointments_offer_idx", "appointments", "offer_id"],
  ["appointments_patient_idx", "appointments", "patient_id"],
  ["contact_submissions_handled_by_idx", "contact_submissions", "handled_by"],
  ["document_access_actor_idx", "document_access", "actor_id"],
  ["document_access_document_idx", "document_access", "document_id"],
  ["documents_owner_idx", "documents", "owner_id"],
  ["messages_sender_idx", "messages", "sender_id"],
  ["review_reports_closed_by_idx", "review_reports", "closed_by"],
  ["review_reports_dentist_idx", "review_reports", "dentist_id"],
  ["reviews_decided_by_idx", "reviews", "decided_by"],
  ["reviews_dentist_idx", "reviews", "dentist_id"],
  ["support_messages_sender_idx", "support_messages", "sender_id"],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES)
    await sql`create index ${sql.id(name)} on ${sql.id(table)} (${sql.id(column)})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await sql`drop index ${sql.id(name)}`.execute(db);
}
