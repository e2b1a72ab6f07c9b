import { type Kysely, sql } from "kysely";

/**
 * The response cache (ADR 030) must know when what it holds may have changed, whoever wrote it: a
 * service, a job, a trigger, another instance, an operator's SQL. Each table whose rows a cached
 * response may show gets a statement trigger that notifies `sourio_changes` with the table's name
 * when the statement's transaction commits (PostgreSQL sends notifications at commit and folds
 * identical ones of one transaction into one). Tables no cached response reads (sessions, tokens,
 * counters, the access and audit logs, jobs) get none, so that signing in, a rate
 * limit or an access record does not empty the cache (SILENT_TABLES). `db/table-changes.test.ts`
 * checks that every table is on one of the two lists.
 */
export const NOTIFYING_TABLES = [
  "users",
  "profiles",
  "requests",
  "documents",
  "request_dentists",
  "request_tallies",
  "request_quote_lines",
  "quote_readings",
  "patient_covers",
  "conversations",
  "messages",
  "message_attachments",
  "support_threads",
  "support_messages",
  "offers",
  "offer_lines",
  "offer_slots",
  "appointments",
  "appointment_options",
  "appointment_reminders",
] as const;

/** Tables no cached response reads, written too often (or never) to empty the cache. */
export const SILENT_TABLES = [
  "sessions",
  "accounts",
  "verifications",
  "login_attempts",
  "rate_limit_hits",
  "audit_log",
  "document_access",
  "contact_submissions",
  "job_runs",
  // Sourio's invoices (migration 034): no cached response reads them (listed here only: no trigger).
  "billing_profiles",
  "invoice_counters",
  "invoices",
  "invoice_files",
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function sourio_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sourio_changes', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of NOTIFYING_TABLES)
    await sql`
      create trigger ${sql.raw(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function sourio_table_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of NOTIFYING_TABLES)
    await sql`drop trigger if exists ${sql.raw(`${table}_changed`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists sourio_table_changed()`.execute(db);
}
