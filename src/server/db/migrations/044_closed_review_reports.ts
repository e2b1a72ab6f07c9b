import { type Kysely, sql } from "kysely";

/**
 * A dentist's report on a review is closed by the team's decision, not deleted (ADR 046, addendum of
 * 03/12/2026). Before, « Garder en ligne » deleted the review's reports: their reasons were lost (the
 * audit row names none) and the dentist could report the same text again at once.
 *
 * - `closed_at`, `closed_by` (the admin; null once that account is gone) and `decision`: `kept` (the
 *   review stays online) or `withdrawn` (the team withdrew the review). Open: all three null.
 * - `review_version`: the review's `updated_at` when it was reported, the version of the text the
 *   report is about (a rewrite always moves `updated_at` forward). A report kept on the text as it
 *   still is refuses a new report from the same dentist (409); once the author has rewritten it, he
 *   may report the new text. Existing reports are about the current text (a rewrite deleted them);
 *   those of a review already withdrawn are closed as `withdrawn`, by that decision.
 * - One open report per dentist and review (was: one report, ever): `review_reports_open_once`,
 *   partial, also the index of the queue « Signalés » (`exists … where closed_at is null`). The
 *   reports of one review by one dentist, whatever their state and version (the closed-report check,
 *   the dentist's « Signalé » mark, the team's history), read `review_reports_review_dentist_idx`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table review_reports
    add column review_version timestamptz,
    add column closed_at timestamptz,
    add column closed_by uuid references profiles (id) on delete set null,
    add column decision text check (decision in ('kept', 'withdrawn'))`.execute(db);
  await sql`update review_reports rr set review_version = v.updated_at from reviews v where v.id = rr.review_id`.execute(
    db,
  );
  // Reports of a review the team withdrew before this migration (« Retirer » kept them, open):
  // closed by that decision, so that they read as decided and free their slot.
  await sql`update review_reports rr
    set closed_at = coalesce(v.decided_at, rr.created_at), closed_by = v.decided_by, decision = 'withdrawn'
    from reviews v
    where v.id = rr.review_id and v.status = 'refused'`.execute(db);
  await sql`alter table review_reports alter column review_version set not null`.execute(db);
  await sql`alter table review_reports add constraint review_reports_closed
    check ((closed_at is null) = (decision is null))`.execute(db);
  await sql`alter table review_reports drop constraint review_reports_once`.execute(db);
  await sql`create unique index review_reports_open_once on review_reports (review_id, dentist_id)
    where closed_at is null`.execute(db);
  await sql`create index review_reports_review_dentist_idx on review_reports (review_id, dentist_id, review_version)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index review_reports_review_dentist_idx`.execute(db);
  await sql`drop index review_reports_open_once`.execute(db);
  // Back to one report per dentist and review: the closed ones go (the open one stays).
  await sql`delete from review_reports where closed_at is not null`.execute(db);
  await sql`alter table review_reports add constraint review_reports_once unique (review_id, dentist_id)`.execute(
    db,
  );
  await sql`alter table review_reports drop constraint review_reports_closed`.execute(db);
  await sql`alter table review_reports
    drop column decision,
    drop column closed_by,
    drop column closed_at,
    drop column review_version`.execute(db);
}
