import { type Kysely, sql } from "kysely";
import { REQUEST_KEPT, silentOnKept } from "./039_list_counters";

/**
 * Issue 38 (ADR 057, addendum of 29/11, noon): two lists that read all of a dentist's accepted offers
 * on every call, and sorted them, to keep a page.
 *
 * 1. 'Mes propositions' by state (`/api/dentist/offers?state=…`) filters a dentist's offers on one
 *    status and shows them newest first (`created_at desc, id desc`). No index gave that order for
 *    one status: every call planned the statement again (PostgreSQL's custom plans, their estimate
 *    below the generic plan's) and read all of his accepted offers through
 *    `offers_accepted_dentist_idx`, each one's request and patient, then sorted. This index gives a
 *    page of one status in order, whatever the status (the list binds it as a parameter, which a
 *    partial index on one status could not match in a generic plan); the list runs its generic plan.
 *
 * 2. The dentist's list ('Toutes', and a lapsed dentist's only branch) shows the requests whose
 *    accepted offer is his, in the requests' order (`created_at desc, id desc`), which no index on
 *    `offers` can give. `requests.chosen_dentist_id` names the dentist of the request's accepted offer
 *    (at most one: `offers_accepted_per_request_idx`), null when none; with its index the branch reads
 *    offset + limit entries in list order. Kept by the database: a row trigger on `offers`, on an
 *    insert, a delete, or an update of `status`, `request_id` or `dentist_id` where the row was or
 *    becomes 'accepted', locks the requests concerned (FOR NO KEY UPDATE, as migration 040's counters:
 *    on PostgreSQL a transaction writing at once for the same request then waits, and its recount, a
 *    new statement, sees the other's commit), reads the request's accepted offer again and writes the
 *    column only where it changed; a truncate of `offers` empties it. Offers that never were accepted
 *    (sending, withdrawing, closing a sent offer) leave the requests untouched.
 *
 *    The requests' change notifications (migration 037) are silent on an update that changed this
 *    column and the other kept ones (migration 039) and nothing else: the offer's own notification
 *    names its dentist, whose list this column orders.
 *
 *    Access (access/requests.ts `requestChoseDentist`) still reads `offers`: the column only orders
 *    the list's branch; `json-lists`' and `chosen-requests`' tests compare the two.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index offers_dentist_status_created_idx on offers (dentist_id, status, created_at desc, id desc)`.execute(
    db,
  );

  await sql`alter table requests add column chosen_dentist_id uuid`.execute(db);
  await sql`
    create function sourio_chosen_dentist() returns trigger language plpgsql as $$
    declare
      ids uuid[];
    begin
      if tg_op = 'INSERT' then
        if new.status <> 'accepted' then return null; end if;
        ids := array[new.request_id];
      elsif tg_op = 'DELETE' then
        if old.status <> 'accepted' then return null; end if;
        ids := array[old.request_id];
      else
        if old.status <> 'accepted' and new.status <> 'accepted' then return null; end if;
        ids := array[old.request_id, new.request_id];
      end if;
      perform 1 from requests where id = any(ids) order by id for no key update;
      update requests r set chosen_dentist_id = x.dentist_id
      from (
        select k.id,
          (select o.dentist_id from offers o where o.request_id = k.id and o.status = 'accepted') as dentist_id
        from requests k where k.id = any(ids)
      ) x
      where r.id = x.id and r.chosen_dentist_id is distinct from x.dentist_id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger offers_chosen_dentist after insert or delete or update of status, request_id, dentist_id
    on offers for each row execute function sourio_chosen_dentist()`.execute(db);
  await sql`
    create function sourio_chosen_dentist_truncate() returns trigger language plpgsql as $$
    begin
      update requests set chosen_dentist_id = null where chosen_dentist_id is not null;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger offers_chosen_dentist_truncate after truncate on offers
    for each statement execute function sourio_chosen_dentist_truncate()`.execute(db);
  await sql
    .raw(
      `create or replace function sourio_changes_requests() returns trigger language plpgsql as $$${silentOnKept("requests", [...REQUEST_KEPT, "chosen_dentist_id"])}$$`,
    )
    .execute(db);
  // The requests already chosen.
  await sql`
    update requests r set chosen_dentist_id = o.dentist_id
    from offers o where o.request_id = r.id and o.status = 'accepted'`.execute(db);
  await sql`create index requests_chosen_created_idx on requests (chosen_dentist_id, created_at desc, id desc)
    where chosen_dentist_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create or replace function sourio_changes_requests() returns trigger language plpgsql as $$${silentOnKept("requests", REQUEST_KEPT)}$$`,
    )
    .execute(db);
  await sql`drop trigger offers_chosen_dentist_truncate on offers`.execute(db);
  await sql`drop function sourio_chosen_dentist_truncate()`.execute(db);
  await sql`drop trigger offers_chosen_dentist on offers`.execute(db);
  await sql`drop function sourio_chosen_dentist()`.execute(db);
  await sql`alter table requests drop column chosen_dentist_id`.execute(db);
  await sql`drop index offers_dentist_status_created_idx`.execute(db);
}
