import { createHmac } from "node:crypto";
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import { sql } from "kysely";
import type { Db } from "../db/index";

/*
 * The counters of @fastify/rate-limit in the database (table rate_limit_hits, migration 027), so
 * that every instance behind one PostgreSQL counts the same requests (issue 18). The plugin is
 * registered with `global: false`: only the routes that ask for a limit (`app.rateLimit(...)`:
 * contact, public statistics, data export) pay one upsert per request; no other route touches
 * the table. Time is the app's clock, like the login throttle.
 *
 * The plugin gives the store only the client key (by default the IP), not the route: the key
 * generator below puts the route in the key, and the store keeps the HMAC of it (no address in
 * clear in the table).
 */

/** The default key of a rate-limited request: its route and the client's address. */
export function routeAndIpKey(request: FastifyRequest): string {
  return `${request.routeOptions.method} ${request.routeOptions.url ?? request.url}\n${request.ip}`;
}

/** Removes the counters whose window has ended (the one-minute job, jobs.ts). */
export async function pruneRateLimitHits(db: Db, now: Date): Promise<number> {
  const result = await sql`delete from rate_limit_hits where expires_at <= ${now}::timestamptz`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The store class to give the plugin (`store:`): the plugin constructs it with its options and
 * calls `child` once per `app.rateLimit(...)` with that route's options.
 */
export function postgresRateLimitStore(db: Db, secret: string, now: () => Date) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly continueExceeding: boolean;

    constructor(pluginOptions: FastifyRateLimitOptions) {
      // The merged options carry these two (route options over plugin options); the type omits them.
      const options = pluginOptions as { continueExceeding?: boolean; exponentialBackoff?: boolean };
      if (options.exponentialBackoff) {
        // Not needed by any route; refuse rather than count differently from the option's promise.
        throw new Error("rate-limit store: exponentialBackoff is not supported");
      }
      this.continueExceeding = options.continueExceeding === true;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
      max?: number,
    ): void {
      const at = now();
      const windowMs = timeWindow ?? 60_000;
      const expires = new Date(at.getTime() + windowMs);
      const subject = createHmac("sha256", secret).update(`rate-limit:${key}`).digest("base64url");
      sql<{ count: number; expires_at: Date }>`
        insert into rate_limit_hits as h (key, count, expires_at)
        values (${subject}, 1, ${expires}::timestamptz)
        on conflict (key) do update set
          count = case when h.expires_at <= ${at}::timestamptz then 1 else h.count + 1 end,
          expires_at = case
            when h.expires_at <= ${at}::timestamptz then excluded.expires_at
            when ${this.continueExceeding}::boolean and h.count + 1 > ${max ?? 0}::integer
              then excluded.expires_at
            else h.expires_at
          end
        returning count, expires_at`
        .execute(db)
        .then(
          (result) => {
            const row = result.rows[0];
            if (!row) return callback(new Error("rate-limit store: no row returned"));
            const ttl = Math.max(0, new Date(row.expires_at).getTime() - at.getTime());
            callback(null, { current: Number(row.count), ttl });
          },
          (error: Error) => callback(error),
        );
    }

    child(routeOptions: FastifyRateLimitOptions): FastifyRateLimitStore {
      return new PostgresRateLimitStore({ ...routeOptions });
    }
  };
}
