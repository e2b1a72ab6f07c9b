import type { Kysely } from "kysely";
import { createdAt, idKey } from "./columns";

/** Messages sent with the public contact form (`contact_submissions`), one optional file. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("contact_submissions")
    .$call(idKey)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("treatment_type", "text")
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("file_key", "text")
    .addColumn("file_name", "text")
    .addColumn("file_size", "integer")
    .addColumn("file_type", "text")
    .addColumn("read_at", "timestamptz")
    .$call(createdAt)
    .execute();
  await db.schema
    .createIndex("contact_submissions_created_idx")
    .on("contact_submissions")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contact_submissions").ifExists().execute();
}
