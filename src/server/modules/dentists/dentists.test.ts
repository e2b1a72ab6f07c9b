import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { TREATMENT_LABELS, TREATMENT_TYPES, type TreatmentType } from "../../../shared/domain/treatments";
import { keysMatchingLabel } from "../../../shared/format/search";
import { requestOpenToDentist, requestVisibleToDentist } from "../../access/requests";
import { appPerFile, createTestContext, postRequest, signUpPatient } from "../../testing/harness";
import { api, peoplePerFile, dentist as signUpDentist, USUAL_CAST, type Who } from "../../testing/people";

// More sign-ups from one address than the per-IP limit of the account routes allows.
const ctx = appPerFile({ env: { LOGIN_RATE_LIMIT_PER_IP: "1000" } });
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, { ...USUAL_CAST, unverified: { unverified: "Ulysse" } });

const dentist = (name: string) => signUpDentist(ctx.app, { first_name: name });

async function createRequest(patient: string, fields: Record<string, string> = {}) {
  const response = await postRequest(ctx.app, who[patient]?.cookie, {
    treatment_type: "implant",
    consent: "true",
    budget: "1 800 €",
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

describe("what a dentist sees (ADR 012)", () => {
  it("shows a verified dentist the requests sent to all and to them, not those sent to another", async () => {
    const toAll = await createRequest("Paula", { treatment_type: "crown" });
    const toA = await createRequest("Paula", { recipient: who.drA?.id ?? "" });
    const toB = await createRequest("Quentin", { recipient: who.drB?.id ?? "" });
    const listA = (await get("/api/dentist/requests?page_size=50", who.drA)).json();
    const ids = listA.items.map((i: { id: string }) => i.id);
    expect(ids).toEqual(expect.arrayContaining([toAll, toA]));
    expect(ids).not.toContain(toB);
    expect(listA.verified).toBe(true);
    expect(listA.items.find((i: { id: string }) => i.id === toAll)).toMatchObject({
      patient_name: "Paula Durand",
      treatment_type: "crown",
      my_status: "pending",
      is_new: true,
      budget: "1 800 €",
      urgency: "medium",
    });
    expect((await get(`/api/dentist/requests/${toB}`, who.drA)).statusCode).toBe(404);
    expect((await get(`/api/dentist/requests/${toB}`, who.drA)).json().error.message).toBe(
      "Impossible de trouver cette demande.",
    );
  });

  it("gives an unverified dentist no patient data at all", async () => {
    const id = await createRequest("Paula");
    const list = (await get("/api/dentist/requests", who.unverified)).json();
    expect(list).toMatchObject({ items: [], verified: false, treatments: [] });
    expect((await get(`/api/dentist/requests/${id}`, who.unverified)).statusCode).toBe(404);
    expect(
      (await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, who.unverified)).statusCode,
    ).toBe(404);
    const dashboard = (await get("/api/dentist/dashboard", who.unverified)).json();
    // No request to answer: no rate (« — »), not a 0 % that reads as a bad score.
    expect(dashboard).toMatchObject({
      verified: false,
      pending_count: 0,
      recent_requests: [],
      response_rate: null,
    });
  });

  it("refuses patients (403) and anonymous callers (401)", async () => {
    expect((await get("/api/dentist/requests", who.Paula)).statusCode).toBe(403);
    expect((await get("/api/dentist/requests")).statusCode).toBe(401);
    expect((await get("/api/dentist/dashboard")).statusCode).toBe(401);
  });

  it("filters by status and treatment, searches by patient name or treatment label, pages on the server", async () => {
    const crown = await createRequest("Quentin", { treatment_type: "whitening" });
    const byName = (await get("/api/dentist/requests?search=quentin&page_size=50", who.drA)).json();
    expect(byName.items.map((i: { id: string }) => i.id)).toContain(crown);
    expect(byName.items.every((i: { patient_name: string }) => i.patient_name.startsWith("Quentin"))).toBe(
      true,
    );
    const byLabel = (
      await get(`/api/dentist/requests?search=${encodeURIComponent("blanchi")}`, who.drA)
    ).json();
    expect(byLabel.items.map((i: { id: string }) => i.id)).toEqual([crown]);
    const byType = (await get("/api/dentist/requests?treatment=whitening", who.drA)).json();
    expect(byType.items.map((i: { id: string }) => i.id)).toEqual([crown]);
    expect(byType.treatments).toEqual(expect.arrayContaining(["crown", "implant", "whitening"]));
    const page1 = (await get("/api/dentist/requests?page_size=1", who.drA)).json();
    expect(page1.items).toHaveLength(1);
    expect(page1.has_more).toBe(true);
    const responded = (await get("/api/dentist/requests?status=responded", who.drA)).json();
    expect(responded.items).toEqual([]);
  });
});

describe("opening, assigning and replying", () => {
  // Twenty more dentists for the concurrent replies below: their sign-ups (a password hash each) are
  // not that test's subject, and took most of its minute on a loaded machine.
  let twenty: Who[] = [];
  beforeAll(async () => {
    twenty = await Promise.all(Array.from({ length: 20 }, (_, i) => dentist(`Dr${i}`)));
  });

  it("clears 'Nouvelle' when opened, assigns, replies once, and the patient sees a dentist engaged", async () => {
    const id = await createRequest("Paula", { treatment_type: "bridge" });
    const detail = (await get(`/api/dentist/requests/${id}`, who.drA)).json();
    expect(detail).toMatchObject({
      id,
      my_status: "pending",
      assigned: false,
      conversation_id: null,
    });
    // Dentists talk to patients in the product: never their e-mail address or phone number.
    expect(detail).not.toHaveProperty("patient_email");
    expect(JSON.stringify(detail)).not.toContain("@");
    expect(detail.documents).toHaveLength(1);
    const again = (await get("/api/dentist/requests?page_size=50", who.drA)).json();
    expect(again.items.find((i: { id: string }) => i.id === id).is_new).toBe(false);

    const assign = await post(`/api/dentist/requests/${id}/assign`, {}, who.drA);
    expect(assign.json().message).toBe("Demande assignée avec succès");
    expect((await get(`/api/patient/requests/${id}`, who.Paula)).json().status).toBe("in_review");

    const before = (await ctx.mails()).length;
    const reply = await post(
      `/api/dentist/requests/${id}/reply`,
      { message: "  Je peux vous proposer 1 200 €.  " },
      who.drA,
    );
    expect(reply.statusCode).toBe(201);
    expect(reply.json().message).toBe("Réponse envoyée avec succès");
    const conversationId = reply.json().conversation_id;
    const message = await ctx.app.db
      .selectFrom("messages")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();
    expect(message).toMatchObject({ body: "Je peux vous proposer 1 200 €.", sender_id: who.drA?.id });

    const second = await post(`/api/dentist/requests/${id}/reply`, { message: "Encore" }, who.drA);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe("Cette demande a déjà reçu une réponse.");

    const after = (await get(`/api/dentist/requests/${id}`, who.drA)).json();
    expect(after).toMatchObject({ my_status: "responded", assigned: true, conversation_id: conversationId });
    const patientView = (await get(`/api/patient/requests/${id}`, who.Paula)).json();
    expect(patientView.replies).toEqual([
      expect.objectContaining({
        conversation_id: conversationId,
        message: "Je peux vous proposer 1 200 €.",
        dentist: expect.objectContaining({ id: who.drA?.id, full_name: "Anne Martin" }),
      }),
    ]);
    // Another dentist still sees it pending: each dentist has their own status (ADR 007).
    expect((await get(`/api/dentist/requests/${id}`, who.drB)).json().my_status).toBe("pending");

    // The e-mail goes out after the commit.
    const mails = (await ctx.mails()).slice(before);
    expect(
      mails.some(
        // Its link leads to the replies on her request's page.
        (m) =>
          m.includes("Le Dr Anne Martin a répondu à votre demande") &&
          m.includes(`/patient/request/${id}#reponses`),
      ),
    ).toBe(true);
  });

  it("refuses assignment to a patient (403), an unverified dentist and another dentist's request (404)", async () => {
    const toB = await createRequest("Quentin", { recipient: who.drB?.id ?? "" });
    expect((await post(`/api/dentist/requests/${toB}/assign`, {}, who.Paula)).statusCode).toBe(403);
    expect((await post(`/api/dentist/requests/${toB}/assign`, {}, who.unverified)).statusCode).toBe(404);
    expect((await post(`/api/dentist/requests/${toB}/assign`, {}, who.drA)).statusCode).toBe(404);
    expect(
      (await post(`/api/dentist/requests/${toB}/reply`, { message: "Bonjour" }, who.drA)).statusCode,
    ).toBe(404);
    expect((await post(`/api/dentist/requests/${toB}/assign`, {})).statusCode).toBe(401);
  });

  it("refuses an empty reply with the French message", async () => {
    const id = await createRequest("Paula");
    const response = await post(`/api/dentist/requests/${id}/reply`, { message: "   " }, who.drB);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("Veuillez écrire une réponse.");
  });

  it("turns a double click into one reply, and twenty dentists into twenty replies", async () => {
    const id = await createRequest("Quentin");
    const double = await Promise.all([
      post(`/api/dentist/requests/${id}/reply`, { message: "Un" }, who.drA),
      post(`/api/dentist/requests/${id}/reply`, { message: "Deux" }, who.drA),
    ]);
    expect(double.map((r) => r.statusCode).sort()).toEqual([201, 409]);

    const replies = await Promise.all(
      twenty.map((d) => post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, d)),
    );
    expect(replies.every((r) => r.statusCode === 201)).toBe(true);
    const conversations = await ctx.app.db
      .selectFrom("conversations")
      .select("id")
      .where("request_id", "=", id)
      .execute();
    expect(conversations).toHaveLength(21);
    const responded = await ctx.app.db
      .selectFrom("request_dentists")
      .select("dentist_id")
      .where("request_id", "=", id)
      .where("status", "=", "responded")
      .execute();
    expect(responded).toHaveLength(21);
  });

  it("answers 404 when replying to a cancelled request", async () => {
    const id = await createRequest("Paula");
    await post(`/api/patient/requests/${id}/cancel`, {}, who.Paula);
    expect(
      (await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, who.drA)).statusCode,
    ).toBe(404);
  });
});

describe("dentist dashboard", () => {
  it("counts pending requests, the response rate, this month's activity and unread messages", async () => {
    const fresh = await dentist("Diane");
    const first = (await get("/api/dentist/dashboard", fresh)).json();
    expect(first.verified).toBe(true);
    expect(first.response_rate).toBe(0);
    expect(first.average_response_minutes).toBeNull();
    const id = await createRequest("Paula");
    await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, fresh);
    const after = (await get("/api/dentist/dashboard", fresh)).json();
    expect(after.pending_count).toBe(first.pending_count);
    expect(after.response_rate).toBeGreaterThan(0);
    expect(after.monthly.replies).toBe(1);
    expect(after.monthly.received).toBeGreaterThanOrEqual(1);
    expect(after.average_response_minutes).toBe(0);
    expect(after.recent_requests.length).toBeLessThanOrEqual(5);
    expect(after.unread_messages).toBe(0);
  });

  it("keeps a request received when its patient accepts an offer, and offers its treatment in the list's filter", async () => {
    // Irène's own requests only: sent to her by name, so other files' and tests' requests to all
    // cannot move her counts.
    const irene = await dentist("Irène");
    const monthly = async () => (await get("/api/dentist/dashboard", irene)).json().monthly;
    const before = await monthly();
    const id = await createRequest("Paula", { recipient: irene.id, treatment_type: "denture" });
    expect((await monthly()).received).toBe(before.received + 1);
    const sent = await post(
      `/api/dentist/requests/${id}/offers`,
      { amount_cents: 120_000, lines: [{ act: "Prothèse amovible complète", fee_cents: 120_000 }] },
      irene,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const accepted = await post(`/api/patient/offers/${sent.json().offer.id}/accept`, undefined, who.Paula);
    expect(accepted.statusCode, accepted.body).toBe(200);
    // Closed by her acceptance, the request stays one received this month.
    expect((await monthly()).received).toBe(before.received + 1);
    // His list shows it (the third branch): the filter offers its treatment, and filters by it.
    const list = (await get("/api/dentist/requests?page_size=50", irene)).json();
    expect(list.items.map((i: { id: string }) => i.id)).toContain(id);
    expect(list.treatments).toContain("denture");
    const denture = (await get("/api/dentist/requests?treatment=denture", irene)).json();
    expect(denture.items.map((i: { id: string }) => i.id)).toEqual([id]);
    // The same for a page with no row (the types then come from a query of their own).
    const empty = (await get("/api/dentist/requests?treatment=denture&page=2&page_size=1", irene)).json();
    expect(empty.items).toEqual([]);
    expect(empty.treatments).toContain("denture");
    // Withdrawn by its patient, a request no longer counts.
    const other = await createRequest("Quentin", { recipient: irene.id });
    expect((await monthly()).received).toBe(before.received + 2);
    expect((await post(`/api/patient/requests/${other}/cancel`, {}, who.Quentin)).statusCode).toBe(200);
    expect((await monthly()).received).toBe(before.received + 1);
  });

  it("shows the Messages page's conversations (one row each, the last message, the dentist's own included)", async () => {
    const gina = await dentist("Gina");
    const id = await createRequest("Quentin");
    const reply = await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, gina);
    const conversationId = reply.json().conversation_id;
    // The dentist's reply alone: the old dashboard said 'Aucun message' while Messages listed it.
    const alone = (await get("/api/dentist/dashboard", gina)).json();
    expect(alone.recent_messages).toEqual([
      {
        id: conversationId,
        conversation_id: conversationId,
        patient_name: "Quentin Durand",
        body: "Bonjour",
        created_at: expect.any(String),
        read: true,
        from_me: true,
      },
    ]);
    const base = Date.now() + 60_000;
    await ctx.app.db
      .insertInto("messages")
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          conversation_id: conversationId,
          sender_id: who.Quentin?.id ?? "",
          body: `Message ${i}`,
          created_at: new Date(base + i * 60_000),
          read_at: i < 4 ? new Date(base + i * 60_000 + 1000) : null,
        })),
      )
      .execute();
    const dashboard = (await get("/api/dentist/dashboard", gina)).json();
    expect(dashboard.unread_messages).toBe(3);
    expect(dashboard.recent_messages).toEqual([
      {
        id: conversationId,
        conversation_id: conversationId,
        patient_name: "Quentin Durand",
        body: "Message 6",
        created_at: new Date(base + 6 * 60_000).toISOString(),
        read: false,
        from_me: false,
      },
    ]);
    expect(dashboard.todo.conversations).toEqual({
      count: 1,
      items: [
        expect.objectContaining({ id: conversationId, unread_count: 3, patient_name: "Quentin Durand" }),
      ],
    });
  });
});

/**
 * Migration 008 and the rewritten list and dashboard: the same results as the straightforward
 * queries they replace (kept here as the reference), and counters that stay right.
 */
describe("lists and counts backed by indexes and tallies (migration 008)", () => {
  type Options = {
    search: string;
    status: "all" | DentistStatus;
    treatment?: TreatmentType;
    page: number;
    pageSize: number;
  };

  /** The list as it was first written: every visible request, sorted, then the page. */
  async function referenceList(dentistId: string, options: Options) {
    const db = ctx.app.db;
    let query = db
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .leftJoin("request_dentists as rd", (join) =>
        join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", dentistId),
      )
      .where((eb) => requestVisibleToDentist(eb, dentistId));
    if (options.status === "pending") {
      query = query.where((eb) => eb.or([eb("rd.status", "is", null), eb("rd.status", "=", "pending")]));
    } else if (options.status !== "all") {
      query = query.where("rd.status", "=", options.status);
    }
    if (options.treatment) query = query.where("r.treatment_type", "=", options.treatment);
    if (options.search) {
      const treatments = keysMatchingLabel(options.search, TREATMENT_LABELS);
      const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb("p.full_name", "ilike", pattern),
          ...(treatments.length ? [eb("r.treatment_type", "in", treatments)] : []),
        ]),
      );
    }
    const rows = await query
      .select([
        "r.id",
        sql<string>`coalesce(rd.status, 'pending')`.as("my_status"),
        sql<boolean>`(rd.opened_at is null)`.as("is_new"),
      ])
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(options.pageSize + 1)
      .offset((options.page - 1) * options.pageSize)
      .execute();
    return {
      items: rows.slice(0, options.pageSize).map((r) => [r.id, r.my_status, r.is_new]),
      has_more: rows.length > options.pageSize,
    };
  }

  async function referenceCounts(dentistId: string) {
    const row = await ctx.app.db
      .selectFrom("requests as r")
      .leftJoin("request_dentists as rd", (join) =>
        join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", dentistId),
      )
      .where((eb) => requestOpenToDentist(eb, dentistId))
      .select([
        sql<number>`count(*)::int`.as("visible"),
        sql<number>`count(*) filter (where rd.status in ('responded', 'confirmed'))::int`.as("answered"),
        sql<string[]>`coalesce(array_agg(distinct r.treatment_type), '{}')`.as("types"),
      ])
      .executeTakeFirstOrThrow();
    // Received this month: sent to all or to him, whatever became of them, but withdrawn ones.
    const { received } = await ctx.app.db
      .selectFrom("requests as r")
      .where((eb) =>
        eb.or([eb("r.recipient_dentist_id", "is", null), eb("r.recipient_dentist_id", "=", dentistId)]),
      )
      .where("r.status", "<>", "cancelled")
      .where(
        sql<boolean>`r.created_at >= (date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris')`,
      )
      .select(sql<number>`count(*)::int`.as("received"))
      .executeTakeFirstOrThrow();
    // The list's filter offers the types of what it shows: the open requests he sees and those whose
    // accepted offer is his.
    const chosen = await ctx.app.db
      .selectFrom("requests as r")
      .where("r.chosen_dentist_id", "=", dentistId)
      .where("r.status", "not in", ["new", "in_review"])
      .select("r.treatment_type")
      .execute();
    const types = new Set([...row.types, ...chosen.map((c) => c.treatment_type)]);
    return { ...row, received, types: TREATMENT_TYPES.filter((t) => types.has(t)) };
  }

  /** request_tallies against a recount of the requests. */
  async function expectTalliesRight(db = ctx.app.db) {
    const tallied = await sql<{ audience: string; treatment_type: string; month: string; n: number }>`
      select audience, treatment_type, month::text as month, requests as n
      from request_tallies where requests <> 0 order by 1, 2, 3`.execute(db);
    const counted = await sql<{ audience: string; treatment_type: string; month: string; n: number }>`
      select coalesce(recipient_dentist_id::text, 'all') as audience, treatment_type,
             date_trunc('month', created_at at time zone 'Europe/Paris')::date::text as month, count(*)::int as n
      from requests where status in ('new', 'in_review') group by 1, 2, 3 order by 1, 2, 3`.execute(db);
    expect(tallied.rows).toEqual(counted.rows);
    // request_month_tallies (migration 065): every request but the cancelled ones.
    const received = await sql<{ audience: string; month: string; n: number }>`
      select audience, month::text as month, received as n
      from request_month_tallies where received <> 0 order by 1, 2`.execute(db);
    const recounted = await sql<{ audience: string; month: string; n: number }>`
      select coalesce(recipient_dentist_id::text, 'all') as audience,
             date_trunc('month', created_at at time zone 'Europe/Paris')::date::text as month, count(*)::int as n
      from requests where status <> 'cancelled' group by 1, 2 order by 1, 2`.execute(db);
    expect(received.rows).toEqual(recounted.rows);
  }

  let eve: { cookie: string; id: string };
  let fred: { cookie: string; id: string };
  let claire: string;

  beforeAll(async () => {
    eve = await dentist("Eve");
    fred = await dentist("Fred");
    // Her name contains a treatment label: a search for it matches her requests twice over.
    const { response } = await signUpPatient(ctx.app, { first_name: "Claire", last_name: "Couronne" });
    claire = response.json().profile.id;
    const db = ctx.app.db;
    const patients = [who.Paula?.id ?? "", who.Quentin?.id ?? "", claire];
    const base = Date.parse("2026-01-15T12:00:00Z");
    const rows = Array.from({ length: 36 }, (_, i) => ({
      patient_id: patients[i % 3] as string,
      treatment_type: (["crown", "implant", "whitening", "bridge"] as const)[i % 4] as string,
      recipient_dentist_id: i % 5 === 0 ? eve.id : i % 7 === 0 ? fred.id : null,
      status: (["new", "in_review", "completed", "cancelled"] as const)[
        i % 4 === 3 ? (i % 3) + 1 : i % 2
      ] as string,
      // Pairs of requests created at the same instant: the id breaks the tie.
      created_at: new Date(base - Math.floor(i / 2) * 3_600_000),
      updated_at: new Date(base),
    }));
    const ids = (await db.insertInto("requests").values(rows).returning("id").execute()).map((r) => r.id);
    // Eve's own state on some of them: opened, answered, confirmed.
    await db
      .insertInto("request_dentists")
      .values(
        ids.flatMap((id, i) =>
          i % 3 === 0
            ? [
                {
                  request_id: id,
                  dentist_id: eve.id,
                  status:
                    i % 9 === 0
                      ? ("confirmed" as const)
                      : i % 6 === 0
                        ? ("responded" as const)
                        : ("pending" as const),
                  opened_at: new Date(),
                  replied_at: i % 6 === 0 ? new Date() : null,
                  created_at: new Date(),
                  updated_at: new Date(),
                },
              ]
            : [],
        ),
      )
      .execute();
  });

  // One test per dentist: 192 pages each, every one checked against the reference (ADR 054, 29/11 night).
  it.each(["Eve", "Fred"])(
    "lists, filters, searches and pages exactly like the straightforward query (%s)",
    async (name) => {
      const searches = ["", "durand", "couronne", "dur", "zzz", "50%"];
      const who_ = name === "Eve" ? eve : fred;
      const counts = await referenceCounts(who_.id);
      for (const status of ["all", "pending", "responded", "confirmed"] as const)
        for (const treatment of [undefined, "crown"] as const)
          for (const search of searches)
            for (const [pageSize, page] of [
              [2, 1],
              [2, 2],
              [3, 4],
              [50, 1],
            ] as const) {
              const options = { search, status, treatment, page, pageSize };
              const query = new URLSearchParams({
                search,
                status,
                page: String(page),
                page_size: String(pageSize),
                ...(treatment ? { treatment } : {}),
              });
              const response = await get(`/api/dentist/requests?${query}`, who_);
              expect(response.statusCode).toBe(200);
              const body = response.json();
              const expected = await referenceList(who_.id, options);
              expect(
                {
                  items: body.items.map((i: { id: string; my_status: string; is_new: boolean }) => [
                    i.id,
                    i.my_status,
                    i.is_new,
                  ]),
                  has_more: body.has_more,
                },
                JSON.stringify(options),
              ).toEqual(expected);
              expect(body.treatments).toEqual(counts.types);
            }
    },
  );

  it("finds by name and label at once, each request once", async () => {
    // The name-and-label search found Claire's crown requests once each.
    const both = (await get("/api/dentist/requests?search=couronne&page_size=50", eve)).json();
    const ids = both.items.map((i: { id: string }) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(both.items.some((i: { patient_name: string }) => i.patient_name === "Claire Couronne")).toBe(true);
  });

  it("counts on the dashboard like the straightforward query, and follows cancellations", async () => {
    for (const who_ of [eve, fred]) {
      const counts = await referenceCounts(who_.id);
      const dashboard = (await get("/api/dentist/dashboard", who_)).json();
      expect(dashboard.pending_count).toBe(counts.visible - counts.answered);
      expect(dashboard.response_rate).toBe(Math.round((100 * counts.answered) / counts.visible));
      expect(dashboard.monthly.received).toBe(counts.received);
    }
    // Eve's answered request addressed to her, then cancelled: no longer visible nor answered.
    const answered = await ctx.app.db
      .selectFrom("request_dentists as rd")
      .innerJoin("requests as r", "r.id", "rd.request_id")
      .select("r.id")
      .where("rd.dentist_id", "=", eve.id)
      .where("rd.status", "in", ["responded", "confirmed"])
      .where("r.status", "in", ["new", "in_review"])
      .executeTakeFirstOrThrow();
    const before = await referenceCounts(eve.id);
    await ctx.app.db
      .updateTable("requests")
      .set({ status: "cancelled" })
      .where("id", "=", answered.id)
      .execute();
    const after = await referenceCounts(eve.id);
    expect(after.visible).toBe(before.visible - 1);
    expect(after.answered).toBe(before.answered - 1);
    const dashboard = (await get("/api/dentist/dashboard", eve)).json();
    expect(dashboard.pending_count).toBe(after.visible - after.answered);
    expect(dashboard.response_rate).toBe(Math.round((100 * after.answered) / after.visible));
    await expectTalliesRight();
  });

  it("keeps the tallies right through inserts, cancellations, changes and deletions", async () => {
    await expectTalliesRight();
    const db = ctx.app.db;
    // Through the API: a request to all, one to Fred, one cancelled by the patient.
    const toAll = await createRequest("Paula", { treatment_type: "veneer" });
    await createRequest("Quentin", { recipient: fred.id, treatment_type: "denture" });
    const cancelled = await createRequest("Paula", { treatment_type: "rootcanal" });
    expect((await post(`/api/patient/requests/${cancelled}/cancel`, {}, who.Paula)).statusCode).toBe(200);
    await expectTalliesRight();
    // A type present only in a cancelled request is not offered as a filter.
    const rootcanal = await db
      .selectFrom("requests")
      .select("id")
      .where("treatment_type", "=", "rootcanal")
      .where("status", "!=", "cancelled")
      .execute();
    const list = (await get("/api/dentist/requests", fred)).json();
    expect(list.treatments.includes("rootcanal")).toBe(rootcanal.length > 0);
    // Changes of audience, type and month, a cancellation undone, and status changes that count nothing.
    await db.updateTable("requests").set({ recipient_dentist_id: eve.id }).where("id", "=", toAll).execute();
    await db.updateTable("requests").set({ treatment_type: "other" }).where("id", "=", toAll).execute();
    await db
      .updateTable("requests")
      .set({ created_at: new Date("2025-11-30T23:30:00Z") })
      .where("id", "=", toAll)
      .execute();
    await db.updateTable("requests").set({ status: "new" }).where("id", "=", cancelled).execute();
    await db.updateTable("requests").set({ status: "completed" }).where("status", "=", "in_review").execute();
    await expectTalliesRight();
    // One statement over many rows, both ways.
    await sql`
      insert into requests (patient_id, treatment_type, recipient_dentist_id, status, created_at)
      select ${who.Quentin?.id}::uuid, (array['crown','bridge'])[1 + g % 2], case when g % 3 = 0 then ${eve.id}::uuid end,
             case when g % 4 = 0 then 'cancelled' else 'new' end, now() - g * interval '9 days'
      from generate_series(1, 40) g`.execute(db);
    await expectTalliesRight();
    await db
      .updateTable("requests")
      .set({ status: "cancelled" })
      .where("treatment_type", "=", "bridge")
      .execute();
    await expectTalliesRight();
    await db.deleteFrom("requests").where("id", "=", toAll).execute();
    await db
      .deleteFrom("requests")
      .where("treatment_type", "=", "crown")
      .where("patient_id", "=", who.Quentin?.id ?? "")
      .execute();
    await expectTalliesRight();
    // A patient's account deleted: their requests go in cascade.
    const { response } = await signUpPatient(ctx.app, { first_name: "Gone" });
    const gone = response.json().profile.id;
    await db
      .insertInto("requests")
      .values([
        { patient_id: gone, treatment_type: "implant", created_at: new Date(), updated_at: new Date() },
        {
          patient_id: gone,
          treatment_type: "crown",
          recipient_dentist_id: eve.id,
          created_at: new Date(),
          updated_at: new Date(),
        },
      ])
      .execute();
    await expectTalliesRight();
    await db.deleteFrom("users").where("id", "=", gone).execute();
    await expectTalliesRight();
  });

  it("empties the tallies when the requests table is truncated", async () => {
    const own = await createTestContext();
    try {
      const { response } = await signUpPatient(own.app, { first_name: "Tess" });
      const patient = response.json().profile.id;
      await own.app.db
        .insertInto("requests")
        .values({
          patient_id: patient,
          treatment_type: "crown",
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      await expectTalliesRight(own.app.db);
      await sql`truncate requests cascade`.execute(own.app.db);
      const left = await own.app.db.selectFrom("request_tallies").select("audience").execute();
      expect(left).toEqual([]);
      const received = await own.app.db.selectFrom("request_month_tallies").select("audience").execute();
      expect(received).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
