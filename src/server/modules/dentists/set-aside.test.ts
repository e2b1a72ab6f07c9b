import { describe, expect, it } from "vitest";
import type { DentistDashboard, DentistRequestSummary } from "../../../shared/schemas/dentist";
import { withPeopleSockets } from "../../testing/sockets";
import { type PersonName, setUpWorld, type World } from "../../testing/world";

/**
 * « Ne pas donner suite » (ADR 091): a dentist sets a request aside; it leaves his requests to answer
 * (the 'Demandes' counter, the dashboard's « À faire », the « En attente » list) for him alone, stays in
 * « Toutes » marked so and in « Écartées », and comes back when he puts it back. The patient is not
 * told; an answered request cannot be set aside.
 */

let w: World;
setUpWorld((world) => {
  w = world;
});

const get = (who: PersonName | "anonymous", url: string) => w.call(who, { method: "GET", url });
const setAside = (who: PersonName, id: string) =>
  w.call(who, { method: "POST", url: `/api/dentist/requests/${id}/set-aside` });
const putBack = (who: PersonName, id: string) =>
  w.call(who, { method: "DELETE", url: `/api/dentist/requests/${id}/set-aside` });

async function counter(who: PersonName): Promise<number> {
  const response = await get(who, "/api/dentist/todo-count");
  expect(response.statusCode, response.body).toBe(200);
  return response.json().requests;
}
async function dashboard(who: PersonName): Promise<DentistDashboard> {
  const response = await get(who, "/api/dentist/dashboard");
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
async function list(who: PersonName, status: string): Promise<DentistRequestSummary[]> {
  const response = await get(who, `/api/dentist/requests?status=${status}&page_size=50`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("a request set aside", () => {
  it("leaves his requests to answer, for him alone, and comes back when he puts it back", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    const before = { mine: await counter("notChosen"), other: await counter("chosen") };
    const patientBefore = (await get("patientA", `/api/patient/requests/${requestId}`)).json();

    const response = await setAside("notChosen", requestId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(
      "Demande écartée : elle ne compte plus dans vos demandes à traiter.",
    );
    // Twice is once.
    expect((await setAside("notChosen", requestId)).statusCode).toBe(200);

    expect(await counter("notChosen")).toBe(before.mine - 1);
    const board = await dashboard("notChosen");
    expect(board.todo.requests.count).toBe(before.mine - 1);
    expect(board.pending_count).toBe(before.mine - 1);
    expect(ids(board.todo.requests.items)).not.toContain(requestId);
    expect(ids(await list("notChosen", "pending"))).not.toContain(requestId);
    // Still in « Toutes », marked; and in « Écartées ».
    expect((await list("notChosen", "all")).find((r) => r.id === requestId)).toMatchObject({
      set_aside: true,
      my_status: "pending",
    });
    const aside = await list("notChosen", "set_aside");
    expect(ids(aside)).toEqual(expect.arrayContaining([requestId]));
    expect(aside.every((r) => r.set_aside)).toBe(true);
    // Not opened: still new to him, and no line in the patient's access history.
    expect(aside.find((r) => r.id === requestId)?.is_new).toBe(true);

    // The other dentist: untouched.
    expect(await counter("chosen")).toBe(before.other);
    expect((await list("chosen", "pending")).find((r) => r.id === requestId)?.set_aside).toBe(false);
    expect(ids(await list("chosen", "set_aside"))).not.toContain(requestId);
    // The patient: nothing changed on her side.
    expect((await get("patientA", `/api/patient/requests/${requestId}`)).json()).toEqual(patientBefore);

    const back = await putBack("notChosen", requestId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().message).toBe("Demande remise dans vos demandes à traiter.");
    expect(await counter("notChosen")).toBe(before.mine);
    expect(ids(await list("notChosen", "pending"))).toContain(requestId);
    expect(ids(await list("notChosen", "set_aside"))).not.toContain(requestId);
  });

  it("is no longer set aside once he answers it, and an answered request cannot be set aside", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    expect((await setAside("notChosen", requestId)).statusCode).toBe(200);
    const aside = await counter("notChosen");
    await w.fresh.offer("notChosen", requestId);
    // Answered: out of his requests to answer as before, counted once.
    expect(await counter("notChosen")).toBe(aside);
    expect(ids(await list("notChosen", "set_aside"))).not.toContain(requestId);
    expect((await list("notChosen", "responded")).find((r) => r.id === requestId)?.set_aside).toBe(false);

    const refused = await setAside("notChosen", requestId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      "Vous avez déjà répondu à cette demande : elle ne peut plus être écartée.",
    );
  });

  it("leaves the count when the request closes, and does not come back into it", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    expect((await setAside("notChosen", requestId)).statusCode).toBe(200);
    const aside = await counter("notChosen");
    const cancelled = await w.call("patientA", {
      method: "POST",
      url: `/api/patient/requests/${requestId}/cancel`,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await counter("notChosen")).toBe(aside);
    expect(ids(await list("notChosen", "set_aside"))).not.toContain(requestId);
    // No longer his to see: neither to set aside nor to put back.
    expect((await setAside("notChosen", requestId)).statusCode).toBe(404);
    expect((await putBack("notChosen", requestId)).statusCode).toBe(404);
  });

  it("is refused on a request sent to him by name: the patient waits for his answer alone", async () => {
    const { requestId } = await w.fresh.openRequest("patientA", w.people.chosen.id);
    const before = await counter("chosen");
    expect((await list("chosen", "pending")).find((r) => r.id === requestId)?.addressed_to_me).toBe(true);
    const refused = await setAside("chosen", requestId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      "Cette demande vous est adressée personnellement : répondez-lui, même pour décliner.",
    );
    expect(await counter("chosen")).toBe(before);
    expect(ids(await list("chosen", "pending"))).toContain(requestId);
    // A request sent to all is not addressed to him.
    const open = await w.fresh.openRequest("patientA");
    expect((await list("chosen", "pending")).find((r) => r.id === open.requestId)?.addressed_to_me).toBe(
      false,
    );
  });

  it("is refused on a request he cannot see, and to anyone but a dentist", async () => {
    // Sent by name to the chosen dentist: not the other's.
    const { requestId } = await w.fresh.openRequest("patientA", w.people.chosen.id);
    expect((await setAside("notChosen", requestId)).statusCode).toBe(404);
    expect((await setAside("unverified", requestId)).statusCode).toBe(404);
    expect((await setAside("patientA", requestId)).statusCode).toBe(403);
    expect(
      (await w.call("anonymous", { method: "POST", url: `/api/dentist/requests/${requestId}/set-aside` }))
        .statusCode,
    ).toBe(401);
    expect(ids(await list("chosen", "set_aside"))).not.toContain(requestId);
  });

  it("reloads his own open screens, not the patient's", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    const roles = { dentist: "notChosen", other: "chosen", patient: "patientA" } as const;
    await withPeopleSockets(w, roles, async ({ dentist, other, patient }) => {
      expect((await setAside("notChosen", requestId)).statusCode).toBe(200);
      const told = (e: { type: string; request_id?: string }) =>
        e.type === "request" && e.request_id === requestId;
      await expect.poll(() => dentist.events.some(told)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(other.events.some(told)).toBe(false);
      expect(patient.events.some(told)).toBe(false);
    });
  });
});

describe("several requests set aside at once (« Écarter la sélection », ADR 091's addendum)", () => {
  const bulk = (who: PersonName | "anonymous", payload: object) =>
    w.call(who, { method: "POST", url: "/api/dentist/requests/set-aside", payload });

  it("sets aside those he may, leaves the others as they are, and puts them back the same way", async () => {
    const first = await w.fresh.openRequest("patientA");
    const second = await w.fresh.openRequest("patientB");
    const answered = await w.fresh.openRequest("patientA");
    await w.fresh.offer("notChosen", answered.requestId);
    // Sent by name to the other dentist: not his to see.
    const hidden = await w.fresh.openRequest("patientA", w.people.chosen.id);
    const before = { mine: await counter("notChosen"), other: await counter("chosen") };
    const asked = [first.requestId, second.requestId, answered.requestId, hidden.requestId];

    const response = await bulk("notChosen", { ids: asked, aside: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().changed.sort()).toEqual([first.requestId, second.requestId].sort());
    expect(response.json().message).toBe(
      "2 demandes écartées : elles ne comptent plus dans vos demandes à traiter. 2 demandes ne peuvent pas l'être (déjà répondues, ou qui vous sont adressées).",
    );
    expect(await counter("notChosen")).toBe(before.mine - 2);
    expect(ids(await list("notChosen", "set_aside"))).toEqual(
      expect.arrayContaining([first.requestId, second.requestId]),
    );
    expect(ids(await list("notChosen", "set_aside"))).not.toContain(answered.requestId);
    // The other dentist's requests and counts: untouched (his hidden one included).
    expect(await counter("chosen")).toBe(before.other);
    expect(ids(await list("chosen", "set_aside"))).not.toContain(hidden.requestId);
    // Twice is once.
    expect((await bulk("notChosen", { ids: [first.requestId], aside: true })).json().changed).toEqual([
      first.requestId,
    ]);
    expect(await counter("notChosen")).toBe(before.mine - 2);

    const back = await bulk("notChosen", { ids: asked, aside: false });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().changed.sort()).toEqual([first.requestId, second.requestId].sort());
    expect(back.json().message).toBe("2 demandes remises dans vos demandes à traiter.");
    expect(await counter("notChosen")).toBe(before.mine);
    const none = await bulk("notChosen", { ids: [first.requestId], aside: false });
    expect(none.json()).toEqual({ changed: [], message: "Aucune de ces demandes n'était écartée." });
  });

  it("never sets aside a request sent to him by name", async () => {
    const named = await w.fresh.openRequest("patientA", w.people.chosen.id);
    const response = await bulk("chosen", { ids: [named.requestId], aside: true });
    expect(response.json()).toEqual({
      changed: [],
      message:
        "Aucune demande écartée. 1 demande ne peut pas l'être (déjà répondue, ou qui vous est adressée).",
    });
    expect(ids(await list("chosen", "pending"))).toContain(named.requestId);
  });

  it("answers a bad selection with a French 400 naming the field, and is refused to anyone but a dentist", async () => {
    const { requestId } = await w.fresh.openRequest("patientA");
    const field = async (payload: object) => {
      const response = await bulk("notChosen", payload);
      expect(response.statusCode, response.body).toBe(400);
      return response.json().error.fields;
    };
    expect(await field({ ids: [], aside: true })).toEqual({ ids: "Sélectionnez au moins une demande." });
    expect(await field({ ids: ["pas-un-id"], aside: true })).toEqual({
      "ids.0": "Cette sélection contient une demande inconnue.",
    });
    expect(await field({ ids: [requestId, requestId], aside: true })).toEqual({
      ids: "Cette sélection contient deux fois la même demande.",
    });
    const tooMany = Array.from({ length: 51 }, () => crypto.randomUUID());
    expect(await field({ ids: tooMany, aside: true })).toEqual({
      ids: "Sélectionnez au plus 50 demandes à la fois.",
    });
    expect(Object.keys(await field({ ids: [requestId] }))).toEqual(["aside"]);

    expect((await bulk("patientA", { ids: [requestId], aside: true })).statusCode).toBe(403);
    expect((await bulk("anonymous", { ids: [requestId], aside: true })).statusCode).toBe(401);
    // Not verified: nothing set aside (he sees no request).
    const unverified = await bulk("unverified", { ids: [requestId], aside: true });
    expect(unverified.json().changed).toEqual([]);
    expect(ids(await list("notChosen", "set_aside"))).not.toContain(requestId);
  });
});
