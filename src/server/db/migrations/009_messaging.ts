import { type Kysely, sql } from "kysely";
import { belongsTo, idKey } from "./columns";

/**
 * Live conversations (ADR 007, ADR 010): files attached to messages (private to the two parties), the
 * unread-message e-mails' throttle per conversation and recipient (persisted, so a restart neither
 * loses nor repeats them), and an index for unread counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("message_attachments")
    .$call(idKey)
    .$call(belongsTo("message_id", "messages"))
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index message_attachments_message_idx on message_attachments (message_id, position)`.execute(
    db,
  );

  await db.schema.alterTable("conversations").addColumn("patient_notified_at", "timestamptz").execute();
  await db.schema.alterTable("conversations").addColumn("dentist_notified_at", "timestamptz").execute();
  await sql`create index messages_unread_idx on messages (conversation_id, created_at) where read_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_unread_idx`.execute(db);
  await db.schema.alterTable("conversations").dropColumn("dentist_notified_at").execute();
  await db.schema.alterTable("conversations").dropColumn("patient_notified_at").execute();
  await db.schema.dropTable("message_attachments").ifExists().execute();
}
