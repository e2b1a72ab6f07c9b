import { type Kysely, sql } from "kysely";

/**
 * One checkout opened at a time per dentist (issue 35, ADR 044 addendum of 02/12/2026). Opening a
 * checkout asks the provider for the dentist's live subscription, expires his open checkouts, then
 * creates a new one: two clicks at the same instant (two tabs) could both pass the first two steps
 * before either created its page, and both pages could be paid. A transaction cannot hold a lock
 * across the provider's calls (it would hold PGlite's one connection for seconds), so a lease does:
 *
 * - `checkout_leases`: one row per dentist while a checkout is being opened, until `until` (a short
 *   time: a process that dies mid-call frees it by itself). Taken by one insert … on conflict, given
 *   back by deleting it. Silent (no change notifications): it changes nothing anyone sees.
 */
export const CHECKOUT_SILENT_TABLES = ["checkout_leases"] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table checkout_leases (
    dentist_id uuid primary key references profiles (id) on delete cascade,
    until timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table checkout_leases`.execute(db);
}
