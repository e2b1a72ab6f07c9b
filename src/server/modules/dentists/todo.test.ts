import { describe, expect, it } from "vitest";
import type { DentistDashboard, DentistTodo } from "../../../shared/schemas/dentist";
import { multipart } from "../../testing/files";
import { withPeopleSockets } from "../../testing/sockets";
import { type PersonName, setUpWorld, type World } from "../../testing/world";

/**
 * A dentist's work in one place (issue 16, item 2): the dashboard's "À faire" (requests to answer,
 * appointments to confirm, unread conversations), the 'Demandes' counter, statuses that agree with
 * the appointment's real state, the patient's devis amount, the real recent messages.
 */

let w: World;
setUpWorld((world) => {
  w = world;
});

const get = (who: PersonName | "anonymous", url: string) => w.call(who, { method: "GET", url });
const send = (who: PersonName, method: "POST", url: string, payload: object = {}) =>
  w.call(who, { method, url, payload });

async function dashboard(who: PersonName): Promise<DentistDashboard> {
  const response = await get(who, "/api/dentist/dashboard");
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const todo = async (who: PersonName): Promise<DentistTodo> => (await dashboard(who)).todo;
async function counters(who: PersonName): Promise<{ requests: number; appointments: number }> {
  const response = await get(who, "/api/dentist/todo-count");
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const counter = async (who: PersonName): Promise<number> => (await counters(who)).requests;
const requestIds = (t: DentistTodo) => t.requests.items.map((r) => r.id);

describe("requests to answer", () => {
  it("counts a new request for every verified dentist, and drops it once answered", async () => {
    const before = { chosen: await counter("chosen"), other: await counter("notChosen") };
    const { requestId } = await w.fresh.openRequest("patientA");
    expect(await counter("chosen")).toBe(before.chosen + 1);
    expect(await counter("notChosen")).toBe(before.other + 1);
    const mine = await todo("chosen");
    expect(mine.requests.count).toBe(before.chosen + 1);
    expect(requestIds(mine)).toContain(requestId);
    // The patient's devis amount (the world's requests say 1 200 €) comes with the row.
    expect(mine.requests.items.find((r) => r.id === requestId)).toMatchObject({
      my_status: "pending",
      is_new: true,
      quote_amount_cents: 120_000,
      appointment_status: null,
    });

    await w.fresh.offer("chosen", requestId);
    expect(await counter("chosen")).toBe(before.chosen);
    expect(requestIds(await todo("chosen"))).not.toContain(requestId);
    // The other dentist still has it to answer.
    expect(requestIds(await todo("notChosen"))).toContain(requestId);
  });

  it("never counts a request the patient settled with another dentist", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    // The other dentist opened it ('Nouvelle' cleared) but did not answer: it is his to answer.
    expect((await get("notChosen", `/api/dentist/requests/${requestId}`)).statusCode).toBe(200);
    const offerId = await w.fresh.offer("chosen", requestId);
    const before = await counter("notChosen");
    expect(requestIds(await todo("notChosen"))).toContain(requestId);

    const accepted = await send("patientA", "POST", `/api/patient/offers/${offerId}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);

    expect(await counter("notChosen")).toBe(before - 1);
    const after = await todo("notChosen");
    expect(after.requests.count).toBe(before - 1);
    expect(requestIds(after)).not.toContain(requestId);
    // Nor in his 'En attente' list, nor anywhere he could answer it from.
    const pending = (await get("notChosen", "/api/dentist/requests?status=pending&page_size=50")).json();
    expect(pending.items.map((r: { id: string }) => r.id)).not.toContain(requestId);
    expect((await get("notChosen", `/api/dentist/requests/${requestId}`)).statusCode).toBe(404);
    // The chosen dentist sees it in 'Toutes', never among his requests to answer (the pending list
    // leaves out the branch of his accepted offers: each is settled, so none is his to answer).
    const ids = async (url: string) =>
      (await get("chosen", url)).json().items.map((r: { id: string }) => r.id) as string[];
    expect(await ids("/api/dentist/requests?status=all&page_size=50")).toContain(requestId);
    expect(await ids("/api/dentist/requests?status=pending&page_size=50")).not.toContain(requestId);
    expect(requestIds(await todo("chosen"))).not.toContain(requestId);
    // The chosen dentist sees it, 'Confirmé' only once the appointment is: none yet.
    const chosen = (await get("chosen", `/api/dentist/requests/${requestId}`)).json();
    expect(chosen).toMatchObject({
      my_status: "confirmed",
      appointment_status: null,
      quote_amount_cents: 120_000,
    });
  });

  it("shows nothing to an unverified dentist", async () => {
    const t = await todo("unverified");
    expect(t.requests).toEqual({ count: 0, items: [] });
    expect(t.appointments).toEqual({ count: 0, items: [] });
    expect(await counter("unverified")).toBe(0);
  });

  it("refuses the counter to anyone but a dentist", async () => {
    expect((await get("anonymous", "/api/dentist/todo-count")).statusCode).toBe(401);
    expect((await get("patientA", "/api/dentist/todo-count")).statusCode).toBe(403);
  });
});

describe("appointments to confirm", () => {
  it("lists the appointments waiting for this dentist only, and the request says 'à confirmer'", async () => {
    const { requestId, acceptedOffer } = await w.fresh.finished();
    const { db } = w.ctx.app;
    const before = (await todo("chosen")).appointments.count;
    const menuBefore = { chosen: await counters("chosen"), other: await counters("notChosen") };
    expect(menuBefore.chosen.appointments).toBe(before);
    const appointment = await db
      .insertInto("appointments")
      .values({
        request_id: requestId,
        offer_id: acceptedOffer,
        patient_id: w.people.patientA.id,
        dentist_id: w.people.chosen.id,
        status: "pending",
        awaiting: "dentist",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("appointment_options")
      .values([
        { appointment_id: appointment.id, starts_at: "2026-12-03T08:00:00Z" },
        { appointment_id: appointment.id, starts_at: "2026-12-02T13:30:00Z" },
      ])
      .execute();

    const mine = await todo("chosen");
    expect(mine.appointments.count).toBe(before + 1);
    expect(mine.appointments.items).toContainEqual(
      expect.objectContaining({
        id: appointment.id,
        request_id: requestId,
        treatment_type: "crown",
        first_option: "2026-12-02T13:30:00.000Z",
        options_count: 2,
      }),
    );
    // The menu's 'Rendez-vous' counter says the same (the response cache let go of it).
    expect((await counters("chosen")).appointments).toBe(before + 1);
    // Another dentist's appointment never shows, nor counts.
    expect((await todo("notChosen")).appointments.items.map((a) => a.id)).not.toContain(appointment.id);
    expect((await counters("notChosen")).appointments).toBe(menuBefore.other.appointments);
    // The request is not 'Confirmé' while its appointment is pending.
    const detail = (await get("chosen", `/api/dentist/requests/${requestId}`)).json();
    expect(detail).toMatchObject({ my_status: "confirmed", appointment_status: "pending" });
    const listed = (await get("chosen", "/api/dentist/requests?status=confirmed&page_size=50")).json();
    expect(listed.items.find((r: { id: string }) => r.id === requestId)?.appointment_status).toBe("pending");

    // Waiting for the patient: not the dentist's to do.
    await db
      .updateTable("appointments")
      .set({ awaiting: "patient" })
      .where("id", "=", appointment.id)
      .execute();
    expect((await todo("chosen")).appointments.count).toBe(before);
    expect((await counters("chosen")).appointments).toBe(before);

    // Confirmed: the time comes with the row (the screens say « Terminée » once it has passed); not
    // while it was pending (above), and never to another dentist.
    expect(detail.appointment_starts_at).toBeNull();
    await db
      .updateTable("appointments")
      .set({ status: "confirmed", awaiting: null, starts_at: new Date("2026-12-02T13:30:00Z") })
      .where("id", "=", appointment.id)
      .execute();
    const confirmed = (await get("chosen", `/api/dentist/requests/${requestId}`)).json();
    expect(confirmed).toMatchObject({
      appointment_status: "confirmed",
      appointment_starts_at: "2026-12-02T13:30:00.000Z",
    });
    const relisted = (await get("chosen", "/api/dentist/requests?status=confirmed&page_size=50")).json();
    expect(relisted.items.find((r: { id: string }) => r.id === requestId)?.appointment_starts_at).toBe(
      "2026-12-02T13:30:00.000Z",
    );
  });
});

describe("unread conversations and recent messages", () => {
  it("lists this dentist's conversations with unread messages, and the Messages page's last messages", async () => {
    const { requestId, chosenConversation, otherConversation } = await w.fresh.openWithOffers();
    // The Messages page's own list, in its order: a conversation whose last message is the dentist's
    // own (his offer) is there too, where the old query showed only patients' messages.
    const recent = (await dashboard("chosen")).recent_messages;
    const page = (await get("chosen", "/api/conversations?limit=5")).json() as {
      items: { id: string; last_message: { from_me: boolean } | null }[];
    };
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.map((m) => [m.conversation_id, m.from_me])).toEqual(
      page.items.filter((c) => c.last_message).map((c) => [c.id, c.last_message?.from_me]),
    );
    expect(recent.some((m) => m.from_me)).toBe(true);

    const before = (await todo("chosen")).conversations.count;
    const form = multipart({ body: "Bonjour, est-ce possible un samedi ?" });
    const sent = await w.call("patientA", {
      method: "POST",
      url: `/api/conversations/${chosenConversation}/messages`,
      payload: form.payload,
      headers: form.headers,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mine = await todo("chosen");
    expect(mine.conversations.count).toBe(before + 1);
    expect(mine.conversations.items.find((c) => c.id === chosenConversation)).toMatchObject({
      unread_count: 1,
      patient_name: expect.any(String),
    });
    // Still the Messages page's list, now with the patient's unread message as this conversation's last.
    const latest = (await dashboard("chosen")).recent_messages;
    const now = (await get("chosen", "/api/conversations?limit=5")).json() as {
      items: { id: string; unread_count: number; last_message: { body: string; from_me: boolean } | null }[];
    };
    expect(latest.map((m) => [m.conversation_id, m.body, m.from_me, m.read])).toEqual(
      now.items
        .filter((c) => c.last_message)
        .map((c) => [c.id, c.last_message?.body, c.last_message?.from_me, c.unread_count === 0]),
    );
    const thread = (await get("chosen", `/api/conversations/${chosenConversation}/messages`)).json();
    expect(JSON.stringify(thread)).toContain("Bonjour, est-ce possible un samedi ?");
    // The other dentist's conversation on the same request has nothing unread; the chosen one is not his.
    const other = await todo("notChosen");
    expect(other.conversations.items.map((c) => c.id)).not.toContain(chosenConversation);
    expect(other.conversations.items.map((c) => c.id)).not.toContain(otherConversation);
    expect(requestId).toBeTruthy();

    const read = await send("chosen", "POST", `/api/conversations/${chosenConversation}/read`);
    expect(read.statusCode, read.body).toBeLessThan(300);
    expect((await todo("chosen")).conversations.count).toBe(before);
  });
});

describe("live", () => {
  it("tells the verified dentists connected, and nobody else, that a request was sent", async () => {
    const roles = { dentist: "notChosen", unverified: "unverified", patient: "patientB" } as const;
    await withPeopleSockets(w, roles, async ({ dentist, unverified, patient }) => {
      await w.fresh.openRequest("patientA");
      await expect.poll(() => dentist.events.some((e) => e.type === "requests")).toBe(true);
      // Give the others the same time to (wrongly) receive it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unverified.events.some((e) => e.type === "requests")).toBe(false);
      expect(patient.events.some((e) => e.type === "requests")).toBe(false);
    });
  });
});
