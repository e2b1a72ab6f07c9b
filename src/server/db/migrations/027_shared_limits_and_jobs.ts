import { type Kysely, sql } from "kysely";

/**
 * Several instances on one PostgreSQL (issue 18): the counters of @fastify/rate-limit move from
 * each process's memory to this table (plugins/rate-limit-store.ts), so a limit counts the
 * requests of every instance. One row per key (the HMAC of route + client key under AUTH_SECRET:
 * no address in clear), kept by one upsert per rate-limited request; an expired row is reset by
 * the next upsert on its key and removed by the one-minute job (jobs.ts) through the expires_at
 * index. The scheduled jobs need no table: they take a PostgreSQL advisory lock (jobs.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull().check(sql`count >= 0`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create index rate_limit_hits_expires_idx on rate_limit_hits (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").ifExists().execute();
}
