import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { FILE_KEY_COLUMNS, NOT_FILE_KEYS } from "./file-keys";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" } });
});
afterAll(async () => ctx?.close());

/**
 * What a file reference is called in the migrations: `storage_key`, `file_key`, `image_key`,
 * `avatar_url`. Any column named like one of these must be decided on in db/file-keys.ts.
 */
const LOOKS_LIKE_A_FILE = /(^|_)(key|url|image|file|path)$/;

describe("FILE_KEY_COLUMNS", () => {
  it("names every column of the migrated database that may refer to a stored file", async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()
      order by table_name, column_name`.execute(ctx.app.db);
    const columns = rows.map((r) => `${r.table_name}.${r.column_name}`);
    const listed = FILE_KEY_COLUMNS.map((c) => `${c.table}.${c.column}`);
    const excluded = NOT_FILE_KEYS.map((c) => `${c.table}.${c.column}`);

    // Every listed column exists (a rename would silently stop protecting its files).
    for (const column of [...listed, ...excluded]) expect(columns, column).toContain(column);
    // Every column that looks like a file reference is decided on.
    const undecided = rows
      .filter((r) => LOOKS_LIKE_A_FILE.test(r.column_name))
      .map((r) => `${r.table_name}.${r.column_name}`)
      .filter((c) => !listed.includes(c) && !excluded.includes(c));
    expect(undecided, "ajoutez ces colonnes à FILE_KEY_COLUMNS ou à NOT_FILE_KEYS (db/file-keys.ts)").toEqual(
      [],
    );
  });

  it("holds the columns the product writes storage keys to", () => {
    expect(FILE_KEY_COLUMNS.map((c) => `${c.table}.${c.column}`).sort()).toEqual([
      "contact_submissions.file_key",
      "documents.storage_key",
      "invoice_files.storage_key",
      "message_attachments.storage_key",
      "profiles.avatar_url",
      "quote_readings.text_key",
      "support_messages.image_key",
    ]);
  });
});
