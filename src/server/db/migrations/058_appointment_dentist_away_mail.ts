import { type Kysely, sql } from "kysely";

/**
 * A patient whose appointment still stands while its dentist is no longer verified is e-mailed (ADR
 * 093): he no longer sees it (D6), and she learnt of it only on her appointment's card.
 * `dentist_away_mailed_at` is when the mail job told her; it is emptied when the dentist is verified
 * again, so that a later withdrawal is told too. Appointments standing with a dentist not verified
 * when this runs count as told, so that nobody is e-mailed on the day it is deployed about a
 * withdrawal that came before.
 * `appointments_dentist_away_idx`: the job's first statement, the appointments told (few).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table appointments add column dentist_away_mailed_at timestamptz`.execute(db);
  await sql`update appointments a set dentist_away_mailed_at = now() from profiles d
    where d.id = a.dentist_id and a.status in ('pending', 'confirmed') and not d.is_verified`.execute(db);
  await sql`create index appointments_dentist_away_idx on appointments (dentist_id)
    where dentist_away_mailed_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index appointments_dentist_away_idx`.execute(db);
  await sql`alter table appointments drop column dentist_away_mailed_at`.execute(db);
}
