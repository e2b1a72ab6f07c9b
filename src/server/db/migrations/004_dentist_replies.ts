import { type Kysely, sql } from "kysely";
import { belongsTo, createdAt, idKey, timestamps } from "./columns";

/**
 * Each dentist's own state on a request and the conversations their replies open (ADR 007):
 * one conversation per request and dentist, the reply being its first message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("request_dentists")
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'responded', 'confirmed')`),
    )
    .addColumn("opened_at", "timestamptz")
    .addColumn("assigned_at", "timestamptz")
    .addColumn("replied_at", "timestamptz")
    .$call(timestamps)
    .addPrimaryKeyConstraint("request_dentists_pk", ["request_id", "dentist_id"])
    .execute();
  await sql`create index request_dentists_dentist_status_idx on request_dentists (dentist_id, status, request_id)`.execute(
    db,
  );

  await db.schema
    .createTable("conversations")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("patient_id", "profiles"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("last_message_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .$call(createdAt)
    .addUniqueConstraint("conversations_request_dentist_unique", ["request_id", "dentist_id"])
    .execute();
  await sql`create index conversations_patient_idx on conversations (patient_id, last_message_at desc)`.execute(
    db,
  );
  await sql`create index conversations_dentist_idx on conversations (dentist_id, last_message_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable("messages")
    .$call(idKey)
    .addColumn("conversation_id", "uuid", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("sender_id", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("read_at", "timestamptz")
    .$call(createdAt)
    .execute();
  await sql`create index messages_conversation_created_idx on messages (conversation_id, created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["messages", "conversations", "request_dentists"])
    await db.schema.dropTable(table).ifExists().execute();
}
