import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, type KyselyConfig, PostgresDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { migrations } from "./migrations/index";
import { PreparedPGliteDialect, preparingPool } from "./prepared";
import type { Database } from "./types";

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * The embedded database's notifications (LISTEN in the same process); PostgreSQL's are read by
   * the bus's own connection (realtime/bus.ts).
   */
  listen?: (channel: string, handler: (payload: string) => void) => Promise<unknown>;
  /**
   * Sets (or, with null, removes) what is told of every query's length: the metrics (ADR 047).
   * The statement's first keyword only (select, insert…), never its text or values.
   */
  observeQueries(observer: QueryObserver | null): void;
  /**
   * Tells `listener` the text of every query sent from now until the returned function is called
   * (the tests' round-trip counts, issue 38; never logged). Beside the metrics' observer.
   */
  watchQueries(listener: (text: string) => void): () => void;
  /** The embedded database, for its backup (backup/archive.ts). Absent on PostgreSQL. */
  embedded?: {
    /** Its data directory on disk; null for a database in memory (most tests): no backup of it. */
    dir: string | null;
    /** Runs `work` while every query waits (PGlite's own query lock): its files do not change meanwhile. */
    whileQueriesWait<T>(work: () => Promise<T>): Promise<T>;
  };
  /** PostgreSQL's pool: its connections, the idle ones and the queries waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export type QueryObserver = (seconds: number, statement: string, failed: boolean) => void;

const STATEMENTS = new Set(["select", "insert", "update", "delete", "with", "begin", "commit", "rollback"]);

/** A query's kind for a metric's label: one of a few keywords, "other" for the rest. */
export function statementOf(text: string): string {
  const word = /^\s*\(?\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? "";
  return STATEMENTS.has(word) ? word : "other";
}

/**
 * Kysely's log, forwarding each query's length to the observer of the moment, and its text to the
 * watchers (tests).
 */
function queryLog(): {
  log: KyselyConfig["log"];
  set(observer: QueryObserver | null): void;
  watch(listener: (text: string) => void): () => void;
} {
  let observer: QueryObserver | null = null;
  const watchers = new Set<(text: string) => void>();
  return {
    log: (event) => {
      observer?.(event.queryDurationMillis / 1000, statementOf(event.query.sql), event.level === "error");
      for (const watcher of watchers) watcher(event.query.sql);
    },
    set: (next) => {
      observer = next;
    },
    watch: (listener) => {
      const own = (text: string) => listener(text);
      watchers.add(own);
      return () => watchers.delete(own);
    },
  };
}

export interface DatabaseOptions {
  /** PostgreSQL server URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; undefined keeps it in memory (tests). */
  pgliteDir?: string | undefined;
  /** An already open PGlite instance (tests clone a migrated template), on `pgliteDir` if given. */
  pglite?: PGlite;
  poolSize?: number;
}

// timestamptz and bigint parsing: keep dates as Date (pg default), counts are cast in SQL.
// A `date` column is a calendar day: read it as its 'YYYY-MM-DD' text on both drivers (pg would
// make a local-midnight Date and PGlite a UTC one).
const DATE_OID = 1082;
const asText = (value: string) => value;
// pg_trgm: the trigram index of the patient-name search (migration 008).
export const PGLITE_OPTIONS = { parsers: { [DATE_OID]: asText }, extensions: { pg_trgm } };
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === DATE_OID ? asText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes,
    });
    // An idle client error (server restart) must not crash the process; the pool reconnects.
    pool.on("error", () => {});
    const queries = queryLog();
    const db = new Kysely<Database>({
      // The reads as prepared statements (db/prepared.ts, ADR 051).
      dialect: new PostgresDialect({ pool: preparingPool(pool) }),
      log: queries.log,
    });
    return {
      db,
      kind: "postgres",
      ping: () => pingDb(db),
      observeQueries: queries.set,
      watchQueries: queries.watch,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  let pglite = options.pglite;
  if (!pglite) {
    if (options.pgliteDir) mkdirSync(path.dirname(options.pgliteDir), { recursive: true, mode: 0o700 });
    pglite = new PGlite(options.pgliteDir, PGLITE_OPTIONS);
  }
  const instance = pglite;
  const queries = queryLog();
  const db = new Kysely<Database>({ dialect: new PreparedPGliteDialect(instance), log: queries.log });
  return {
    db,
    kind: "pglite",
    ping: () => pingDb(db),
    observeQueries: queries.set,
    watchQueries: queries.watch,
    listen: (channel, handler) => instance.listen(channel, handler),
    embedded: {
      // With an instance given, its folder is the caller's word (the test harness's on-disk copies).
      dir: options.pgliteDir ?? null,
      whileQueriesWait: (work) => instance._runExclusiveQuery(work),
    },
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
