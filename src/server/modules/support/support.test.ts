import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinyPng } from "../../sample-files";
import { multipart } from "../../testing/files";
import { withSockets } from "../../testing/sockets";
import { createWorld, type PersonName, type World } from "../../testing/world";

/**
 * Support for everyone (issue 16, item 7): dentists, verified or not, have their own thread with the
 * team; a message may name a request its writer may see; the team's inbox holds both roles.
 */

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w.ctx.close();
});

function write(who: PersonName, fields: Record<string, string>) {
  const form = multipart(fields);
  return w.call(who, {
    method: "POST",
    url: "/api/support/messages",
    payload: form.payload,
    headers: form.headers,
  });
}
const get = (who: PersonName, url: string) => w.call(who, { method: "GET", url });
const bodies = (response: { json(): { items: { body: string }[] } }) =>
  response.json().items.map((m) => m.body);

describe("dentists' support thread", () => {
  it("lets a verified and an unverified dentist write, each reading only their own thread", async () => {
    const verified = await write("chosen", { body: "Comment modifier mes horaires ?" });
    expect(verified.statusCode, verified.body).toBe(201);
    expect(verified.json()).toMatchObject({
      patient_id: w.people.chosen.id,
      from_team: false,
      request: null,
    });
    const waiting = await write("unverified", { body: "Ma vérification est-elle en cours ?" });
    expect(waiting.statusCode, waiting.body).toBe(201);

    expect(bodies(await get("chosen", "/api/support/messages"))).toEqual(["Comment modifier mes horaires ?"]);
    expect(bodies(await get("unverified", "/api/support/messages"))).toEqual([
      "Ma vérification est-elle en cours ?",
    ]);
    // A patient reads only their own thread: none of the dentists' messages.
    const patient = bodies(await get("patientA", "/api/support/messages"));
    expect(patient).not.toContain("Comment modifier mes horaires ?");
    expect(patient).not.toContain("Ma vérification est-elle en cours ?");
    // A patient cannot read a dentist's thread through the team's routes either.
    expect(
      (await get("patientA", `/api/admin/support/threads/${w.people.chosen.id}/messages`)).statusCode,
    ).toBe(403);
    // The admin (no patient or dentist role) has no thread of their own.
    expect((await get("admin", "/api/support/messages")).statusCode).toBe(403);
    expect((await w.call("anonymous", { method: "GET", url: "/api/support/messages" })).statusCode).toBe(401);
  });

  it("delivers a dentist's message to the admins live, and the team's reply to that dentist only", async () => {
    const cookies = {
      admin: w.people.admin.cookie,
      dentist: w.people.notChosen.cookie,
      patient: w.people.patientA.cookie,
    };
    await withSockets(w.ctx.app, cookies, async ({ admin, dentist, patient }) => {
      const sent = await write("notChosen", { body: "Un patient ne répond plus." });
      expect(sent.statusCode, sent.body).toBe(201);
      await expect
        .poll(() => admin.events.some((e) => e.type === "support" && e.message.id === sent.json().id))
        .toBe(true);
      const reply = await w.call("admin", {
        method: "POST",
        url: `/api/admin/support/threads/${w.people.notChosen.id}/messages`,
        payload: { body: "Nous le relançons." },
      });
      expect(reply.statusCode, reply.body).toBe(201);
      await expect
        .poll(() => dentist.events.some((e) => e.type === "support" && e.message.id === reply.json().id))
        .toBe(true);
      expect(patient.events.filter((e) => e.type === "support")).toEqual([]);
      // The world's clock is fixed: both carry the same time, so compare without the order.
      expect(bodies(await get("notChosen", "/api/support/messages")).sort()).toEqual([
        "Nous le relançons.",
        "Un patient ne répond plus.",
      ]);
    });
  });
});

describe("the team's answers not yet read", () => {
  it("counts them for their reader only, until they are read", async () => {
    const unread = async (who: PersonName) => {
      const response = await get(who, "/api/support/unread");
      expect(response.statusCode, response.body).toBe(200);
      return response.json().unread;
    };
    const before = { patientB: await unread("patientB"), chosen: await unread("chosen") };
    const answer = (body: string) =>
      w.call("admin", {
        method: "POST",
        url: `/api/admin/support/threads/${w.people.patientB.id}/messages`,
        payload: { body },
      });
    expect((await answer("Nous regardons votre devis.")).statusCode).toBe(201);
    expect((await answer("C'est réglé.")).statusCode).toBe(201);
    expect(await unread("patientB")).toBe(before.patientB + 2);
    // Someone else's answers are not counted for another person.
    expect(await unread("chosen")).toBe(before.chosen);
    // Her own messages are not answers to read.
    expect((await write("patientB", { body: "Merci !" })).statusCode).toBe(201);
    expect(await unread("patientB")).toBe(before.patientB + 2);

    // Read in one tab: her other tabs are told (their badge follows), nobody else.
    const cookies = { hers: w.people.patientB.cookie, other: w.people.patientA.cookie };
    await withSockets(w.ctx.app, cookies, async ({ hers, other }) => {
      const read = await w.call("patientB", { method: "POST", url: "/api/support/read", payload: {} });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().read).toBe(before.patientB + 2);
      await expect.poll(() => hers.events.some((e) => e.type === "support_read")).toBe(true);
      // Nothing left to read: nothing to tell.
      expect(
        (await w.call("patientB", { method: "POST", url: "/api/support/read", payload: {} })).json(),
      ).toEqual({
        read: 0,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hers.events.filter((e) => e.type === "support_read")).toHaveLength(1);
      expect(other.events.filter((e) => e.type === "support_read")).toEqual([]);
    });
    expect(await unread("patientB")).toBe(0);
    // The team has no thread of its own; signed out, nothing.
    expect((await get("admin", "/api/support/unread")).statusCode).toBe(403);
    expect((await w.call("anonymous", { method: "GET", url: "/api/support/unread" })).statusCode).toBe(401);
  });
});

describe("a message about a request", () => {
  it("keeps the request of its writer and shows the team its label", async () => {
    const sent = await write("patientB", { body: "Question sur ma demande", request_id: w.requests.openB });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().request).toMatchObject({ id: w.requests.openB });
    expect(sent.json().request.label).toMatch(/ du \d{2}\/\d{2}\/\d{4}$/);
    const team = await get("admin", `/api/admin/support/threads/${w.people.patientB.id}/messages`);
    const seen = team.json().items.find((m: { id: string }) => m.id === sent.json().id);
    expect(seen.request).toEqual(sent.json().request);

    // A verified dentist may name a request open to them.
    const dentist = await write("chosen", { body: "Ce devis", request_id: w.requests.openA });
    expect(dentist.statusCode, dentist.body).toBe(201);
    expect(dentist.json().request.id).toBe(w.requests.openA);
  });

  it("refuses a request its writer cannot see, naming the field, and keeps nothing", async () => {
    const before = bodies(await get("patientB", "/api/support/messages"));
    const cases: [PersonName, string][] = [
      ["patientB", w.requests.openA], // another patient's request
      ["notChosen", w.requests.finishedA], // finished with another dentist
      ["unverified", w.requests.openA], // an unverified dentist sees no request
      ["patientB", "00000000-0000-4000-8000-000000000000"], // no such request
      ["patientB", "pas-un-identifiant"],
    ];
    for (const [who, requestId] of cases) {
      const refused = await write(who, { body: "Et celle-ci ?", request_id: requestId });
      expect(refused.statusCode, `${who} ${requestId}`).toBe(400);
      expect(refused.json().error.fields).toEqual({
        request_id: "Cette demande est introuvable ou ne vous est pas accessible.",
      });
    }
    expect(bodies(await get("patientB", "/api/support/messages"))).toEqual(before);
  });

  it("refuses a second image in French, naming the field, and keeps neither", async () => {
    const before = bodies(await get("patientB", "/api/support/messages"));
    const keys = w.ctx.storedKeys().length;
    const image = (name: string) => ({ field: "image", name, type: "image/png", content: tinyPng() });
    const form = multipart({ body: "Deux captures" }, [image("a.png"), image("b.png")]);
    const refused = await w.call("patientB", {
      method: "POST",
      url: "/api/support/messages",
      payload: form.payload,
      headers: form.headers,
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error.fields).toEqual({ image: "Une seule image peut être jointe au message." });
    expect(w.ctx.storedKeys().length).toBe(keys);
    expect(bodies(await get("patientB", "/api/support/messages"))).toEqual(before);
  });
});

describe("the team's inbox", () => {
  type Thread = { patient_id: string; role: string; unread: number };
  const inbox = async (query: string): Promise<Thread[]> => {
    const response = await get("admin", `/api/admin/support/threads?page_size=50${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items;
  };

  it("shows patients and dentists, with their role, filtered by role and by unread", async () => {
    await write("unverified", { body: "Toujours en attente" });
    const all = await inbox("");
    const roleOf = new Map(all.map((t) => [t.patient_id, t.role]));
    expect(roleOf.get(w.people.patientA.id)).toBe("patient");
    expect(roleOf.get(w.people.unverified.id)).toBe("dentist");

    const patients = await inbox("&role=patient");
    expect(patients.length).toBeGreaterThan(0);
    expect(patients.every((t) => t.role === "patient")).toBe(true);
    expect(patients.map((t) => t.patient_id)).toContain(w.people.patientA.id);
    const dentists = await inbox("&role=dentist");
    expect(dentists.every((t) => t.role === "dentist")).toBe(true);
    expect(dentists.map((t) => t.patient_id)).toContain(w.people.unverified.id);
    expect(patients.length + dentists.length).toBe(all.length);

    const read = await w.call("admin", {
      method: "POST",
      url: `/api/admin/support/threads/${w.people.unverified.id}/read`,
    });
    expect(read.statusCode).toBe(200);
    const unread = await inbox("&unread=1");
    expect(unread.every((t) => t.unread > 0)).toBe(true);
    expect(unread.map((t) => t.patient_id)).not.toContain(w.people.unverified.id);
    expect(unread.map((t) => t.patient_id)).toContain(w.people.patientA.id);
  });

  it("answers a bad filter with a French 400 naming it", async () => {
    const bad = await get("admin", "/api/admin/support/threads?role=admin");
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toContain("role");
    expect(bad.json().error.message).toMatch(/filtre/);
  });
});
