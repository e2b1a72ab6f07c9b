import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/index";
import { migratedPgliteDir } from "../testing/harness";
import { maintainEmbeddedStatistics, tablesDue } from "./embedded-statistics";

/**
 * ADR 095: the embedded database has no autovacuum; the upkeep analyses and vacuums what
 * PostgreSQL's defaults would, and sees rows added before a restart (its activity counters are not
 * kept across one). On the migrated schema on disk, with a table of the test's own.
 */
describe("the embedded database's statistics and dead rows (ADR 095)", () => {
  let dir: string;
  let database: DatabaseHandle;
  const open = () => openDatabase({ pgliteDir: path.join(dir, "pglite") });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sourio-upkeep-"));
    await migratedPgliteDir(path.join(dir, "pglite"));
    database = open();
    // What the template leaves due, done once: the scenario starts from a database kept up to date.
    await maintainEmbeddedStatistics(database.db);
    await sql`create table upkeep_probe (id integer primary key, kind text not null)`.execute(database.db);
  });

  afterAll(async () => {
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const probe = async () => {
    const { rows } = await sql<{
      reltuples: number;
      n_mod: number | null;
      n_dead: number | null;
      kinds: number;
    }>`
      select c.reltuples::int as reltuples, s.n_mod_since_analyze::int as n_mod, s.n_dead_tup::int as n_dead,
             (select count(*)::int from pg_stats where tablename = 'upkeep_probe' and attname = 'kind') as kinds
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.relname = 'upkeep_probe'
    `.execute(database.db);
    const row = rows[0];
    if (!row) throw new Error("upkeep_probe missing");
    return row;
  };
  const dueFor = async () => (await tablesDue(database.db)).find((t) => t.table === "upkeep_probe");
  const fill = (from: number, to: number) =>
    sql`
    insert into upkeep_probe select g, case when g % 10 = 0 then 'rare' else 'common' end
    from generate_series(${from}::int, ${to}::int) g`.execute(database.db);

  it("analyses a table filled since, once; after a restart, a table grown meanwhile; vacuums its dead rows", async () => {
    await fill(1, 5000);
    expect(await probe()).toMatchObject({ reltuples: -1, kinds: 0 });

    const first = await maintainEmbeddedStatistics(database.db);
    expect(first).toContainEqual({ table: "upkeep_probe", analyze: true, vacuum: false });
    expect(await probe()).toMatchObject({ reltuples: 5000, kinds: 1 });
    // Done: nothing due any more, for this table or any other.
    expect(await tablesDue(database.db)).toEqual([]);

    // Rows added, then a restart before anything analysed them: the counters start again at 0,
    // the table's pages still say it grew.
    await fill(5001, 7000);
    await database.close();
    database = open();
    expect((await probe()).n_mod ?? 0).toBe(0);
    expect(await dueFor()).toEqual({ table: "upkeep_probe", analyze: true, vacuum: false });
    await maintainEmbeddedStatistics(database.db);
    expect((await probe()).reltuples).toBe(7000);
    expect(await dueFor()).toBeUndefined();

    // Half of it deleted: dead rows to reclaim (the counters reach the view within a second or so).
    await sql`delete from upkeep_probe where id > 3500`.execute(database.db);
    await expect.poll(async () => (await probe()).n_dead ?? 0).toBeGreaterThan(3000);
    expect(await dueFor()).toEqual({ table: "upkeep_probe", analyze: true, vacuum: true });
    await maintainEmbeddedStatistics(database.db);
    expect(await probe()).toMatchObject({ reltuples: 3500, n_dead: 0 });
    expect(await dueFor()).toBeUndefined();

    // Changed in place (no growth): counted since the restart, analysed past 50 + a tenth.
    await sql`update upkeep_probe set kind = 'rare' where id <= 300`.execute(database.db);
    await expect.poll(async () => (await probe()).n_mod ?? 0).toBe(300);
    expect(await dueFor()).toBeUndefined();
    await sql`update upkeep_probe set kind = 'rare' where id > 300 and id <= 500`.execute(database.db);
    await expect.poll(async () => (await probe()).n_mod ?? 0).toBe(500);
    expect(await dueFor()).toMatchObject({ analyze: true });
  });
});
