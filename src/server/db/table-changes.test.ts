import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import {
  NOTIFYING_TABLES as NOTIFYING_028,
  SILENT_TABLES as SILENT_028,
} from "./migrations/028_table_changes";
import { NOTIFYING_TABLES_033, SILENT_TABLES_033 } from "./migrations/033_subscriptions";
import { REVIEW_NOTIFYING_TABLES, REVIEW_SILENT_TABLES } from "./migrations/035_reviews";

/** The tables of each migration that decides: 028 for the older ones, then each new one its own. */
const NOTIFYING_TABLES = [...NOTIFYING_028, ...NOTIFYING_TABLES_033, ...REVIEW_NOTIFYING_TABLES];
const SILENT_TABLES = [...SILENT_028, ...SILENT_TABLES_033, ...REVIEW_SILENT_TABLES];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.bus.listening();
});
afterAll(async () => ctx?.close());

describe("the tables' change notifications (migration 028, ADR 030)", () => {
  it("decides on every table: it notifies its changes, or no cached answer reads it", async () => {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by table_name`.execute(ctx.app.db);
    const tables = rows.map((r) => r.name);
    const decided: string[] = [...NOTIFYING_TABLES, ...SILENT_TABLES];
    for (const table of decided) expect(tables, table).toContain(table);
    expect(
      tables.filter((t) => !decided.includes(t)),
      "ajoutez ces tables à NOTIFYING_TABLES (nouvelle migration) ou à SILENT_TABLES",
    ).toEqual([]);
  });

  it("has a statement trigger on each notifying table, and none on the others", async () => {
    const { rows } = await sql<{ table: string }>`
      select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_proc p on p.oid = t.tgfoid
      where p.proname = 'sourio_table_changed' and not t.tgisinternal`.execute(ctx.app.db);
    expect(rows.map((r) => r.table).sort()).toEqual([...NOTIFYING_TABLES].sort());
  });

  it("tells the bus the table a committed write changed, and nothing of a rolled-back one", async () => {
    const seen: string[] = [];
    ctx.app.bus.onTableChange((table) => seen.push(table));
    await sql`update profiles set updated_at = updated_at where false`.execute(ctx.app.db);
    await ctx.app.bus.sync();
    expect(seen).toContain("profiles");
    seen.length = 0;
    await ctx.app.db
      .transaction()
      .execute(async (trx) => {
        await sql`update offers set updated_at = updated_at where false`.execute(trx);
        throw new Error("rollback");
      })
      .catch(() => {});
    await ctx.app.bus.sync();
    expect(seen).not.toContain("offers");
  });
});
