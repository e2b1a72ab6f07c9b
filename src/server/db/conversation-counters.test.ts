import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { api, dentist, patient, postForm, type Who } from "../testing/people";

/*
 * What a conversation list shows of each conversation, kept by the database (migration 038, issue 38,
 * ADR 057): each party's unread messages and the newest message, whoever writes the messages (here
 * an operator's SQL: inserts, reads, deletes, a truncate), equal at every commit to a recount.
 */

let ctx: TestContext;
let alice: Who;
let drMartin: Who;
let conversationId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await patient(ctx.app);
  drMartin = await dentist(ctx.app);
  const request = await ctx.app.db
    .insertInto("requests")
    .values({ patient_id: alice.id, treatment_type: "crown", urgency: "low", status: "in_review" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const conversation = await ctx.app.db
    .insertInto("conversations")
    .values({ request_id: request.id, patient_id: alice.id, dentist_id: drMartin.id })
    .returning("id")
    .executeTakeFirstOrThrow();
  conversationId = conversation.id;
});
afterAll(async () => {
  await ctx?.close();
});

/** The kept columns, and the same figures counted from the messages. */
async function keptAndCounted() {
  const { rows } = await sql<{
    patient_unread: number;
    dentist_unread: number;
    last_message_id: string | null;
    patient_counted: number;
    dentist_counted: number;
    last_found: string | null;
  }>`
    select c.patient_unread, c.dentist_unread, c.last_message_id,
      (select count(*)::int from messages m where m.conversation_id = c.id and m.read_at is null
        and (m.sender_id is null or m.sender_id <> c.patient_id)) as patient_counted,
      (select count(*)::int from messages m where m.conversation_id = c.id and m.read_at is null
        and (m.sender_id is null or m.sender_id <> c.dentist_id)) as dentist_counted,
      (select m.id from messages m where m.conversation_id = c.id order by m.created_at desc, m.id desc limit 1) as last_found
    from conversations c where c.id = ${conversationId}`.execute(ctx.app.db);
  const row = rows[0];
  if (!row) throw new Error("conversation introuvable");
  return {
    kept: { patient: row.patient_unread, dentist: row.dentist_unread, last: row.last_message_id },
    counted: { patient: row.patient_counted, dentist: row.dentist_counted, last: row.last_found },
  };
}

async function expectKeptEqualsCounted(expected: { patient: number; dentist: number }) {
  const { kept, counted } = await keptAndCounted();
  expect(kept).toEqual(counted);
  expect({ patient: kept.patient, dentist: kept.dentist }).toEqual(expected);
}

describe("conversation counters kept by the messages' triggers", () => {
  it("follow inserts, reads, deletes and a truncate made in SQL", async () => {
    await expectKeptEqualsCounted({ patient: 0, dentist: 0 });
    expect((await keptAndCounted()).kept.last).toBeNull();

    // Three messages in one statement: two from the dentist, one from the patient.
    await sql`insert into messages (conversation_id, sender_id, body, created_at) values
      (${conversationId}, ${drMartin.id}, 'Bonjour', now() - interval '3 minutes'),
      (${conversationId}, ${alice.id}, 'Merci', now() - interval '2 minutes'),
      (${conversationId}, ${drMartin.id}, 'Mardi ?', now() - interval '1 minute')`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ patient: 2, dentist: 1 });
    const newest = (await keptAndCounted()).kept.last;
    expect(newest).not.toBeNull();

    // The patient reads the dentist's messages.
    await sql`update messages set read_at = now()
      where conversation_id = ${conversationId} and sender_id = ${drMartin.id}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ patient: 0, dentist: 1 });

    // The newest message deleted: the one before it becomes the last.
    await sql`delete from messages where id = ${newest}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ patient: 0, dentist: 1 });
    expect((await keptAndCounted()).kept.last).not.toBe(newest);

    await sql`truncate messages cascade`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ patient: 0, dentist: 0 });
    expect((await keptAndCounted()).kept.last).toBeNull();
  });

  it("are what the conversation list and the dentist's dashboard show, after messages sent through the API", async () => {
    const reply = await postForm(ctx.app, `/api/conversations/${conversationId}/messages`, drMartin, {
      body: "Bonjour Alice",
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const list = (await api(ctx).get("/api/conversations", alice)).json();
    const row = list.items.find((c: { id: string }) => c.id === conversationId);
    expect(row.unread_count).toBe(1);
    expect(row.last_message).toMatchObject({ body: "Bonjour Alice", from_me: false });
    expect(list.unread_total).toBe(1);
    const mine = (await api(ctx).get("/api/conversations", drMartin)).json();
    expect(mine.items.find((c: { id: string }) => c.id === conversationId)).toMatchObject({
      unread_count: 0,
      last_message: { body: "Bonjour Alice", from_me: true },
    });
    await expectKeptEqualsCounted({ patient: 1, dentist: 0 });

    const answer = await postForm(ctx.app, `/api/conversations/${conversationId}/messages`, alice, {
      body: "Merci docteur",
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const dashboard = (await api(ctx).get("/api/dentist/dashboard", drMartin)).json();
    expect(dashboard.unread_messages).toBe(1);
    expect(dashboard.todo.conversations.count).toBe(1);
    expect(dashboard.todo.conversations.items[0]).toMatchObject({ id: conversationId, unread_count: 1 });
    expect(dashboard.recent_messages[0]).toMatchObject({
      body: "Merci docteur",
      read: false,
      from_me: false,
    });
    await expectKeptEqualsCounted({ patient: 1, dentist: 1 });
  });
});
