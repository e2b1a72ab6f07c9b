import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, tinyPdf } from "../../testing/files";
import { createTestContext, signUpDentist, signUpPatient, type TestContext } from "../../testing/harness";

let ctx: TestContext;
const who: Record<string, { cookie: string; id: string }> = {};

async function dentist(name: string, verified: boolean) {
  const { response, cookie } = await signUpDentist(ctx.app, { first_name: name });
  const id = response.json().profile.id;
  if (verified)
    await ctx.app.db.updateTable("profiles").set({ is_verified: true }).where("id", "=", id).execute();
  return { cookie, id };
}

async function createRequest(patient: string, fields: Record<string, string> = {}) {
  const body = multipart({ treatment_type: "implant", consent: "true", budget: "1 800 €", ...fields }, [
    { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
  ]);
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/patient/requests",
    payload: body.payload,
    headers: { ...body.headers, cookie: who[patient]?.cookie ?? "" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const get = (url: string, who_?: { cookie: string }) =>
  ctx.app.inject({ method: "GET", url, headers: who_ ? { cookie: who_.cookie } : {} });
const post = (url: string, payload: object, who_?: { cookie: string }) =>
  ctx.app.inject({ method: "POST", url, payload, headers: who_ ? { cookie: who_.cookie } : {} });

beforeAll(async () => {
  ctx = await createTestContext();
  for (const name of ["Paula", "Quentin"]) {
    const { response, cookie } = await signUpPatient(ctx.app, { first_name: name, last_name: "Durand" });
    who[name] = { cookie, id: response.json().profile.id };
  }
  who.drA = await dentist("Anne", true);
  who.drB = await dentist("Bruno", true);
  who.unverified = await dentist("Ulysse", false);
});
afterAll(async () => ctx?.close());

describe("what a dentist sees (D6)", () => {
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
    expect(dashboard).toMatchObject({ verified: false, pending_count: 0, recent_requests: [] });
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
  it("clears 'Nouvelle' when opened, assigns, replies once, and the patient sees a dentist engaged", async () => {
    const id = await createRequest("Paula", { treatment_type: "bridge" });
    const detail = (await get(`/api/dentist/requests/${id}`, who.drA)).json();
    expect(detail).toMatchObject({
      id,
      my_status: "pending",
      assigned: false,
      patient_email: expect.any(String),
      conversation_id: null,
    });
    expect(detail.documents).toHaveLength(1);
    const again = (await get("/api/dentist/requests?page_size=50", who.drA)).json();
    expect(again.items.find((i: { id: string }) => i.id === id).is_new).toBe(false);

    const assign = await post(`/api/dentist/requests/${id}/assign`, {}, who.drA);
    expect(assign.json().message).toBe("Demande assignée avec succès");
    expect((await get(`/api/patient/requests/${id}`, who.Paula)).json().status).toBe("in_review");

    const before = ctx.outbox().length;
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
    // Another dentist still sees it pending (D7).
    expect((await get(`/api/dentist/requests/${id}`, who.drB)).json().my_status).toBe("pending");

    // The e-mail goes out after the commit.
    const mailed = () =>
      ctx
        .outbox()
        .slice(before)
        .some((m) => m.includes("a répondu à votre demande") && m.includes(`/patient/request/${id}`));
    await expect.poll(mailed).toBe(true);
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

    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => dentist(`Dr${i}`, true)));
    const replies = await Promise.all(
      many.map((d) => post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, d)),
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
    const fresh = await dentist("Diane", true);
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
});
