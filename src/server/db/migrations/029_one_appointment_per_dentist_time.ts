import { type Kysely, sql } from "kysely";

/**
 * A dentist is never booked twice at one instant (issue 32, ADR 038): at most one confirmed
 * appointment per dentist and `starts_at`. The services check it first to answer a French 409 naming
 * the time; this index is what holds when two confirmations race (the second waits for the first's
 * commit, then fails with a unique violation the service turns into the same 409).
 * Pending appointments have no `starts_at` (their times are options), cancelled ones do not count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A database already holding a double booking cannot get the index: say so rather than fail obscurely.
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from appointments where status = 'confirmed'
      group by dentist_id, starts_at having count(*) > 1
    ) doubled`.execute(db);
  const doubled = rows[0]?.n ?? 0;
  if (doubled > 0)
    throw new Error(
      `029: ${doubled} double booking(s) among confirmed appointments (same dentist_id and starts_at); cancel one of each before migrating`,
    );
  await sql`create unique index appointments_dentist_time_idx on appointments (dentist_id, starts_at) where status = 'confirmed'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists appointments_dentist_time_idx`.execute(db);
}
