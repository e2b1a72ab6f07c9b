import { type Kysely, sql } from "kysely";

/**
 * Each dentist's own state on a request and the conversations their replies open (ADR 007):
 * one conversation per request and dentist, the reply being its first message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("request_dentists")
    .addColumn("request_id", "uuid", (c) => c.notNull().references("requests.id").onDelete("cascade"))
    .addColumn("dentist_id", "uuid", (c) => c.notNull().references("profiles.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'responded', 'confirmed')`),
    )
    .addColumn("opened_at", "timestamptz")
    .addColumn("assigned_at", "timestamptz")
    .addColumn("replied_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("request_dentists_pk", ["request_id", "dentist_id"])
    .execute();
  await sql`create index request_dentists_dentist_status_idx on request_dentists (dentist_id, status, request_id)`.execute(
    db,
  );

  await db.schema
    .createTable("conversations")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("request_id", "uuid", (c) => c.notNull().references("requests.id").onDelete("cascade"))
    .addColumn("patient_id", "uuid", (c) => c.notNull().references("profiles.id").onDelete("cascade"))
    .addColumn("dentist_id", "uuid", (c) => c.notNull().references("profiles.id").onDelete("cascade"))
    .addColumn("last_message_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
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
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("conversation_id", "uuid", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("sender_id", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("read_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index messages_conversation_created_idx on messages (conversation_id, created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["messages", "conversations", "request_dentists"])
    await db.schema.dropTable(table).ifExists().execute();
}
