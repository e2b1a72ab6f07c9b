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
