import { createHash } from "node:crypto";
import { type PGlite, parse, protocol } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PGliteDialect,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import pg from "pg";

/**
 * Prepared statements for the reads (issue 38, ADR 051). On this workload a computed screen spent
 * more time in PostgreSQL's parser and planner than in its execution (a dentist's list: about 60 %
 * of a query's time on PGlite). A `select` sent by Kysely is therefore sent as a named statement,
 * parsed and planned once per connection, then only bound and executed; PostgreSQL re-plans it by
 * itself when a table it reads changes, and keeps a custom plan where a generic one would cost more
 * (plan_cache_mode auto). Writes go as before, and so do the name searches (`ilike`).
 *
 * At most PREPARED_LIMIT distinct texts are prepared in a process (a query whose text varies, an
 * `in` list of every length, would otherwise fill the server's memory); the others go unnamed.
 */
export const PREPARED_LIMIT = 500;

/**
 * A statement namer: the name of a query's text when it is (or may become) a prepared statement,
 * else null. It remembers at most `limit` texts; the server has one, `preparedNameOf`.
 */
export function statementNamer(limit: number): (text: string) => string | null {
  const names = new Map<string, string>();
  return (text) => {
    if (!/^select\s/i.test(text)) return null;
    // A name search (`ilike` on the trigram indexes): its plan depends on the pattern, which a generic
    // plan does not see; planned each time, as before.
    if (/\silike\s/i.test(text)) return null;
    let name = names.get(text);
    if (name) return name;
    if (names.size >= limit) return null;
    name = `k_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
}

/** The process's namer, shared by every connection (PGlite's and the pool's). */
export const preparedNameOf = statementNamer(PREPARED_LIMIT);

// -- PGlite: the extended protocol with a named statement, under PGlite's own locks.

const { serialize } = protocol;

/** The parameter types of each statement prepared in a PGlite instance. */
const preparedIn = new WeakMap<PGlite, Map<string, number[]>>();

/** Protocol messages as one buffer: PGlite runs them all in one call into its WebAssembly. */
function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A read whose text ends with this comment runs on its generic plan on PGlite (issue 38, ADR 057):
 * PostgreSQL otherwise keeps planning a large statement again on every call when it costs its
 * generic plan higher than its custom ones (the dentist's dashboard: ~5 ms of planning for ~3 ms of
 * execution at 100 000 requests). Set for the statement alone (`plan_cache_mode`, then reset, in the
 * same call). db/compiled.ts adds it for the screens that ask for it. On PostgreSQL likewise, in the
 * statement's exchange (queryOnGenericPlan).
 */
export const GENERIC_PLAN = " /* sourio: generic plan */";

const SYNC = serialize.sync();
const FORCE_GENERIC = serialize.query("set plan_cache_mode = force_generic_plan");
const RESET_PLAN_MODE = serialize.query("reset plan_cache_mode");
const DESCRIBE_PORTAL = serialize.describe({ type: "P" });
const EXECUTE = serialize.execute({});

async function runPrepared(
  pglite: PGlite,
  name: string,
  text: string,
  params: readonly unknown[],
): Promise<QueryResult<unknown>> {
  const send = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });
  let prepared = preparedIn.get(pglite);
  if (!prepared) {
    prepared = new Map();
    preparedIn.set(pglite, prepared);
  }
  const statements = prepared;
  // The transaction lock first, as PGlite's query() takes it: never inside another's transaction.
  return pglite._runExclusiveTransaction(() =>
    pglite._runExclusiveQuery(async () => {
      let types = statements.get(name);
      if (!types) {
        // Parsed and described once per instance; the statement outlives this exchange's Sync.
        try {
          await send(serialize.parse({ name, text }));
          types = parse.parseDescribeStatementResults(await send(serialize.describe({ type: "S", name })));
        } finally {
          // Ends the exchange, after an error too (the error is then thrown).
          await send(SYNC);
        }
        statements.set(name, types);
      }
      const oids = types;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[oids[i] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      // Bind, Describe, Execute and Sync in one call (issue 38): each call into PGlite costs more
      // than these messages' own work on a small read. An error skips to the Sync, and is thrown
      // (after the reset of a generic plan's setting, the last message of the call).
      const generic = text.endsWith(GENERIC_PLAN);
      const messages = await send(
        concat([
          ...(generic ? [FORCE_GENERIC] : []),
          serialize.bind({ statement: name, values }),
          DESCRIBE_PORTAL,
          EXECUTE,
          SYNC,
          ...(generic ? [RESET_PLAN_MODE] : []),
        ]),
      );
      // One result per command: the setting's, the read's, the reset's.
      const results = parse.parseResults(messages, pglite.parsers, { rowMode: "object" });
      const result = results[generic ? 1 : 0];
      return { rows: (result?.rows ?? []) as unknown[] };
    }),
  );
}

/**
 * Kysely's PGlite dialect whose reads are prepared statements. Inside a transaction every query goes
 * through the transaction as before (PGlite has one session: its queries wait for the transaction).
 */
export class PreparedPGliteDialect extends PGliteDialect {
  constructor(private readonly pglite: PGlite) {
    super({ pglite });
  }

  override createDriver(): Driver {
    const inner = super.createDriver();
    const pglite = this.pglite;
    let transactions = 0;
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const wrap = (connection: DatabaseConnection): DatabaseConnection => {
      let outer = wrapped.get(connection);
      if (!outer) {
        outer = {
          executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
            const name = transactions === 0 ? preparedNameOf(query.sql) : null;
            if (!name) return connection.executeQuery<R>(query);
            return runPrepared(pglite, name, query.sql, query.parameters) as Promise<QueryResult<R>>;
          },
          streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
        };
        wrapped.set(connection, outer);
        innerOf.set(outer, connection);
      }
      return outer;
    };
    const unwrap = (connection: DatabaseConnection) => innerOf.get(connection) ?? connection;
    return {
      init: () => inner.init(),
      acquireConnection: async () => wrap(await inner.acquireConnection()),
      beginTransaction: async (connection: DatabaseConnection, settings: TransactionSettings) => {
        transactions += 1;
        try {
          await inner.beginTransaction(unwrap(connection), settings);
        } catch (error) {
          transactions -= 1;
          throw error;
        }
      },
      commitTransaction: async (connection: DatabaseConnection) => {
        try {
          await inner.commitTransaction(unwrap(connection));
        } finally {
          transactions -= 1;
        }
      },
      rollbackTransaction: async (connection: DatabaseConnection) => {
        try {
          await inner.rollbackTransaction(unwrap(connection));
        } finally {
          transactions -= 1;
        }
      },
      ...(inner.savepoint
        ? {
            savepoint: (connection: DatabaseConnection, name: string, compile: never) =>
              inner.savepoint?.(unwrap(connection), name, compile) as Promise<void>,
          }
        : {}),
      ...(inner.rollbackToSavepoint
        ? {
            rollbackToSavepoint: (connection: DatabaseConnection, name: string, compile: never) =>
              inner.rollbackToSavepoint?.(unwrap(connection), name, compile) as Promise<void>,
          }
        : {}),
      ...(inner.releaseSavepoint
        ? {
            releaseSavepoint: (connection: DatabaseConnection, name: string, compile: never) =>
              inner.releaseSavepoint?.(unwrap(connection), name, compile) as Promise<void>,
          }
        : {}),
      releaseConnection: (connection: DatabaseConnection) => inner.releaseConnection(unwrap(connection)),
      destroy: () => inner.destroy(),
    };
  }
}

// -- PostgreSQL: node-postgres prepares a named query once per connection by itself.

const preparingClients = new WeakSet<pg.PoolClient>();

/** What node-postgres's Query writes to a connection (pg/lib/connection.js), as used below. */
interface Wire {
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string }): void;
  sync(): void;
}

/** A statement of no parameters, sent unnamed (Parse, Bind, Execute), with no Sync of its own. */
function sendUnnamed(wire: Wire, text: string): void {
  wire.parse({ text, name: "", types: [] });
  wire.bind({ portal: "", statement: "", values: [] });
  wire.execute({ portal: "" });
}

/** node-postgres's Query (not in its types with a callback and `prepare`). */
type PgQuery = new (
  config: { name: string; text: string; values: unknown[] },
  values: undefined,
  callback: (error: Error | null, results: pg.QueryResult | pg.QueryResult[]) => void,
) => { prepare(wire: Wire): void };

/**
 * A read marked GENERIC_PLAN on PostgreSQL (issue 38, ADR 060, addendum of 29/11): the setting, the
 * statement and the reset in one exchange (one Sync: no round trip more), as on PGlite. PostgreSQL
 * chooses a statement's plan at its Bind, so the setting is in force for this statement alone. The
 * reset goes just before the Sync, whatever node-postgres sends before it (a value it could not bind:
 * a Close then the Sync); an error of the server skips to the Sync and rolls the exchange's implicit
 * transaction back, the setting with it. Without it PostgreSQL planned the dentist's dashboard again
 * on every call at 100 000 requests (its custom plans cost less by its estimate than the generic
 * one): ~3 ms of planning and a ~4 ms plan, against ~0.7 ms on the generic plan. Its results: the
 * setting's, the read's, the reset's.
 */
function genericPlanQuery(): PgQuery {
  const Query = (pg as unknown as { Query: PgQuery }).Query;
  return class GenericPlanQuery extends Query {
    override prepare(wire: Wire): void {
      sendUnnamed(wire, "set plan_cache_mode = force_generic_plan");
      const inner: Wire = Object.create(wire);
      inner.sync = () => {
        sendUnnamed(wire, "reset plan_cache_mode");
        wire.sync();
      };
      super.prepare(inner);
    }
  };
}

let GenericPlanQuery: PgQuery | undefined;

/** Runs a named read by `submit` (a client's own query) on its generic plan; the read's result. */
function queryOnGenericPlan(
  submit: (query: unknown) => unknown,
  name: string,
  text: string,
  values: unknown[],
) {
  GenericPlanQuery ??= genericPlanQuery();
  const Query = GenericPlanQuery;
  return new Promise<pg.QueryResult>((resolve, reject) => {
    const query = new Query({ name, text, values }, undefined, (error, results) => {
      if (error) reject(error);
      else if (Array.isArray(results) && results[1]) resolve(results[1]);
      else reject(new Error("plan générique : réponse inattendue"));
    });
    submit(query);
  });
}

/**
 * The pool Kysely's PostgreSQL dialect is given: its clients send the reads as named queries
 * (node-postgres keeps each connection's prepared statements).
 */
export function preparingPool(pool: pg.Pool) {
  return {
    connect: async () => {
      const client = await pool.connect();
      if (!preparingClients.has(client)) {
        preparingClients.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        // Only the form Kysely uses, query(text, values); the others as they were.
        (client as { query: unknown }).query = (...args: unknown[]) => {
          const [text, values] = args;
          const name = args.length === 2 && typeof text === "string" ? preparedNameOf(text) : null;
          if (!name || typeof text !== "string") return query(...args);
          return text.endsWith(GENERIC_PLAN)
            ? queryOnGenericPlan(query, name, text, values as unknown[])
            : query({ name, text, values });
        };
      }
      return client;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}
