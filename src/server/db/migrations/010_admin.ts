import { type Kysely, sql } from "kysely";
import { createdAt, idKey } from "./columns";

/**
 * The admin area (issue 7): verification decisions on the dentist's profile, the patients'
 * support chat with the team, handled contact messages, and indexes for the users tables
 * (search and paging over 20 000 accounts) and the audit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("profiles")
    .addColumn("verification_decided_at", "timestamptz")
    .addColumn("verification_refusal_reason", "text")
    .execute();
  // The users tables: newest first with the id as tie-break, so a page never sorts the whole role
  // (replaces migration 001's (role, created_at)); searches use the trigram indexes.
  await sql`drop index if exists profiles_role_created_idx`.execute(db);
  await sql`create index profiles_role_created_id_idx on profiles (role, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index profiles_email_trgm_idx on profiles using gin (email gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
  await sql`create index profiles_verification_queue_idx on profiles (verification_requested_at) where verification_requested_at is not null and not is_verified`.execute(
    db,
  );

  await db.schema
    .createTable("support_threads")
    .addColumn("patient_id", "uuid", (c) => c.primaryKey().references("profiles.id").onDelete("cascade"))
    .addColumn("last_message_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("patient_notified_at", "timestamptz")
    .execute();
  await sql`create index support_threads_last_idx on support_threads (last_message_at desc, patient_id desc)`.execute(
    db,
  );
  await db.schema
    .createTable("support_messages")
    .$call(idKey)
    .addColumn("patient_id", "uuid", (c) =>
      c.notNull().references("support_threads.patient_id").onDelete("cascade"),
    )
    .addColumn("sender_id", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    // Written by the team (an admin) or by the patient.
    .addColumn("from_team", "boolean", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_key", "text", (c) => c.unique())
    .addColumn("image_name", "text")
    .addColumn("image_type", "text")
    .addColumn("image_size", "integer")
    // Read by the other side (the team for a patient's message, the patient for a reply).
    .addColumn("read_at", "timestamptz")
    .$call(createdAt)
    .execute();
  await sql`create index support_messages_thread_idx on support_messages (patient_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index support_messages_unread_idx on support_messages (patient_id) where read_at is null`.execute(
    db,
  );

  await db.schema
    .alterTable("contact_submissions")
    .addColumn("handled_at", "timestamptz")
    .addColumn("handled_by", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    .execute();

  await sql`create index audit_log_created_idx on audit_log (created_at desc, id desc)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (actor_id, created_at desc)`.execute(db);
  await sql`create index document_access_created_idx on document_access (created_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    "document_access_created_idx",
    "audit_log_actor_idx",
    "audit_log_created_idx",
    "profiles_verification_queue_idx",
    "profiles_email_trgm_idx",
    "profiles_role_created_id_idx",
  ])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  await sql`create index profiles_role_created_idx on profiles (role, created_at)`.execute(db);
  await db.schema
    .alterTable("contact_submissions")
    .dropColumn("handled_by")
    .dropColumn("handled_at")
    .execute();
  await db.schema.dropTable("support_messages").ifExists().execute();
  await db.schema.dropTable("support_threads").ifExists().execute();
  await db.schema
    .alterTable("profiles")
    .dropColumn("verification_refusal_reason")
    .dropColumn("verification_decided_at")
    .execute();
}
