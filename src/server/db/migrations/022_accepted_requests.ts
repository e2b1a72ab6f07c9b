import { type Kysely, sql } from "kysely";

/**
 * Issue 16 (ADR 016): accepting an offer no longer ends the request. A stored status 'accepted'
 * means "an offer is accepted, the appointment is to come"; 'Terminée' is derived (the confirmed
 * appointment has taken place). Requests 'completed' before, whose appointment has not taken place
 * (or was never booked), become 'accepted'; those whose confirmed appointment is past stay
 * 'completed', which still reads as done.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests drop constraint if exists requests_status_check`.execute(db);
  await sql`alter table requests add constraint requests_status_check
    check (status in ('new', 'in_review', 'accepted', 'completed', 'cancelled'))`.execute(db);
  await sql`
    update requests r set status = 'accepted'
    where r.status = 'completed'
      and not exists (
        select 1 from appointments a
        where a.request_id = r.id and a.status = 'confirmed' and a.starts_at <= now()
      )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update requests set status = 'completed' where status = 'accepted'`.execute(db);
  await sql`alter table requests drop constraint if exists requests_status_check`.execute(db);
  await sql`alter table requests add constraint requests_status_check
    check (status in ('new', 'in_review', 'completed', 'cancelled'))`.execute(db);
}
