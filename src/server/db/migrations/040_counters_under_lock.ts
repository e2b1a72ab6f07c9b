import { type Kysely, sql } from "kysely";
import { recount } from "./038_conversation_counters";
import { lockFirst } from "./039_list_counters";

/**
 * The conversations' counters of migration 038, counted again under a lock on the conversations
 * they concern, as migration 039's counters are (`lockFirst`): on PostgreSQL, two messages written at
 * once in one conversation (the patient and the dentist both answering) were each counted from a
 * snapshot that did not hold the other, and the conversation kept one unread message too few until
 * its next write (`counters-concurrency.test.ts`). Migration 038's functions are replaced; its
 * triggers stay.
 */

const IDS = {
  insert: "select conversation_id from new_rows",
  delete: "select conversation_id from old_rows",
  update: "select conversation_id from old_rows union select conversation_id from new_rows",
};

async function replaceFunctions(db: Kysely<unknown>, locked: boolean): Promise<void> {
  for (const [op, ids] of Object.entries(IDS)) {
    await sql
      .raw(`
        create or replace function sourio_conversation_counters_${op}() returns trigger language plpgsql as $$
        begin
          ${locked ? `${lockFirst("conversations", ids)};` : ""}
          ${recount(ids)};
          return null;
        end
        $$`)
      .execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceFunctions(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceFunctions(db, false);
}
