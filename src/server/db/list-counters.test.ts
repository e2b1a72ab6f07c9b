import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parisToday } from "../../shared/policies/offers";
import { createTestContext, type TestContext } from "../testing/harness";
import { api, dentist, patient, type Who } from "../testing/people";

/*
 * What the patient's lists show of each request, kept by the database (migration 039, issue 38,
 * ADR 057 addendum): its documents, its offers still 'sent' and its newest live appointment,
 * whoever writes the documents, offers and appointments (here an operator's SQL: inserts, updates,
 * deletes, truncates), equal at every commit to a recount; and the list's rows equal to what the
 * per-row sub-selects it ran before gave. The same for each message's attachments (the
 * conversation list's last message).
 */

let ctx: TestContext;
let alice: Who;
let drMartin: Who;
let drLeroy: Who;
let first: string;
let second: string;

const newRequest = async (status: string) =>
  (
    await ctx.app.db
      .insertInto("requests")
      .values({ patient_id: alice.id, treatment_type: "crown", urgency: "low", status })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await patient(ctx.app);
  drMartin = await dentist(ctx.app);
  drLeroy = await dentist(ctx.app);
  first = await newRequest("in_review");
  second = await newRequest("in_review");
});
afterAll(async () => {
  await ctx?.close();
});

interface Figures {
  documents: number;
  sent: number;
  status: string | null;
  starts_at: string | null;
}

/** The kept columns of each of Alice's requests, and the same figures counted from their tables. */
async function keptAndCounted() {
  const { rows } = await sql<{
    id: string;
    document_count: number;
    sent_offers: number;
    appointment_status: string | null;
    appointment_starts_at: Date | null;
    documents_counted: number;
    sent_counted: number;
    status_found: string | null;
    starts_at_found: Date | null;
  }>`
    select r.id, r.document_count, r.sent_offers, r.appointment_status, r.appointment_starts_at,
      (select count(*)::int from documents d where d.request_id = r.id) as documents_counted,
      (select count(*)::int from offers o where o.request_id = r.id and o.status = 'sent') as sent_counted,
      (select a.status from appointments a where a.request_id = r.id and a.status in ('pending', 'confirmed')
        order by a.created_at desc, a.id desc limit 1) as status_found,
      (select a.starts_at from appointments a where a.request_id = r.id and a.status in ('pending', 'confirmed')
        order by a.created_at desc, a.id desc limit 1) as starts_at_found
    from requests r where r.patient_id = ${alice.id} order by r.created_at, r.id`.execute(ctx.app.db);
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    kept: Object.fromEntries(
      rows.map((r) => [
        r.id,
        {
          documents: r.document_count,
          sent: r.sent_offers,
          status: r.appointment_status,
          starts_at: iso(r.appointment_starts_at),
        },
      ]),
    ) as Record<string, Figures>,
    counted: Object.fromEntries(
      rows.map((r) => [
        r.id,
        {
          documents: r.documents_counted,
          sent: r.sent_counted,
          status: r.status_found,
          starts_at: iso(r.starts_at_found),
        },
      ]),
    ) as Record<string, Figures>,
  };
}

/** The kept figures equal a recount, and the first request's are `expected`. */
async function expectKeptEqualsCounted(expected: Partial<Figures>) {
  const { kept, counted } = await keptAndCounted();
  expect(kept).toEqual(counted);
  expect(kept[first]).toMatchObject(expected);
}

const addDocuments = (requestId: string, names: string[]) =>
  ctx.app.db
    .insertInto("documents")
    .values(
      names.map((name, position) => ({
        request_id: requestId,
        owner_id: alice.id,
        storage_key: `cle-${name}-${requestId}`,
        file_name: name,
        size: 10,
        mime_type: "application/pdf",
        position,
      })),
    )
    .execute();

const addOffer = async (
  requestId: string,
  dentistId: string,
  validUntil: string | null,
  status: "sent" | "accepted" = "sent",
) =>
  (
    await ctx.app.db
      .insertInto("offers")
      .values({
        request_id: requestId,
        dentist_id: dentistId,
        amount_cents: 90_000,
        valid_until: validUntil,
        status,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;

describe("request counters kept by the triggers of documents, offers and appointments", () => {
  it("follow inserts, updates, deletes and truncates made in SQL", async () => {
    await expectKeptEqualsCounted({ documents: 0, sent: 0, status: null, starts_at: null });

    // Documents: two in one statement, one moved to the other request, one deleted.
    await addDocuments(first, ["radio.pdf", "devis.pdf"]);
    await expectKeptEqualsCounted({ documents: 2 });
    await sql`update documents set request_id = ${second} where file_name = 'devis.pdf'`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ documents: 1 });
    expect((await keptAndCounted()).kept[second]?.documents).toBe(1);
    await sql`delete from documents where request_id = ${first}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ documents: 0 });

    // Offers: two sent, one of them closed, then accepted.
    const martin = await addOffer(first, drMartin.id, null);
    const leroy = await addOffer(first, drLeroy.id, "2020-01-01");
    await expectKeptEqualsCounted({ sent: 2 });
    await sql`update offers set status = 'closed' where id = ${leroy}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ sent: 1 });
    await sql`update offers set status = 'accepted' where id = ${martin}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ sent: 0 });

    // Appointments: a pending one, confirmed and moved; a newer live one wins; cancelled, none.
    const at = "2030-03-05T08:30:00.000Z";
    const appointment = (
      await ctx.app.db
        .insertInto("appointments")
        .values({
          request_id: first,
          offer_id: martin,
          patient_id: alice.id,
          dentist_id: drMartin.id,
          status: "pending",
          awaiting: "dentist",
          starts_at: new Date(at),
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await expectKeptEqualsCounted({ status: "pending", starts_at: at });
    await sql`update appointments set status = 'confirmed', awaiting = null, starts_at = starts_at + interval '1 day'
      where id = ${appointment}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ status: "confirmed", starts_at: "2030-03-06T08:30:00.000Z" });
    await sql`insert into appointments (request_id, offer_id, patient_id, dentist_id, status, awaiting, starts_at, created_at)
      values (${first}, ${leroy}, ${alice.id}, ${drLeroy.id}, 'pending', 'patient', null, now() + interval '1 minute')`.execute(
      ctx.app.db,
    );
    await expectKeptEqualsCounted({ status: "pending", starts_at: null });
    await sql`update appointments set status = 'cancelled', awaiting = null where request_id = ${first}`.execute(
      ctx.app.db,
    );
    await expectKeptEqualsCounted({ status: null, starts_at: null });
    await sql`update appointments set status = 'confirmed' where id = ${appointment}`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ status: "confirmed" });

    // Truncates: each resets its own figures.
    await addDocuments(first, ["radio.pdf"]);
    await addOffer(second, drLeroy.id, null);
    await expectKeptEqualsCounted({ documents: 1, status: "confirmed" });
    await sql`truncate appointments cascade`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ documents: 1, status: null, starts_at: null });
    await sql`truncate documents cascade`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ documents: 0 });
    expect((await keptAndCounted()).kept[second]).toMatchObject({ documents: 0, sent: 1 });
    await sql`truncate offers cascade`.execute(ctx.app.db);
    await expectKeptEqualsCounted({ documents: 0, sent: 0 });
    expect((await keptAndCounted()).kept[second]).toMatchObject({ sent: 0 });
  });

  it("leave a request's updated_at alone, and a deleted request's documents and offers delete cleanly", async () => {
    const third = await newRequest("new");
    const before = await ctx.app.db
      .selectFrom("requests")
      .select("updated_at")
      .where("id", "=", third)
      .executeTakeFirstOrThrow();
    await addDocuments(third, ["radio.pdf"]);
    await addOffer(third, drMartin.id, null);
    const after = await ctx.app.db
      .selectFrom("requests")
      .select(["updated_at", "document_count", "sent_offers"])
      .where("id", "=", third)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ updated_at: before.updated_at, document_count: 1, sent_offers: 1 });
    await ctx.app.db.deleteFrom("requests").where("id", "=", third).execute();
    const { kept, counted } = await keptAndCounted();
    expect(kept[third]).toBeUndefined();
    expect(kept).toEqual(counted);
  });

  it("give the patient's list the rows its per-row sub-selects gave", async () => {
    // Every case the journey reads: documents, open offers (one expired, one without a limit, one
    // valid today), a live appointment, none.
    const today = parisToday(new Date());
    const withAll = await newRequest("in_review");
    await addDocuments(withAll, ["a.pdf", "b.pdf", "c.pdf"]);
    await addOffer(withAll, drMartin.id, today);
    await addOffer(withAll, drLeroy.id, "2020-01-01");
    const accepted = await newRequest("accepted");
    const chosen = await addOffer(accepted, drMartin.id, null, "accepted");
    await addOffer(accepted, drLeroy.id, null);
    await sql`insert into appointments (request_id, offer_id, patient_id, dentist_id, status, starts_at)
      values (${accepted}, ${chosen}, ${alice.id}, ${drMartin.id}, 'confirmed', now() + interval '3 days')`.execute(
      ctx.app.db,
    );

    const list = await api(ctx).get("/api/patient/requests?page_size=50", alice);
    expect(list.statusCode, list.body).toBe(200);
    const { rows } = await sql<{
      id: string;
      document_count: number;
      open_offers: number;
      appointment_status: string | null;
      appointment_starts_at: Date | null;
    }>`
      select r.id,
        (select count(*)::int from documents d where d.request_id = r.id) as document_count,
        (select count(*)::int from offers o where o.request_id = r.id and o.status = 'sent'
          and (o.valid_until is null or o.valid_until >= ${today}::date)) as open_offers,
        (select a.status from appointments a where a.request_id = r.id and a.status in ('pending', 'confirmed')
          order by a.created_at desc limit 1) as appointment_status
      from requests r where r.patient_id = ${alice.id} order by r.created_at desc, r.id desc`.execute(
      ctx.app.db,
    );
    const items = list.json().items as {
      id: string;
      document_count: number;
      journey: { state: string; open_offers: number };
    }[];
    expect(items.map((item) => item.id)).toEqual(rows.map((row) => row.id));
    expect(items.map((item) => [item.document_count, item.journey.open_offers])).toEqual(
      rows.map((row) => [row.document_count, row.open_offers]),
    );
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get(withAll)).toMatchObject({
      document_count: 3,
      journey: { state: "compare", open_offers: 1 },
    });
    expect(byId.get(accepted)?.journey.state).toBe("appointment_confirmed");
    expect(rows.find((row) => row.id === accepted)?.appointment_status).toBe("confirmed");
  });
});

describe("a message's attachments kept by their triggers", () => {
  /** Each message of the conversation: kept count and recount. */
  async function attachmentsKeptAndCounted(conversationId: string) {
    const { rows } = await sql<{ id: string; kept: number; counted: number }>`
      select m.id, m.attachment_count as kept,
        (select count(*)::int from message_attachments a where a.message_id = m.id) as counted
      from messages m where m.conversation_id = ${conversationId} order by m.created_at`.execute(ctx.app.db);
    expect(rows.map((r) => r.kept)).toEqual(rows.map((r) => r.counted));
    return rows.map((r) => r.kept);
  }

  it("follow inserts, moves, deletes and a truncate made in SQL, and are what the conversation list shows", async () => {
    const request = await newRequest("in_review");
    const conversation = (
      await ctx.app.db
        .insertInto("conversations")
        .values({ request_id: request, patient_id: alice.id, dentist_id: drMartin.id })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const { rows } = await sql<{
      id: string;
    }>`insert into messages (conversation_id, sender_id, body, created_at) values
      (${conversation}, ${drMartin.id}, 'Bonjour', now() - interval '2 minutes'),
      (${conversation}, ${drMartin.id}, 'Voici le devis', now() - interval '1 minute')
      returning id`.execute(ctx.app.db);
    const [older, last] = rows.map((r) => r.id);
    expect(await attachmentsKeptAndCounted(conversation)).toEqual([0, 0]);

    await sql`insert into message_attachments (message_id, storage_key, file_name, mime_type, size) values
      (${last}, ${`pj-1-${conversation}`}, 'devis.pdf', 'application/pdf', 10),
      (${last}, ${`pj-2-${conversation}`}, 'radio.png', 'image/png', 10),
      (${older}, ${`pj-3-${conversation}`}, 'photo.png', 'image/png', 10)`.execute(ctx.app.db);
    expect(await attachmentsKeptAndCounted(conversation)).toEqual([1, 2]);
    const shown = async () => {
      const list = await api(ctx).get("/api/conversations", alice);
      expect(list.statusCode, list.body).toBe(200);
      return list.json().items.find((c: { id: string }) => c.id === conversation).last_message
        .attachment_count;
    };
    expect(await shown()).toBe(2);

    await sql`update message_attachments set message_id = ${older} where file_name = 'radio.png' and message_id = ${last}`.execute(
      ctx.app.db,
    );
    expect(await attachmentsKeptAndCounted(conversation)).toEqual([2, 1]);
    await sql`delete from message_attachments where message_id = ${last}`.execute(ctx.app.db);
    expect(await attachmentsKeptAndCounted(conversation)).toEqual([2, 0]);
    expect(await shown()).toBe(0);
    await sql`truncate message_attachments`.execute(ctx.app.db);
    expect(await attachmentsKeptAndCounted(conversation)).toEqual([0, 0]);
  });
});
