import { type Kysely, sql } from "kysely";

/**
 * Issue 38 (ADR 057, addendum): the dentist dashboard's 30-day average response time without joining
 * each of his rows to its request. `request_dentists.response_seconds` is the time from the request's
 * creation to his reply (`extract(epoch from replied_at - requests.created_at)`, numeric: what the
 * dashboard averaged before), null while he has not replied. Kept by the database:
 *
 * - a row trigger before an insert, or an update of `replied_at` or `request_id` (or of the column
 *   itself: a value written by hand is replaced), computes it from the request's `created_at`;
 * - a request's `created_at` changed (by an operator, the tests) computes its rows again.
 *
 * A reply written while its request's `created_at` is changed in another transaction (PostgreSQL):
 * the row trigger takes one shared advisory lock for its transaction, the change of `created_at` the
 * same lock exclusive before computing its rows again, so the change waits for the replies being
 * written to commit and then sees their rows (`counters-concurrency.test.ts`). Replies never wait for
 * each other (shared locks; a `for share` of the request's row would have: two replies to one new
 * request each holding it, then each setting the request 'in_review', a deadlock). One key for every
 * request, not one per request: a statement writing 100 000 replies (the bench's seed) took one lock
 * per request and ran out of the lock table's memory; a change of `created_at` (never made by the
 * application) waits for every reply being written, not only its request's. Left: a change of
 * `created_at` (never made by the application) racing a reply that then sets its request 'in_review'
 * is a deadlock, which PostgreSQL breaks by failing one of them. First key "RESP", apart
 * from the jobs' locks ("SOUR", jobs.ts).
 *
 * The index on his replied rows (migration 041) carries the column, so that the average reads the
 * index's entries of the last 30 days only.
 */

/** First key of the advisory lock of the response times: "RESP". */
const LOCK_NAMESPACE = 0x52455350;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_dentists add column response_seconds numeric`.execute(db);
  // The rows already there, in one statement before the triggers exist.
  await sql`update request_dentists rd set response_seconds = extract(epoch from (rd.replied_at - r.created_at))
    from requests r where r.id = rd.request_id and rd.replied_at is not null`.execute(db);
  await sql
    .raw(`
    create function sourio_response_seconds() returns trigger language plpgsql as $$
    begin
      if new.replied_at is null then
        new.response_seconds := null;
      else
        perform pg_advisory_xact_lock_shared(${LOCK_NAMESPACE}, 1);
        new.response_seconds := extract(epoch from (new.replied_at -
          (select r.created_at from requests r where r.id = new.request_id)));
      end if;
      return new;
    end
    $$`)
    .execute(db);
  await sql`
    create trigger request_dentists_response_seconds
    before insert or update of replied_at, request_id, response_seconds on request_dentists
    for each row execute function sourio_response_seconds()`.execute(db);
  await sql
    .raw(`
    create function sourio_response_seconds_of_request() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${LOCK_NAMESPACE}, 1);
      update request_dentists set response_seconds = null
      where request_id = new.id and replied_at is not null;
      return null;
    end
    $$`)
    .execute(db);
  await sql`
    create trigger requests_response_seconds after update of created_at on requests
    for each row when (old.created_at is distinct from new.created_at)
    execute function sourio_response_seconds_of_request()`.execute(db);

  await sql`drop index request_dentists_dentist_replied_idx`.execute(db);
  await sql`create index request_dentists_dentist_replied_idx on request_dentists (dentist_id, replied_at)
    include (response_seconds) where replied_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index request_dentists_dentist_replied_idx`.execute(db);
  await sql`create index request_dentists_dentist_replied_idx on request_dentists (dentist_id, replied_at)
    where replied_at is not null`.execute(db);
  await sql`drop trigger requests_response_seconds on requests`.execute(db);
  await sql`drop function sourio_response_seconds_of_request()`.execute(db);
  await sql`drop trigger request_dentists_response_seconds on request_dentists`.execute(db);
  await sql`drop function sourio_response_seconds()`.execute(db);
  await sql`alter table request_dentists drop column response_seconds`.execute(db);
}
