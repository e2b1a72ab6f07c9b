import { type Kysely, sql } from "kysely";

/**
 * Issue 38 (ADR 052, superseding ADR 030's "a change empties the whole cache").
 *
 * The response cache keeps each person's answers (key: account id). A committed write now tells it
 * whose answers it may change, not only which table: each notifying table gets four statement
 * triggers (insert, update, delete: with their transition tables; truncate) that notify
 * `sourio_changes` with `<table>:<ids>`, the comma-separated ids of the people whose cached answers
 * may read the rows written, or `<table>:*` (everyone) when they cannot be named cheaply: a
 * truncate; a request open to every verified dentist (new, or changed in a column their lists show);
 * an offer accepted or unaccepted on such a request (every dentist's "en attente" changes); a
 * request deleted; a person's name, e-mail or address (shown to the other side); more ids than a
 * notification holds (8 000 bytes). A statement that changes no row notifies nothing.
 *
 * Who reads what (the routes of CACHED_ROUTES, plugins/response-cache.ts): a dentist's lists and
 * dashboard read the requests he sees with their patient's name, his own request_dentists rows,
 * offers (his, and any accepted one on the requests he sees), appointments (his, with their options),
 * conversations and messages (his), the request tallies of his audiences and his own profile and
 * subscription; `/api/appointments` reads a person's own appointments, their options, the other
 * party's profile, and the options another confirmed appointment of the same dentist has taken
 * (so an appointment concerns the patients of that dentist's pending appointments too). Tables no
 * cached answer reads (documents, readings, quote lines, covers, support) still name the people
 * their rows are about, so that a cached route that comes to read them later is never stale.
 *
 * `sourio_table_changed()` (migration 028) stays, now notifying `<table>:*`: a table still wired to it
 * empties every cache, as before.
 */

/** The channel (realtime/bus.ts listens to it). */
const CHANNEL = "sourio_changes";
/** A notification's payload is at most 8 000 bytes: past this length of ids, '*' (everyone) instead. */
const MAX_IDS_LENGTH = 7900;
/** The statuses of a request still open to offers (access/rules.ts, OPEN_REQUEST_STATUSES). */
const OPEN = "('new', 'in_review')";

/**
 * The people whose cached answers may read a set of written rows: a select of one text column, given
 * the rows as a relation usable in `from` (a transition table, or old and new rows together);
 * '*' for everyone, null values ignored.
 */
type People = (rows: string) => string;

const patientOfRequests = (rows: string) =>
  `select q.patient_id::text from requests q where q.id in (select r.request_id from ${rows} r)`;

/** A request's own people: its patient, its recipient, every dentist with a row, offer, appointment or conversation on it. */
const requestParties: People = (rows) => `
  select r.patient_id::text from ${rows} r
  union all select r.recipient_dentist_id::text from ${rows} r
  union all select x.dentist_id::text from offers x where x.request_id in (select r.id from ${rows} r)
  union all select x.dentist_id::text from request_dentists x where x.request_id in (select r.id from ${rows} r)
  union all select x.dentist_id::text from appointments x where x.request_id in (select r.id from ${rows} r)
  union all select x.dentist_id::text from conversations x where x.request_id in (select r.id from ${rows} r)`;

/** Open to every verified dentist: all of them see it in their lists and counts. */
const openToAll = (r: string) => `(${r}.recipient_dentist_id is null and ${r}.status in ${OPEN})`;

/** The request columns a dentist's list, dashboard or counter shows or filters on. */
const REQUEST_SHOWN = [
  "patient_id",
  "recipient_dentist_id",
  "treatment_type",
  "created_at",
  "budget",
  "urgency",
  "quote_amount_cents",
];

/** The profile columns the other side's cached answers show (names, e-mail, practice address, avatar). */
const PROFILE_SHOWN = [
  "full_name",
  "first_name",
  "last_name",
  "email",
  "city",
  "practice_address",
  "practice_postcode",
  "avatar_url",
];

const distinctColumns = (columns: string[], o: string, n: string) =>
  `(${columns.map((c) => `${o}.${c}`).join(", ")}) is distinct from (${columns.map((c) => `${n}.${c}`).join(", ")})`;

const conversationParties = (conversationIds: string) => `
  select unnest(array[c.patient_id::text, c.dentist_id::text]) from conversations c
  where c.id in (${conversationIds})`;

const offerParties = (offerIds: string) => `
  select o.dentist_id::text from offers o where o.id in (${offerIds})
  union all select q.patient_id::text from requests q join offers o on o.request_id = q.id where o.id in (${offerIds})`;

const appointmentParties = (appointmentIds: string) => `
  select unnest(array[a.patient_id::text, a.dentist_id::text]) from appointments a where a.id in (${appointmentIds})`;

/**
 * Per notifying table: the people of its inserted or deleted rows, and, when an update needs more
 * than the people of its old and new rows, the update's own rule (old_rows and new_rows).
 */
export const CHANGE_RULES: Record<string, { people: People; update?: string; delete?: string }> = {
  users: { people: (rows) => `select r.id::text from ${rows} r` },
  profiles: {
    people: (rows) => `select r.id::text from ${rows} r`,
    // A person gone: their name leaves answers of people not named here.
    delete: `select '*' from old_rows`,
    // Their own answers (verification, role…); everyone's when what others are shown of them changed.
    update: `
      select case when n.id is null or ${distinctColumns(PROFILE_SHOWN, "o", "n")} then '*' else o.id::text end
      from old_rows o left join new_rows n on n.id = o.id
      union all select n.id::text from new_rows n`,
  },
  requests: {
    people: (rows) => `
      select '*' from ${rows} r where ${openToAll("r")}
      union all ${requestParties(rows)}`,
    delete: `select '*' from old_rows`,
    // Everyone when a request open to all changes in what every dentist's list shows (its openness
    // included); otherwise its own people, before and after.
    update: `
      select '*' from old_rows o left join new_rows n on n.id = o.id
      where n.id is null or ((${openToAll("o")} or ${openToAll("n")})
        and ((o.status in ${OPEN}) is distinct from (n.status in ${OPEN}) or ${distinctColumns(REQUEST_SHOWN, "o", "n")}))
      union all ${requestParties("(select * from old_rows union all select * from new_rows)")}`,
  },
  request_tallies: {
    people: (rows) => `select case when r.audience = 'all' then '*' else r.audience end from ${rows} r`,
  },
  request_dentists: {
    people: (rows) => `select r.dentist_id::text from ${rows} r union all ${patientOfRequests(rows)}`,
  },
  documents: {
    people: (rows) => `select r.owner_id::text from ${rows} r union all ${patientOfRequests(rows)}`,
  },
  request_quote_lines: { people: patientOfRequests },
  quote_readings: { people: patientOfRequests },
  patient_covers: { people: (rows) => `select r.patient_id::text from ${rows} r` },
  conversations: {
    people: (rows) => `select unnest(array[r.patient_id::text, r.dentist_id::text]) from ${rows} r`,
  },
  messages: {
    people: (rows) => `
      select r.sender_id::text from ${rows} r
      union all ${conversationParties(`select r.conversation_id from ${rows} r`)}`,
  },
  message_attachments: {
    people: (rows) =>
      conversationParties(
        `select m.conversation_id from messages m where m.id in (select r.message_id from ${rows} r)`,
      ),
  },
  support_threads: { people: (rows) => `select r.patient_id::text from ${rows} r` },
  support_messages: {
    people: (rows) => `select unnest(array[r.patient_id::text, r.sender_id::text]) from ${rows} r`,
  },
  offers: {
    // Its dentist and the request's patient; an offer accepted, or no longer, settles the request for
    // everyone who sees it (every dentist's "en attente" when it is open to all).
    people: (rows) => `
      select r.dentist_id::text from ${rows} r
      union all ${patientOfRequests(rows)}
      union all select case when ${openToAll("q")} then '*' else q.recipient_dentist_id::text end
        from requests q where q.id in (select r.request_id from ${rows} r where r.status = 'accepted')`,
  },
  offer_lines: { people: (rows) => offerParties(`select r.offer_id from ${rows} r`) },
  offer_slots: { people: (rows) => offerParties(`select r.offer_id from ${rows} r`) },
  appointments: {
    // Its two parties, and the patients of its dentist's pending appointments: a time he confirms
    // shows as taken among their options.
    people: (rows) => `
      select unnest(array[r.patient_id::text, r.dentist_id::text]) from ${rows} r
      union all select a.patient_id::text from appointments a
        where a.dentist_id in (select r.dentist_id from ${rows} r) and a.status = 'pending'`,
  },
  appointment_options: { people: (rows) => appointmentParties(`select r.appointment_id from ${rows} r`) },
  appointment_reminders: { people: (rows) => appointmentParties(`select r.appointment_id from ${rows} r`) },
  subscriptions: { people: (rows) => `select r.dentist_id::text from ${rows} r` },
};

export const CHANGE_TABLES = Object.keys(CHANGE_RULES);

const functionName = (table: string) => `sourio_changes_${table}`;
const triggerName = (table: string, event: string) => `${table}_changed_${event}`;

/** One table's function: the people of the statement's rows, notified with the table's name. */
export function functionBody(table: string): string {
  const rule = CHANGE_RULES[table];
  if (!rule) throw new Error(table);
  const update = rule.update ?? rule.people("(select * from old_rows union all select * from new_rows)");
  const collect = (query: string) => `
      select case when bool_or(p.id = '*') then '*' else string_agg(distinct p.id, ',') end into ids
      from (${query}) p(id) where p.id is not null;`;
  return `
    declare ids text;
    begin
      if tg_op = 'TRUNCATE' then
        ids := '*';
      elsif tg_op = 'INSERT' then ${collect(rule.people("new_rows"))}
      elsif tg_op = 'DELETE' then ${collect(rule.delete ?? rule.people("old_rows"))}
      else ${collect(update)}
      end if;
      if ids is not null then
        perform pg_notify('${CHANNEL}', tg_table_name || ':' || case when length(ids) > ${MAX_IDS_LENGTH} then '*' else ids end);
      end if;
      return null;
    end`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whatever table is still wired to the generic trigger empties every cache.
  await sql`
    create or replace function sourio_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CHANNEL)}, tg_table_name || ':*');
      return null;
    end $$`.execute(db);
  for (const table of CHANGE_TABLES) {
    await sql`drop trigger if exists ${sql.raw(`${table}_changed`)} on ${sql.table(table)}`.execute(db);
    await sql`create function ${sql.raw(functionName(table))}() returns trigger language plpgsql as $$${sql.raw(
      functionBody(table),
    )}$$`.execute(db);
    const fn = sql.raw(`${functionName(table)}()`);
    await sql`create trigger ${sql.raw(triggerName(table, "insert"))} after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger ${sql.raw(triggerName(table, "update"))} after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows for each statement execute function ${fn}`.execute(
      db,
    );
    await sql`create trigger ${sql.raw(triggerName(table, "delete"))} after delete on ${sql.table(table)}
      referencing old table as old_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger ${sql.raw(triggerName(table, "truncate"))} after truncate on ${sql.table(table)}
      for each statement execute function ${fn}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of CHANGE_TABLES) {
    for (const event of ["insert", "update", "delete", "truncate"])
      await sql`drop trigger if exists ${sql.raw(triggerName(table, event))} on ${sql.table(table)}`.execute(
        db,
      );
    await sql`drop function if exists ${sql.raw(functionName(table))}()`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function sourio_table_changed()`.execute(db);
  }
  await sql`
    create or replace function sourio_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sourio_changes', tg_table_name);
      return null;
    end $$`.execute(db);
}
