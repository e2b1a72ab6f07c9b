import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { migrations } from "./migrations/index";
import type { Database } from "./types";

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL server URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; undefined keeps it in memory (tests). */
  pgliteDir?: string | undefined;
  /** An already open PGlite instance (tests clone a migrated template). */
  pglite?: PGlite;
  poolSize?: number;
}

// timestamptz and bigint parsing: keep dates as Date (pg default), counts are cast in SQL.
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client error (server restart) must not crash the process; the pool reconnects.
    pool.on("error", () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: "postgres",
      ping: () => pingDb(db),
      close: () => db.destroy(),
    };
  }
  let pglite = options.pglite;
  if (!pglite) {
    if (options.pgliteDir) mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
    pglite = new PGlite(options.pgliteDir);
  }
  const instance = pglite;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: instance }) });
  return {
    db,
    kind: "pglite",
    ping: () => pingDb(db),
    close: async () => {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}

async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** Brings the schema to the latest migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error ?? failed?.migrationName));
    throw new Error(`Échec de la migration ${failed?.migrationName ?? ""}: ${cause.message}`, { cause });
  }
}
