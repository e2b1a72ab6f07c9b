import { type Kysely, sql } from "kysely";

/**
 * Issue 38 (ADR 057, addendum of 29/11, noon): 'Mes propositions' by state (`/api/dentist/offers?state=…`)
 * in list order. The list filters a dentist's offers on one status and shows them newest first
 * (`created_at desc, id desc`); no index gave that order for one status, so every call planned the
 * statement again (PostgreSQL's custom plans, their estimate below the generic plan's) and read all of
 * the dentist's accepted offers through `offers_accepted_dentist_idx`, looked each one's request and
 * patient up, then sorted them to keep a page: work that grows with his history. This index gives a
 * page of one status in order, whatever the status (the list binds it as a parameter, which a partial
 * index on one status could not match in a generic plan), so the list runs its generic plan and reads
 * offset + limit entries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index offers_dentist_status_created_idx on offers (dentist_id, status, created_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index offers_dentist_status_created_idx`.execute(db);
}
