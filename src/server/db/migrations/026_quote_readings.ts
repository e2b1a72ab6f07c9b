import { type Kysely, sql } from "kysely";
import { belongsTo, createdAt, idKey } from "./columns";

/**
 * Reading the uploaded devis (issue 17): one row per reading of a quote document, a small queue
 * (pending → running → done | failed) taken one row at a time by the reading runner of each
 * instance. The raw text read is a stored object (encrypted at rest like the documents), named by
 * text_key; the rows go with their request or document (cascade), the object with them (the
 * deleting code removes it, the sweeper otherwise).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("quote_readings")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("document_id", "documents"))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'running', 'done', 'failed')`),
    )
    .addColumn("kind", "text", (c) =>
      c.check(sql`kind is null or kind in ('text_pdf', 'scanned_pdf', 'image')`),
    )
    .addColumn("pages", "integer", (c) => c.notNull().defaultTo(0).check(sql`pages >= 0`))
    .addColumn("result", "jsonb")
    .addColumn("text_key", "text")
    .addColumn("message", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .$call(createdAt)
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("dismissed_at", "timestamptz")
    .execute();
  await sql`create index quote_readings_request_idx on quote_readings (request_id, created_at desc)`.execute(
    db,
  );
  // The queue: only the rows still to read (or being read) are in it.
  await sql`create index quote_readings_queue_idx on quote_readings (created_at) where status in ('pending', 'running')`.execute(
    db,
  );
  await sql`create index quote_readings_document_idx on quote_readings (document_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("quote_readings").ifExists().execute();
}
