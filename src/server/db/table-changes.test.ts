import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableChange } from "../realtime/bus";
import { createTestContext, type TestContext } from "../testing/harness";
import { dentist, patient } from "../testing/people";
import {
  NOTIFYING_TABLES as NOTIFYING_028,
  SILENT_TABLES as SILENT_028,
} from "./migrations/028_table_changes";
import { NOTIFYING_TABLES_033, SILENT_TABLES_033 } from "./migrations/033_subscriptions";
import { REVIEW_NOTIFYING_TABLES, REVIEW_SILENT_TABLES } from "./migrations/035_reviews";
import { CHANGE_TABLES } from "./migrations/037_changes_by_person";
import { DENTIST_TALLY_SILENT_TABLES } from "./migrations/041_dentist_tallies";
import { CHECKOUT_SILENT_TABLES } from "./migrations/045_checkout_leases";
import { TWO_FACTOR_SILENT_TABLES } from "./migrations/062_two_factor";
import { USED_CODE_SILENT_TABLES } from "./migrations/063_two_factor_used_codes";
import { RECEIVED_TALLY_SILENT_TABLES } from "./migrations/065_received_tallies";

/** The tables of each migration that decides: 028 for the older ones, then each new one its own. */
const NOTIFYING_TABLES = [...NOTIFYING_028, ...NOTIFYING_TABLES_033, ...REVIEW_NOTIFYING_TABLES];
const SILENT_TABLES = [
  ...SILENT_028,
  ...SILENT_TABLES_033,
  ...REVIEW_SILENT_TABLES,
  ...DENTIST_TALLY_SILENT_TABLES,
  ...CHECKOUT_SILENT_TABLES,
  ...TWO_FACTOR_SILENT_TABLES,
  ...USED_CODE_SILENT_TABLES,
  ...RECEIVED_TALLY_SILENT_TABLES,
];

let ctx: TestContext;
const seen: TableChange[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.bus.listening();
  ctx.app.bus.onTableChange((change) => seen.push(change));
});
afterAll(async () => ctx?.close());

/** What the bus heard of the writes `write` committed: per table, the people named ('*': everyone). */
async function changesOf(write: () => Promise<unknown>): Promise<Record<string, string[]>> {
  await ctx.app.bus.sync();
  seen.length = 0;
  await write();
  await ctx.app.bus.sync();
  const byTable: Record<string, Set<string>> = {};
  for (const change of seen) {
    const ids = byTable[change.table] ?? new Set<string>();
    byTable[change.table] = ids;
    for (const id of change.userIds ?? ["*"]) ids.add(id);
  }
  return Object.fromEntries(Object.entries(byTable).map(([table, ids]) => [table, [...ids].sort()]));
}

const run = (query: ReturnType<typeof sql>) => () => query.execute(ctx.app.db);
const sorted = (...ids: string[]) => [...new Set(ids)].sort();

async function newRequest(patientId: string, recipient: string | null = null): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into requests (patient_id, treatment_type, recipient_dentist_id)
    values (${patientId}, 'crown', ${recipient}) returning id`.execute(ctx.app.db);
  return rows[0]?.id ?? "";
}

async function newOffer(requestId: string, dentistId: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into offers (request_id, dentist_id, amount_cents) values (${requestId}, ${dentistId}, 90000)
    returning id`.execute(ctx.app.db);
  return rows[0]?.id ?? "";
}

describe("the tables' change notifications (migrations 028 and 037, ADR 030 and ADR 052)", () => {
  it("decides on every table: it notifies its changes, or no cached answer reads it", async () => {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by table_name`.execute(ctx.app.db);
    const tables = rows.map((r) => r.name);
    const decided: string[] = [...NOTIFYING_TABLES, ...SILENT_TABLES];
    for (const table of decided) expect(tables, table).toContain(table);
    expect(
      tables.filter((t) => !decided.includes(t)),
      "ajoutez ces tables à NOTIFYING_TABLES (nouvelle migration) ou à SILENT_TABLES",
    ).toEqual([]);
  });

  it("has on each notifying table the four triggers naming the people of its rows, and nowhere else", async () => {
    expect([...CHANGE_TABLES].sort()).toEqual([...NOTIFYING_TABLES].sort());
    const { rows } = await sql<{ table: string; fn: string; events: number }>`
      select c.relname as table, p.proname as fn, count(*)::int as events
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where p.proname like 'sourio\\_changes\\_%' or p.proname = 'sourio_table_changed'
      group by 1, 2 order by 1`.execute(ctx.app.db);
    expect(rows).toEqual(
      [...NOTIFYING_TABLES].sort().map((table) => ({ table, fn: `sourio_changes_${table}`, events: 4 })),
    );
  });

  it("runs each notifying table's triggers on an insert, an update and a delete without error", async () => {
    for (const table of NOTIFYING_TABLES) {
      const { rows } = await sql<{ column: string }>`
        select column_name as column from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} order by ordinal_position limit 1`.execute(
        ctx.app.db,
      );
      const column = sql.ref(rows[0]?.column ?? "");
      // No row written: the triggers' queries are planned and run all the same.
      await sql`insert into ${sql.table(table)} select * from ${sql.table(table)} where false`.execute(
        ctx.app.db,
      );
      await sql`update ${sql.table(table)} set ${column} = ${column} where false`.execute(ctx.app.db);
      await sql`delete from ${sql.table(table)} where false`.execute(ctx.app.db);
    }
  });

  it("tells the bus of a committed write, nothing of a rolled-back one nor of a statement that changed no row", async () => {
    const someone = await patient(ctx.app);
    expect(
      await changesOf(run(sql`update profiles set updated_at = now() where id = ${someone.id}`)),
    ).toEqual({ profiles: [someone.id] });
    expect(await changesOf(run(sql`update profiles set updated_at = updated_at where false`))).toEqual({});
    expect(
      await changesOf(() =>
        ctx.app.db
          .transaction()
          .execute(async (trx) => {
            await sql`update profiles set updated_at = now() where id = ${someone.id}`.execute(trx);
            throw new Error("rollback");
          })
          .catch(() => {}),
      ),
    ).toEqual({});
  });

  it("names the two parties of a conversation for a message, its attachment and its reading", async () => {
    const [p, leroy, martin] = await Promise.all([patient(ctx.app), dentist(ctx.app), dentist(ctx.app)]);
    const requestId = await newRequest(p.id);
    await newRequest(p.id, martin.id);
    const { rows } = await sql<{ id: string }>`
      insert into conversations (request_id, patient_id, dentist_id) values (${requestId}, ${p.id}, ${leroy.id})
      returning id`.execute(ctx.app.db);
    const conversationId = rows[0]?.id;
    let messageId = "";
    const sent = await changesOf(async () => {
      const { rows } = await sql<{ id: string }>`
        insert into messages (conversation_id, sender_id, body) values (${conversationId}, ${p.id}, 'Bonjour')
        returning id`.execute(ctx.app.db);
      messageId = rows[0]?.id ?? "";
      await sql`update conversations set last_message_at = now() where id = ${conversationId}`.execute(
        ctx.app.db,
      );
    });
    expect(sent).toEqual({ messages: sorted(p.id, leroy.id), conversations: sorted(p.id, leroy.id) });
    expect(
      await changesOf(
        run(sql`insert into message_attachments (message_id, storage_key, file_name, mime_type, size)
          values (${messageId}, 'k', 'radio.png', 'image/png', 1)`),
      ),
    ).toEqual({ message_attachments: sorted(p.id, leroy.id) });
    expect(
      await changesOf(
        run(sql`update messages set read_at = now() where conversation_id = ${conversationId}`),
      ),
      // The conversation's unread counts, kept by the messages' triggers (migration 038), change too.
    ).toEqual({ messages: sorted(p.id, leroy.id), conversations: sorted(p.id, leroy.id) });
  });

  it("names everyone for a request open to all, its people for one sent by name", async () => {
    const [p, leroy, martin] = await Promise.all([patient(ctx.app), dentist(ctx.app), dentist(ctx.app)]);
    let named = "";
    const byName = await changesOf(async () => {
      named = await newRequest(p.id, leroy.id);
    });
    // The request and its tally (audience: Dr Leroy).
    expect(byName).toEqual({ requests: sorted(p.id, leroy.id), request_tallies: [leroy.id] });
    const toAll = await changesOf(() => newRequest(p.id));
    expect(toAll).toEqual({ requests: ["*"], request_tallies: ["*"] });
    // Dr Martin's offer on it (with Dr Leroy's answer) makes him one of its people.
    await newOffer(named, martin.id);
    expect(await changesOf(run(sql`update requests set budget = '2 000 €' where id = ${named}`))).toEqual({
      requests: sorted(p.id, leroy.id, martin.id),
    });
  });

  it("names everyone only when what every dentist's list shows of a request open to all changes", async () => {
    const [p, leroy] = await Promise.all([patient(ctx.app), dentist(ctx.app)]);
    const id = await newRequest(p.id);
    await sql`insert into request_dentists (request_id, dentist_id, status) values (${id}, ${leroy.id}, 'responded')`.execute(
      ctx.app.db,
    );
    // In review after an answer, a new description: nothing other dentists' lists show.
    expect(
      await changesOf(
        run(sql`update requests set status = 'in_review', description = 'Couronne' where id = ${id}`),
      ),
    ).toEqual({ requests: sorted(p.id, leroy.id) });
    expect(await changesOf(run(sql`update requests set urgency = 'high' where id = ${id}`))).toEqual({
      requests: ["*"],
    });
    // Settled: it leaves every dentist's list.
    const settled = await changesOf(run(sql`update requests set status = 'accepted' where id = ${id}`));
    expect(settled.requests).toEqual(["*"]);
    expect(await changesOf(run(sql`delete from requests where id = ${id}`))).toMatchObject({
      requests: ["*"],
    });
  });

  it("names an offer's dentist and patient, and who sees the request when it is accepted", async () => {
    const [p, leroy, martin] = await Promise.all([patient(ctx.app), dentist(ctx.app), dentist(ctx.app)]);
    const named = await newRequest(p.id, leroy.id);
    let offerId = "";
    const sent = await changesOf(async () => {
      offerId = await newOffer(named, leroy.id);
    });
    expect(sent).toEqual({ offers: sorted(p.id, leroy.id) });
    expect(
      await changesOf(
        run(
          sql`insert into offer_lines (offer_id, position, act, fee_cents) values (${offerId}, 0, 'Couronne', 90000)`,
        ),
      ),
    ).toEqual({ offer_lines: sorted(p.id, leroy.id) });
    expect(await changesOf(run(sql`update offers set status = 'accepted' where id = ${offerId}`))).toEqual({
      offers: sorted(p.id, leroy.id),
    });
    // On a request open to all, an accepted offer settles it in every dentist's "en attente".
    const open = await newRequest(p.id);
    const martinsOffer = await newOffer(open, martin.id);
    expect(
      await changesOf(run(sql`update offers set status = 'accepted' where id = ${martinsOffer}`)),
    ).toEqual({ offers: ["*"] });
  });

  it("names an appointment's parties and the patients of its dentist's pending appointments", async () => {
    const [p, other, stranger, leroy, martin] = await Promise.all([
      patient(ctx.app),
      patient(ctx.app),
      patient(ctx.app),
      dentist(ctx.app),
      dentist(ctx.app),
    ]);
    const appointment = async (patientId: string, dentistId: string) => {
      const requestId = await newRequest(patientId, dentistId);
      const offerId = await newOffer(requestId, dentistId);
      const { rows } = await sql<{ id: string }>`
        insert into appointments (request_id, offer_id, patient_id, dentist_id, status, awaiting)
        values (${requestId}, ${offerId}, ${patientId}, ${dentistId}, 'pending', 'dentist') returning id`.execute(
        ctx.app.db,
      );
      return rows[0]?.id ?? "";
    };
    await appointment(other.id, leroy.id);
    await appointment(stranger.id, martin.id);
    const mine = await appointment(p.id, leroy.id);
    const confirmed = await changesOf(
      run(sql`update appointments set status = 'confirmed', awaiting = null, starts_at = now() + interval '2 days'
        where id = ${mine}`),
    );
    expect(confirmed).toEqual({ appointments: sorted(p.id, leroy.id, other.id) });
    expect(
      await changesOf(
        run(
          sql`insert into appointment_options (appointment_id, starts_at) values (${mine}, now() + interval '3 days')`,
        ),
      ),
    ).toEqual({ appointment_options: sorted(p.id, leroy.id) });
  });

  it("names the person for their own verification or subscription, everyone for their name", async () => {
    const leroy = await dentist(ctx.app);
    expect(await changesOf(run(sql`update profiles set is_verified = false where id = ${leroy.id}`))).toEqual(
      {
        profiles: [leroy.id],
      },
    );
    expect(
      await changesOf(
        run(sql`insert into subscriptions (dentist_id, status, status_since, trial_ends_at)
          values (${leroy.id}, 'trialing', now(), now() + interval '30 days')`),
      ),
    ).toEqual({ subscriptions: [leroy.id] });
    expect(
      await changesOf(run(sql`update profiles set full_name = 'Dr Jeanne Leroy' where id = ${leroy.id}`)),
    ).toEqual({ profiles: ["*"] });
  });

  it("names everyone for a truncate, and when the people do not fit in a notification", async () => {
    expect(await changesOf(run(sql`truncate appointment_reminders`))).toEqual({
      appointment_reminders: ["*"],
    });
    expect(
      await changesOf(
        run(sql`insert into users (name, email) select 'Test', 'many-' || g || '-' || gen_random_uuid() || '@example.test'
          from generate_series(1, 250) g`),
      ),
    ).toEqual({ users: ["*"] });
  });
});
