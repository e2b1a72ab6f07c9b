import { type Kysely, sql } from "kysely";

/**
 * The patient reminded that an offer is about to expire (ADR 087): when the mail job did it, once per
 * offer. The job reads the offers still to remind by their last valid day: a partial index holds
 * those (sent, not yet reminded, with a validity date), so that the offers of years past are not read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table offers add column expiry_reminded_at timestamptz`.execute(db);
  await sql`create index offers_expiry_reminder_idx on offers (valid_until)
    where status = 'sent' and expiry_reminded_at is null and valid_until is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index offers_expiry_reminder_idx`.execute(db);
  await sql`alter table offers drop column expiry_reminded_at`.execute(db);
}
