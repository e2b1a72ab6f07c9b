import { type Kysely, sql } from "kysely";

/**
 * Login throttling shared by every instance (issue 13, item 7): one windowed counter per key, kept
 * by an upsert (modules/account/login-throttle.ts). A key is a scope (what is counted: failed
 * logins per IP, per account and IP, per account, per trusted device; requests per IP on the other
 * account routes) and a subject, the HMAC of the e-mail / IP / device id under AUTH_SECRET, so the
 * table holds no address in clear. Expired rows are reset by the next upsert on their key and
 * removed by the one-minute job (jobs.ts) through the expires_at index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("login_attempts")
    .addColumn("scope", "text", (c) =>
      c.notNull().check(sql`scope in ('ip', 'ip_requests', 'account_ip', 'account', 'device')`),
    )
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().check(sql`count >= 0`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("login_attempts_pk", ["scope", "subject"])
    .execute();
  await sql`create index login_attempts_expires_idx on login_attempts (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("login_attempts").ifExists().execute();
}
