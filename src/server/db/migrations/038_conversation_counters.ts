import { type Kysely, sql } from "kysely";

/**
 * Issue 38 (ADR 057): what a conversation list shows of each conversation, kept by the database
 * instead of recounted on every read. Before, each row of a list (50 a page) counted its unread
 * messages and looked for its last one, and its attachments, three lookups a row.
 *
 * On `conversations`:
 * - `patient_unread`, `dentist_unread`: the messages each party has not read (read_at null, written
 *   by someone else than that party: the other party, or nobody — an erased sender), as the
 *   conversation list counted them;
 * - `last_message_id`: its newest message (created_at, then id), or null.
 *
 * Kept by statement triggers on `messages` (insert, update, delete, with their transition tables;
 * truncate), in the writing transaction: the conversations a statement touched are counted again
 * from their unread messages (the partial index messages_unread_idx) and their newest message
 * (messages_conversation_created_idx). Whoever writes (a service, a job, an erasure, an operator's
 * SQL), the columns agree with the messages at every commit.
 */

/**
 * Counts and last message of the conversations whose ids `ids` selects, written only where they
 * changed (a conversation left as it was is not rewritten, nor notified: migration 037).
 */
export const recount = (ids: string) => `
  update conversations c set
    patient_unread = x.patient_unread, dentist_unread = x.dentist_unread, last_message_id = x.last_message_id
  from (
    select k.id,
      (select count(*)::int from messages m where m.conversation_id = k.id
        and m.read_at is null and (m.sender_id is null or m.sender_id <> k.patient_id)) as patient_unread,
      (select count(*)::int from messages m where m.conversation_id = k.id
        and m.read_at is null and (m.sender_id is null or m.sender_id <> k.dentist_id)) as dentist_unread,
      (select m.id from messages m where m.conversation_id = k.id
        order by m.created_at desc, m.id desc limit 1) as last_message_id
    from conversations k where k.id in (${ids})
  ) x
  where c.id = x.id
    and (c.patient_unread, c.dentist_unread, c.last_message_id)
      is distinct from (x.patient_unread, x.dentist_unread, x.last_message_id)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations
    add column patient_unread integer not null default 0,
    add column dentist_unread integer not null default 0,
    add column last_message_id uuid`.execute(db);

  const functions = {
    insert: "select conversation_id from new_rows",
    delete: "select conversation_id from old_rows",
    update: "select conversation_id from old_rows union select conversation_id from new_rows",
  };
  for (const [op, ids] of Object.entries(functions)) {
    await sql
      .raw(`
        create function sourio_conversation_counters_${op}() returns trigger language plpgsql as $$
        begin
          ${recount(ids)};
          return null;
        end
        $$`)
      .execute(db);
  }
  await sql`
    create trigger messages_counters_insert after insert on messages
    referencing new table as new_rows for each statement
    execute function sourio_conversation_counters_insert()`.execute(db);
  await sql`
    create trigger messages_counters_update after update on messages
    referencing old table as old_rows new table as new_rows for each statement
    execute function sourio_conversation_counters_update()`.execute(db);
  await sql`
    create trigger messages_counters_delete after delete on messages
    referencing old table as old_rows for each statement
    execute function sourio_conversation_counters_delete()`.execute(db);
  await sql`
    create function sourio_conversation_counters_truncate() returns trigger language plpgsql as $$
    begin
      update conversations set patient_unread = 0, dentist_unread = 0, last_message_id = null
      where patient_unread <> 0 or dentist_unread <> 0 or last_message_id is not null;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger messages_counters_truncate after truncate on messages
    for each statement execute function sourio_conversation_counters_truncate()`.execute(db);

  // The conversations already there.
  await sql.raw(recount("select id from conversations")).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ["insert", "update", "delete", "truncate"]) {
    await sql.raw(`drop trigger messages_counters_${op} on messages`).execute(db);
    await sql.raw(`drop function sourio_conversation_counters_${op}()`).execute(db);
  }
  await sql`alter table conversations
    drop column patient_unread, drop column dentist_unread, drop column last_message_id`.execute(db);
}
