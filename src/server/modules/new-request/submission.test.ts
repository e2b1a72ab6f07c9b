import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { multipart, tinyPdf } from "../../testing/files";
import { appPerFile, signUpPatient } from "../../testing/harness";

/**
 * ADR 101: the upload form names each sending (`submission_id`) and sends the same id again on a
 * retry. When the connection dropped after the server saved the request, the retry gets that request
 * back instead of a second one (its files removed); a new id is a new request; another patient's id
 * is no way into her request.
 */

const ctx = appPerFile();

function send(cookie: string, fields: Record<string, string>) {
  const form = multipart({ treatment_type: "crown", consent: "true", ...fields }, [
    { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
  ]);
  return ctx.app.inject({
    method: "POST",
    url: "/api/patient/requests",
    headers: { ...form.headers, cookie },
    payload: form.payload,
  });
}

async function requestsOf(patientId: string) {
  return ctx.app.db.selectFrom("requests").select("id").where("patient_id", "=", patientId).execute();
}

async function documentsOf(patientId: string) {
  return ctx.app.db.selectFrom("documents").select("id").where("owner_id", "=", patientId).execute();
}

describe("a request sent again after its answer was lost", () => {
  it("is the request saved the first time, once, with its files once", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const patientId = response.json().profile.id as string;
    const submission = randomUUID();

    const first = await send(cookie, { submission_id: submission, description: "Couronne sur la 46" });
    expect(first.statusCode, first.body).toBe(201);
    const keysAfterFirst = ctx.storedKeys().filter((key) => key.includes(patientId));
    // The answer never reached the browser; the patient presses « Envoyer » again.
    const retry = await send(cookie, { submission_id: submission, description: "Couronne sur la 46" });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await requestsOf(patientId)).toEqual([{ id: first.json().id }]);
    expect(await documentsOf(patientId)).toHaveLength(1);
    // The retry's copy of the file is not kept.
    expect(ctx.storedKeys().filter((key) => key.includes(patientId))).toEqual(keysAfterFirst);

    // Another request (the form draws a new id once one is sent): created.
    const next = await send(cookie, { submission_id: randomUUID() });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().id).not.toBe(first.json().id);
    // Without an id (an older client), each sending is a request, as before.
    expect((await send(cookie, {})).statusCode).toBe(201);
    expect((await send(cookie, {})).statusCode).toBe(201);
    expect(await requestsOf(patientId)).toHaveLength(4);
  });

  it("the same id twice at once makes one request", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const patientId = response.json().profile.id as string;
    const submission = randomUUID();
    const answers = await Promise.all([
      send(cookie, { submission_id: submission }),
      send(cookie, { submission_id: submission }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(answers[0]?.json().id).toBe(answers[1]?.json().id);
    expect(await requestsOf(patientId)).toHaveLength(1);
    expect(await documentsOf(patientId)).toHaveLength(1);
  });

  it("another patient's id gives her no way to it: her own new request", async () => {
    const alice = await signUpPatient(ctx.app);
    const bob = await signUpPatient(ctx.app);
    const submission = randomUUID();
    const hers = await send(alice.cookie, { submission_id: submission });
    const his = await send(bob.cookie, { submission_id: submission });
    expect(his.statusCode, his.body).toBe(201);
    expect(his.json().id).not.toBe(hers.json().id);
    expect(await requestsOf(bob.response.json().profile.id)).toEqual([{ id: his.json().id }]);
  });

  it("refuses an id that is not one, naming the field, and keeps nothing", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const patientId = response.json().profile.id as string;
    const refused = await send(cookie, { submission_id: "pas-un-uuid" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({
      submission_id:
        "Cet envoi n'est pas reconnu\u202f: rechargez la page et envoyez votre demande à nouveau.",
    });
    expect(await requestsOf(patientId)).toEqual([]);
    expect(ctx.storedKeys().filter((key) => key.includes(patientId))).toEqual([]);
  });
});
