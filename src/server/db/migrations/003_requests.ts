import { type Kysely, sql } from "kysely";
import { belongsTo, createdAt, idKey, timestamps } from "./columns";

/** Patient requests (`patient_document_submissions`), their documents and who opened them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("requests")
    .$call(idKey)
    .$call(belongsTo("patient_id", "profiles"))
    .addColumn("treatment_type", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("budget", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("quote_amount_cents", "integer", (c) => c.check(sql`quote_amount_cents > 0`))
    .addColumn("urgency", "text", (c) =>
      c.notNull().defaultTo("medium").check(sql`urgency in ('high', 'medium', 'low')`),
    )
    // null: every verified dentist may see it (ADR 012); otherwise only this dentist.
    .addColumn("recipient_dentist_id", "uuid", (c) => c.references("profiles.id"))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("new").check(sql`status in ('new', 'in_review', 'completed', 'cancelled')`),
    )
    .addColumn("cancelled_at", "timestamptz")
    .$call(timestamps)
    .execute();
  await sql`create index requests_patient_created_idx on requests (patient_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index requests_recipient_created_idx on requests (recipient_dentist_id, created_at desc) where recipient_dentist_id is not null`.execute(
    db,
  );
  await sql`create index requests_open_to_all_created_idx on requests (created_at desc) where recipient_dentist_id is null`.execute(
    db,
  );

  await db.schema
    .createTable("documents")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("owner_id", "profiles"))
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("document_type", "text", (c) =>
      c.notNull().defaultTo("other").check(sql`document_type in ('xray', 'quote', 'photo', 'other')`),
    )
    // The order in which the patient gave the files.
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .$call(createdAt)
    .execute();
  await db.schema
    .createIndex("documents_request_idx")
    .on("documents")
    .columns(["request_id", "position"])
    .execute();

  await db.schema
    .createTable("document_access")
    .$call(idKey)
    .$call(belongsTo("document_id", "documents"))
    .$call(belongsTo("request_id", "requests"))
    .addColumn("actor_id", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    .addColumn("actor_name", "text", (c) => c.notNull())
    .addColumn("actor_kind", "text", (c) => c.notNull().check(sql`actor_kind in ('dentist', 'admin')`))
    .addColumn("action", "text", (c) => c.notNull().check(sql`action in ('view', 'download')`))
    .$call(createdAt)
    .execute();
  await sql`create index document_access_request_idx on document_access (request_id, created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["document_access", "documents", "requests"])
    await db.schema.dropTable(table).ifExists().execute();
}
