import { type Kysely, sql } from "kysely";
import { functionBody } from "./037_changes_by_person";

/**
 * Issue 38 (ADR 057, addendum): what a request's row in the patient's lists shows, kept by the
 * database instead of looked up on every read. Before, each row of a page ran four sub-selects
 * (its documents counted, its open offers counted, its live appointment's status and time, twice):
 * on PGlite, each a scan started again per row.
 *
 * On `requests`:
 * - `document_count`: its documents;
 * - `sent_offers`: its offers whose status is 'sent' (whether one is still valid depends on the day:
 *   the lists count the open ones only for a request that has one, `sent_offers > 0`);
 * - `appointment_status`, `appointment_starts_at`: its newest live appointment (status pending or
 *   confirmed; by created_at, then id), or null.
 *
 * Kept by statement triggers on `documents`, `offers` and `appointments` (insert, update, delete,
 * with their transition tables; truncate), in the writing transaction, as migration 038 keeps the
 * conversations' counters: the requests a statement touched are counted again, and written only
 * where a figure changed (a request left as it was is neither rewritten nor notified, migration 037;
 * `updated_at` is not touched). Whoever writes (a service, a job, an erasure, an operator's SQL), the
 * columns agree with a recount at every commit.
 *
 * On `messages`, `attachment_count`: its attachments (the conversation list shows the last
 * message's), kept the same way by statement triggers on `message_attachments`.
 *
 * The change notifications of `requests` and `messages` (migration 037) skip an update that changed
 * these columns and nothing else: whoever reads them (the patient's lists and request page; a
 * dentist's own live appointment; a conversation's two parties) is already told by the notification
 * of the documents, offers, appointments or attachments written. Without this, an offer sent would
 * also empty the cached answers of every other dentist with a row on the request.
 */

/** The request columns kept here. */
export const REQUEST_KEPT = ["document_count", "sent_offers", "appointment_status", "appointment_starts_at"];
/** The message column kept here. */
const MESSAGE_KEPT = ["attachment_count"];

const row = (alias: string, columns: string[]) => `(${columns.map((c) => `${alias}.${c}`).join(", ")})`;

/** The requests whose ids `ids` selects, counted again and written where a figure changed. */
const recountRequests = (ids: string) => `
  update requests q set
    document_count = x.document_count, sent_offers = x.sent_offers,
    appointment_status = x.appointment_status, appointment_starts_at = x.appointment_starts_at
  from (
    select k.id,
      (select count(*)::int from documents d where d.request_id = k.id) as document_count,
      (select count(*)::int from offers o where o.request_id = k.id and o.status = 'sent') as sent_offers,
      a.status as appointment_status, a.starts_at as appointment_starts_at
    from requests k
    left join lateral (
      select a.status, a.starts_at from appointments a
      where a.request_id = k.id and a.status in ('pending', 'confirmed')
      order by a.created_at desc, a.id desc limit 1
    ) a on true
    where k.id in (${ids})
  ) x
  where q.id = x.id and ${row("q", REQUEST_KEPT)} is distinct from ${row("x", REQUEST_KEPT)}`;

/** The messages whose ids `ids` selects, their attachments counted again. */
const recountMessages = (ids: string) => `
  update messages m set attachment_count = x.attachment_count
  from (
    select k.id, (select count(*)::int from message_attachments a where a.message_id = k.id) as attachment_count
    from messages k where k.id in (${ids})
  ) x
  where m.id = x.id and m.attachment_count <> x.attachment_count`;

/**
 * A table's change notifications (migration 037), silent on an update that changed its kept columns
 * and nothing else.
 */
export function silentOnKept(table: string, kept: string[]): string {
  const body = functionBody(table);
  if (!/\bbegin\b/.test(body)) throw new Error(`migration 039 : corps de sourio_changes_${table} inattendu`);
  const keptArray = `array[${kept.map((c) => `'${c}'`).join(", ")}]`;
  return body.replace(
    /\bbegin\b/,
    `begin
      if tg_op = 'UPDATE' then
        if exists (select 1 from old_rows o join new_rows n on n.id = o.id
            where ${row("o", kept)} is distinct from ${row("n", kept)})
          and not exists (select 1 from old_rows o join new_rows n on n.id = o.id
            where to_jsonb(o) - ${keptArray} is distinct from to_jsonb(n) - ${keptArray}) then
          return null;
        end if;
      end if;`,
  );
}

/**
 * The counted rows whose ids `ids` selects, locked before they are counted again (FOR NO KEY UPDATE:
 * it does not wait for the key-share locks that the writes' foreign keys take). On PostgreSQL, in
 * READ COMMITTED, two transactions writing for the same row at once (two dentists' offers on one
 * request, two messages in one conversation) would otherwise each count from a snapshot taken before
 * the other committed, and the last to write would leave a count missing the other's row. Locked
 * first, the second waits for the first's commit, and its recount, a new statement, sees it
 * (`counters-concurrency.test.ts`). PGlite has one connection: nothing runs at once there.
 */
export const lockFirst = (table: string, ids: string) =>
  `perform 1 from ${table} where id in (${ids}) order by id for no key update`;

/**
 * Per source table: the counted table, its key column in the source, the recount, and what a
 * truncate of the source resets.
 */
const SOURCES: {
  table: string;
  key: string;
  /** The counted table (its rows are locked before the recount: lockFirst). */
  counted: "requests" | "messages";
  recount: (ids: string) => string;
  reset: string;
}[] = [
  {
    table: "documents",
    key: "request_id",
    counted: "requests",
    recount: recountRequests,
    reset: "update requests set document_count = 0 where document_count <> 0",
  },
  {
    table: "offers",
    key: "request_id",
    counted: "requests",
    recount: recountRequests,
    reset: "update requests set sent_offers = 0 where sent_offers <> 0",
  },
  {
    table: "appointments",
    key: "request_id",
    counted: "requests",
    recount: recountRequests,
    reset:
      "update requests set appointment_status = null, appointment_starts_at = null where appointment_status is not null or appointment_starts_at is not null",
  },
  {
    table: "message_attachments",
    key: "message_id",
    counted: "messages",
    recount: recountMessages,
    reset: "update messages set attachment_count = 0 where attachment_count <> 0",
  },
];

const NOTIFYING: [string, string[]][] = [
  ["requests", REQUEST_KEPT],
  ["messages", MESSAGE_KEPT],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests
    add column document_count integer not null default 0,
    add column sent_offers integer not null default 0,
    add column appointment_status text,
    add column appointment_starts_at timestamptz`.execute(db);
  await sql`alter table messages add column attachment_count integer not null default 0`.execute(db);

  for (const { table, key, counted, recount, reset } of SOURCES) {
    const ids = {
      insert: `select ${key} from new_rows`,
      delete: `select ${key} from old_rows`,
      update: `select ${key} from old_rows union select ${key} from new_rows`,
    };
    for (const [op, which] of Object.entries(ids)) {
      await sql
        .raw(`
          create function sourio_counters_${table}_${op}() returns trigger language plpgsql as $$
          begin
            ${lockFirst(counted, which)};
            ${recount(which)};
            return null;
          end
          $$`)
        .execute(db);
      const transition =
        op === "insert"
          ? "new table as new_rows"
          : op === "delete"
            ? "old table as old_rows"
            : "old table as old_rows new table as new_rows";
      await sql
        .raw(`
          create trigger ${table}_counters_${op} after ${op} on ${table}
          referencing ${transition} for each statement
          execute function sourio_counters_${table}_${op}()`)
        .execute(db);
    }
    await sql
      .raw(`
        create function sourio_counters_${table}_truncate() returns trigger language plpgsql as $$
        begin
          ${reset};
          return null;
        end
        $$`)
      .execute(db);
    await sql
      .raw(`
        create trigger ${table}_counters_truncate after truncate on ${table}
        for each statement execute function sourio_counters_${table}_truncate()`)
      .execute(db);
  }

  for (const [table, kept] of NOTIFYING)
    await sql
      .raw(
        `create or replace function sourio_changes_${table}() returns trigger language plpgsql as $$${silentOnKept(table, kept)}$$`,
      )
      .execute(db);

  // The rows already there.
  await sql.raw(recountRequests("select id from requests")).execute(db);
  await sql.raw(recountMessages("select message_id from message_attachments")).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table] of NOTIFYING)
    await sql
      .raw(
        `create or replace function sourio_changes_${table}() returns trigger language plpgsql as $$${functionBody(table)}$$`,
      )
      .execute(db);
  for (const { table } of SOURCES)
    for (const op of ["insert", "update", "delete", "truncate"]) {
      await sql.raw(`drop trigger ${table}_counters_${op} on ${table}`).execute(db);
      await sql.raw(`drop function sourio_counters_${table}_${op}()`).execute(db);
    }
  await sql`alter table messages drop column attachment_count`.execute(db);
  await sql`alter table requests
    drop column document_count, drop column sent_offers,
    drop column appointment_status, drop column appointment_starts_at`.execute(db);
}
