import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyPostgresDatabase } from "../testing/postgres";
import { runCompiled } from "./compiled";
import { type DatabaseHandle, openDatabase } from "./index";
import { containsPattern } from "./paging";

/*
 * Reads built and compiled once per shape (issue 38, ADR 057): the same text for everyone, each
 * call's values bound in the placeholders' places.
 */

let database: DatabaseHandle;
const alice = "0b5a4f0e-0000-4000-8000-00000000000a";
const bob = "0b5a4f0e-0000-4000-8000-00000000000b";

/** On PostgreSQL (TEST_DATABASE_URL runs), a fresh database of its own, dropped at the end. */
let dropDatabase = async () => {};

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const fresh = await emptyPostgresDatabase(serverUrl, "sourio_compiled");
    // One connection: the settings and prepared statements looked at are that connection's.
    database = openDatabase({ databaseUrl: fresh.url, poolSize: 1 });
    dropDatabase = fresh.drop;
  } else database = openDatabase({});
  await sql`create table notes (owner uuid not null, day date not null, body text not null)`.execute(
    database.db,
  );
  await sql`insert into notes values
    (${alice}, '2026-11-27', 'a1'), (${alice}, '2026-11-28', 'a2'), (${bob}, '2026-11-28', 'b1')`.execute(
    database.db,
  );
});
afterAll(async () => {
  await database.close();
  await dropDatabase();
});

// The test table is not in the app's types.
const db = () => database.db as never as Kysely<{ notes: { owner: string; day: string; body: string } }>;
const notesOf = (owner: string, day: string, on = db()) =>
  on.selectFrom("notes").select("body").where("owner", "=", owner).where("day", "=", day).orderBy("body");

describe("runCompiled", () => {
  it("builds a shape once and binds each call's values: each person gets their own rows", async () => {
    let built = 0;
    const read = (me: string, day: string) =>
      runCompiled(db(), "test-notes", { me, day }, (p) => {
        built += 1;
        return notesOf(p.me, p.day);
      });
    expect(await read(alice, "2026-11-28")).toEqual([{ body: "a2" }]);
    expect(await read(bob, "2026-11-28")).toEqual([{ body: "b1" }]);
    expect(await read(alice, "2026-11-27")).toEqual([{ body: "a1" }]);
    expect(built).toBe(1);
  });

  it("sends the same text as the query built with the values (one prepared statement)", async () => {
    const texts: string[] = [];
    const stop = database.watchQueries((text) => texts.push(text));
    try {
      await runCompiled(db(), "test-notes-text", { me: alice, day: "2026-11-28" }, (p) =>
        notesOf(p.me, p.day),
      );
      await runCompiled(db(), "test-notes-text", { me: bob, day: "2026-11-27" }, (p) => notesOf(p.me, p.day));
    } finally {
      stop();
    }
    expect(texts).toEqual([notesOf(alice, "x").compile().sql, notesOf(bob, "y").compile().sql]);
  });

  it("refuses a builder that writes a placeholder into another value (a pattern): it could not be bound", async () => {
    await expect(
      runCompiled(db(), "test-notes-pattern", { me: alice }, (p) =>
        db().selectFrom("notes").select("body").where("body", "ilike", containsPattern(p.me)),
      ),
    ).rejects.toThrow(/placeholder/);
  });

  it("runs a read marked for its generic plan with the same rows, the setting reset after it, after an error too", async () => {
    // One connection held for the whole test: the prepared statements and the setting looked at are
    // its own, even if the pool would have replaced an idle one meanwhile (a busy CI machine).
    await database.db.connection().execute(async (held) => {
      const on = () => held as never as ReturnType<typeof db>;
      const planMode = async () =>
        (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(held)).rows[0]?.plan_cache_mode;
      const read = (me: string) =>
        runCompiled(
          on(),
          "test-notes-generic",
          { me, day: "2026-11-28" },
          (p) => notesOf(p.me, p.day, on()),
          {
            genericPlan: true,
          },
        );
      expect(await read(alice)).toEqual([{ body: "a2" }]);
      expect(await read(bob)).toEqual([{ body: "b1" }]);
      // PostgreSQL counts the plans each prepared statement ran on: generic only.
      const { rows: plans } = await sql<{ generic_plans: number; custom_plans: number }>`
        select generic_plans::int, custom_plans::int from pg_prepared_statements
        where statement like '%sourio: generic plan%' and statement like '%notes%'`.execute(held);
      expect(plans).toEqual([{ generic_plans: 2, custom_plans: 0 }]);
      expect(await planMode()).toBe("auto");
      await expect(
        runCompiled(
          on(),
          "test-notes-generic-error",
          { me: alice },
          (p) =>
            on()
              .selectFrom("notes")
              .select(sql<number>`1 / (length(body) - length(body))`.as("x"))
              .where("owner", "=", p.me),
          { genericPlan: true },
        ),
      ).rejects.toThrow(/division by zero/);
      expect(await planMode()).toBe("auto");
      // A value the driver cannot send: it fails before the statement is bound, the setting reset (a
      // text of its own: node-postgres closes the statement then, yet keeps it as prepared).
      const unsendable = {
        toPostgres: () => {
          throw new Error("valeur impossible à envoyer");
        },
        toString: () => {
          throw new Error("valeur impossible à envoyer");
        },
      };
      await expect(
        runCompiled(
          on(),
          "test-notes-generic-unsendable",
          { me: unsendable },
          (p) => notesOf(p.me, "2026-11-28", on()).where("body", "<>", ""),
          {
            genericPlan: true,
          },
        ),
      ).rejects.toThrow(/impossible à envoyer/);
      expect(await planMode()).toBe("auto");
      expect(await read(alice)).toEqual([{ body: "a2" }]);
    });
  });
});
