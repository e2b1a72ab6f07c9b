import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";

/**
 * The schema the migrations build, as the catalog tells it, against a file kept in the repository.
 * Applied migrations are history: editing one (or a helper it calls) must not change what it builds.
 * A new migration updates the file (`npx vitest run src/server/db/schema.test.ts -u`), and the diff shows
 * the schema change in review.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

async function lines(query: ReturnType<typeof sql<{ line: string }>>): Promise<string[]> {
  const { rows } = await query.execute(ctx.app.db);
  return rows.map((r) => r.line);
}

async function catalog(): Promise<string> {
  const columns = await lines(sql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || udt_name || case when is_nullable = 'NO' then ' not null' else '' end
      || coalesce(' default ' || column_default, '') as line
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`);
  const constraints = await lines(sql<{ line: string }>`
    select c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) as line
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and k.contype <> 'n' order by 1`);
  const indexes = await lines(sql<{ line: string }>`
    select indexdef as line from pg_indexes where schemaname = current_schema() order by indexname`);
  const triggers = await lines(sql<{ line: string }>`
    select pg_get_triggerdef(t.oid) as line from pg_trigger t join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not t.tgisinternal order by 1`);
  const functions = await lines(sql<{ line: string }>`
    select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') md5 ' || md5(p.prosrc) as line
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema()
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by 1`);
  const views = await lines(sql<{ line: string }>`
    select viewname || ' md5 ' || md5(definition) as line from pg_views where schemaname = current_schema()
    order by 1`);
  const parts = { columns, constraints, indexes, triggers, functions, views };
  return `${Object.entries(parts)
    .map(([name, rows]) => `## ${name}\n${rows.join("\n")}`)
    .join("\n\n")}\n`;
}

describe("the migrations' schema", () => {
  it("is the one recorded in schema.snapshot.txt", async () => {
    await expect(await catalog()).toMatchFileSnapshot("./schema.snapshot.txt");
  });

  it("every foreign key leads an index (a delete or an erasure never reads a whole table per row)", async () => {
    // PostgreSQL indexes the key referenced, not the column referencing it (migration 046).
    const unindexed = await lines(sql<{ line: string }>`
      select f.conrelid::regclass::text || ' ' || f.conname as line
      from pg_constraint f
      where f.contype = 'f' and f.connamespace = current_schema()::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = f.conrelid
            and (string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(f.conkey)] = f.conkey
            -- A partial index serves only when it holds every row a key may name: "col is not null".
            and (i.indpred is null or (cardinality(f.conkey) = 1 and pg_get_expr(i.indpred, i.indrelid) = (
              select '(' || a.attname || ' IS NOT NULL)' from pg_attribute a
              where a.attrelid = f.conrelid and a.attnum = f.conkey[1]))))
      order by 1`);
    expect(unindexed).toEqual([]);
  });
});
