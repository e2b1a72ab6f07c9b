import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { multipart, slowBody, tinyPdf, tinyPng } from "../../testing/files";
import { appPerFile, postRequest, signUpPatient } from "../../testing/harness";
import { api, dentist } from "../../testing/people";

/**
 * Issue 32, ADR 039: every upload that stores files under a person's id, still streaming when the
 * account is erased, is refused as signed out (401) — never a 500 — and leaves nothing named after
 * the erased account: no file, no folder, no row. The new request's: new-request/upload-during-erasure.test.ts;
 * here the message attachments, the support image and the avatar, and the list of upload routes.
 */

const ctx = appPerFile();
const { post } = api(ctx);

/**
 * The upload routes of the OpenAPI document (those that may answer 415), and where each is tested
 * for this: a new one fails the list until it is.
 */
const UPLOAD_ROUTES: Record<string, string> = {
  "/api/patient/requests": "new-request/upload-during-erasure.test.ts",
  "/api/conversations/{id}/messages": "here",
  "/api/support/messages": "here",
  "/api/me/avatar": "here",
  // Public: stored under contact/, named after no account (its row goes with the address, ADR 014).
  "/api/contact": "no account",
};

/** A patient in a conversation with a dentist (the dentist answered the patient's request). */
async function patientInConversation() {
  const patient = await signUpPatient(ctx.app);
  expect(patient.response.statusCode).toBe(201);
  const id = patient.response.json().profile.id as string;
  const created = await postRequest(ctx.app, patient.cookie, { treatment_type: "implant", consent: "true" });
  const drA = await dentist(ctx.app);
  const reply = await post(
    `/api/dentist/requests/${created.json().id}/reply`,
    { message: "Bonjour" },
    { cookie: drA.cookie },
  );
  expect(reply.statusCode, reply.body).toBe(201);
  return { ...patient, id, conversationId: reply.json().conversation_id as string };
}

/**
 * Sends `form` to `url` as the person, erases the account while the file is still streaming, then
 * lets the rest through: the answer, and what is left named after the account.
 */
async function uploadDuringErasure(
  person: { cookie: string; body: Record<string, unknown>; id: string },
  url: string,
  form: { payload: Buffer; headers: Record<string, string> },
) {
  const slow = slowBody(form.payload, form.payload.length - 128 * 1024);
  const upload = ctx.app.inject({
    method: "POST",
    url,
    headers: { ...form.headers, cookie: person.cookie },
    payload: slow.stream,
  });
  await slow.reading;
  const erased = await ctx.app.inject({
    method: "POST",
    url: "/api/account/delete",
    headers: { cookie: person.cookie },
    payload: { password: person.body.password },
  });
  expect(erased.statusCode, erased.body).toBe(200);
  slow.release();
  const answer = await upload;
  expect(answer.statusCode, answer.body).toBe(401);
  expect(answer.json().error.code).toBe("UNAUTHENTICATED");
  expect(ctx.storedKeys().filter((key) => key.includes(person.id))).toEqual([]);
  for (const folder of [person.id, `avatars/${person.id}`])
    expect(existsSync(path.join(ctx.dataDir, "files", folder)), `dossier ${folder}`).toBe(false);
}

/** A file of 256 KB and more: its start is stored before the rest arrives. */
const padded = (file: Buffer) => Buffer.concat([file, Buffer.alloc(256 * 1024, 0x20)]);

describe("uploads still streaming when their account is erased", () => {
  it("lists every upload route of the API with where it is tested", async () => {
    const openapi = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    // A route that reads a file answers 415 for a body or a file of the wrong type.
    const uploads = Object.entries(openapi.paths)
      .filter(([, methods]) => Object.values(methods).some((op) => op.responses?.["415"]))
      .map(([route]) => route)
      .sort();
    expect(uploads).toEqual(Object.keys(UPLOAD_ROUTES).sort());
  });

  it("a message with attachments: 401, no attachment row, no file, no folder", async () => {
    const person = await patientInConversation();
    const form = multipart({ body: "Voici mon devis" }, [
      { field: "files", name: "devis.pdf", type: "application/pdf", content: padded(tinyPdf()) },
    ]);
    await uploadDuringErasure(person, `/api/conversations/${person.conversationId}/messages`, form);
    const attachments = await ctx.app.db
      .selectFrom("message_attachments as a")
      .innerJoin("messages as m", "m.id", "a.message_id")
      .select("a.id")
      .where("m.conversation_id", "=", person.conversationId)
      .execute();
    expect(attachments).toEqual([]);
    const messages = await ctx.app.db
      .selectFrom("messages")
      .select("body")
      .where("conversation_id", "=", person.conversationId)
      .execute();
    expect(messages.map((m) => m.body)).not.toContain("Voici mon devis");
  });

  it("a support message with its image: 401, no thread, no message, no file, no folder", async () => {
    const { cookie, body, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const form = multipart({ body: "Ma capture" }, [
      { field: "image", name: "capture.png", type: "image/png", content: padded(tinyPng()) },
    ]);
    await uploadDuringErasure({ cookie, body, id }, "/api/support/messages", form);
    const rows = await ctx.app.db
      .selectFrom("support_messages")
      .select("id")
      .where("patient_id", "=", id)
      .unionAll(
        ctx.app.db.selectFrom("support_threads").select("patient_id as id").where("patient_id", "=", id),
      )
      .execute();
    expect(rows).toEqual([]);
  });

  it("a support message about one of the person's requests: 401 too (not 'unknown request')", async () => {
    const { cookie, body, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const created = await postRequest(ctx.app, cookie, { treatment_type: "implant", consent: "true" });
    const form = multipart({ body: "À propos de ma demande", request_id: created.json().id }, [
      { field: "image", name: "capture.png", type: "image/png", content: padded(tinyPng()) },
    ]);
    await uploadDuringErasure({ cookie, body, id }, "/api/support/messages", form);
  });

  it("an avatar: 401, no file, no folder", async () => {
    const { cookie, body, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const form = multipart({}, [
      { field: "avatar", name: "moi.png", type: "image/png", content: padded(tinyPng(300, 300)) },
    ]);
    await uploadDuringErasure({ cookie, body, id }, "/api/me/avatar", form);
  });
});
