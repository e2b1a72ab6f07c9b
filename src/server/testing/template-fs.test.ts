import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TemplateEntry, TemplateFS, templateEntries } from "./template-fs";

/*
 * The apps' databases start from the template's files written into memory instead of PGlite
 * unpacking the template's tar at every start (ADR 068): the database found must be the one dumped,
 * and one database's writes must never reach the shared files nor another database.
 */

let tar: Blob;
let entries: TemplateEntry[];
const opened: PGlite[] = [];

async function started(): Promise<PGlite> {
  const pglite = new PGlite({ fs: new TemplateFS(entries) });
  opened.push(pglite);
  await pglite.waitReady;
  return pglite;
}

const notes = async (pglite: PGlite) =>
  (await pglite.query<{ id: number; body: string }>("select id, body from notes order by id")).rows;

beforeAll(async () => {
  const source = new PGlite();
  await source.exec(`
    create table notes (id int primary key, body text not null);
    create index notes_body_idx on notes (body);
    insert into notes select n, 'note ' || n from generate_series(1, 500) n;
    checkpoint;`);
  tar = await source.dumpDataDir("none");
  await source.close();
  entries = await templateEntries(tar);
});

afterAll(async () => {
  for (const pglite of opened) await pglite.close();
});

describe("a database started from the template's files", () => {
  it("holds what was dumped, as one loaded from the tar does", async () => {
    expect(entries.some((entry) => entry.path === "PG_VERSION" && entry.data)).toBe(true);
    expect(entries.some((entry) => entry.path === "base" && !entry.data)).toBe(true);
    const fromTar = new PGlite({ loadDataDir: tar });
    opened.push(fromTar);
    const fromFiles = await started();
    expect(await notes(fromFiles)).toEqual(await notes(fromTar));
    expect((await notes(fromFiles)).length).toBe(500);
    const plan = await fromFiles.query<{ "QUERY PLAN": string }>(
      "explain select id from notes where body = 'note 7'",
    );
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("notes_body_idx");
  });

  it("keeps each database's writes its own: the shared files and the next database are untouched", async () => {
    const before = entries.map((entry) => Buffer.from(entry.data ?? []).toString("base64"));
    const first = await started();
    await first.exec("delete from notes where id > 10; insert into notes values (1000, 'mine'); checkpoint;");
    expect((await notes(first)).length).toBe(11);
    const second = await started();
    expect((await notes(second)).length).toBe(500);
    expect(entries.map((entry) => Buffer.from(entry.data ?? []).toString("base64"))).toEqual(before);
  });
});
