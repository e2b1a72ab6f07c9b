import { describe, expect, it } from "vitest";
import { tinyPdf } from "../../testing/files";
import { appPerFile, devisPdf, newRequestId, radioPng, signUpPatient } from "../../testing/harness";
import { api, postForm, dentist as verifiedDentist } from "../../testing/people";

/**
 * Issue 14: a patient deletes one request. Its rows go in one transaction (documents and their
 * access history, offers, conversations and messages) and its files are really removed: the test
 * reads the storage folder itself.
 */
const ctx = appPerFile();
const { call } = api(ctx);

describe("DELETE /api/patient/requests/:id", () => {
  it("removes the request, its documents, its conversations and every file; the dentist sees it no more", async () => {
    const patient = await signUpPatient(ctx.app);
    const dentist = await verifiedDentist(ctx.app);

    const id = await newRequestId(ctx.app, patient.cookie, [devisPdf(), radioPng()], {
      document_types: '["quote","xray"]',
    });
    const kept = await newRequestId(ctx.app, patient.cookie, undefined, { treatment_type: "implant" });

    // The dentist opens a document (an access-history row), replies (a conversation), and the
    // patient answers with an attachment.
    const detail = (await call("GET", `/api/dentist/requests/${id}`, dentist.cookie)).json();
    const documentId = detail.documents[0].id as string;
    expect((await call("GET", `/api/documents/${documentId}/file`, dentist.cookie)).statusCode).toBe(200);
    const reply = await call("POST", `/api/dentist/requests/${id}/reply`, dentist.cookie, {
      message: "Bonjour",
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const conversationId = reply.json().conversation_id as string;
    const sent = await postForm(
      ctx.app,
      `/api/conversations/${conversationId}/messages`,
      patient,
      { body: "Voici ma radio" },
      [{ field: "files", name: "autre.pdf", type: "application/pdf", content: tinyPdf() }],
    );
    expect(sent.statusCode, sent.body).toBe(201);

    const keysOf = async () => {
      const documents = await ctx.app.db
        .selectFrom("documents")
        .select("storage_key as key")
        .where("request_id", "=", id)
        .execute();
      const attachments = await ctx.app.db
        .selectFrom("message_attachments as a")
        .innerJoin("messages as m", "m.id", "a.message_id")
        .select("a.storage_key as key")
        .where("m.conversation_id", "=", conversationId)
        .execute();
      return [...documents, ...attachments].map((row) => row.key);
    };
    const keys = await keysOf();
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(ctx.storedKeys()).toContain(key);
    const keptKeys = (
      await ctx.app.db.selectFrom("documents").select("storage_key").where("request_id", "=", kept).execute()
    ).map((row) => row.storage_key);

    // Someone else cannot: the dentist is not in the patient area, another patient gets 404.
    const other = await signUpPatient(ctx.app);
    expect((await call("DELETE", `/api/patient/requests/${id}`, dentist.cookie)).statusCode).toBe(403);
    expect((await call("DELETE", `/api/patient/requests/${id}`, other.cookie)).statusCode).toBe(404);
    expect(await keysOf()).toHaveLength(3);

    const deleted = await call("DELETE", `/api/patient/requests/${id}`, patient.cookie);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe("Demande supprimée, avec ses documents et ses échanges.");

    // Nothing left of it, in the database or in the storage; the other request untouched.
    for (const table of ["requests", "documents", "document_access", "conversations", "offers"] as const) {
      const column = table === "requests" ? "id" : "request_id";
      const rows = await ctx.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where(column, "=", id)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n), table).toBe(0);
    }
    const stored = ctx.storedKeys();
    for (const key of keys) expect(stored).not.toContain(key);
    for (const key of keptKeys) expect(stored).toContain(key);
    expect((await call("GET", `/api/patient/requests/${kept}`, patient.cookie)).statusCode).toBe(200);

    // The dentist sees it disappear: detail, list, conversation.
    expect((await call("GET", `/api/dentist/requests/${id}`, dentist.cookie)).statusCode).toBe(404);
    const list = (await call("GET", "/api/dentist/requests", dentist.cookie)).json();
    expect(list.items.map((item: { id: string }) => item.id)).not.toContain(id);
    expect(
      (await call("GET", `/api/conversations/${conversationId}/messages`, dentist.cookie)).statusCode,
    ).toBe(404);

    // Recorded without content; a second delete finds nothing.
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("action", "=", "request.deleted")
      .where("subject_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(patient.response.json().profile.id);
    expect((await call("DELETE", `/api/patient/requests/${id}`, patient.cookie)).statusCode).toBe(404);
  });
});
