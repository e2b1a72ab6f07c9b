import { describe, expect, it } from "vitest";
import { tinyPdf, tinyPng } from "../testing/files";
import { appPerFile, postRequest, signUpDentist, signUpPatient } from "../testing/harness";
import { postForm, signInAdmin, verifyDentist } from "../testing/people";

/**
 * Issue 14: the patient's access history lists every read of their data by someone else — the
 * request page opened by a dentist (once per visit), each document, and the attachments the patient
 * sent in a conversation — and nothing the patient read of the dentist's.
 */
const ctx = appPerFile();

const call = (method: "GET" | "POST", url: string, cookie: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const send = (conversationId: string, cookie: string, name: string) =>
  postForm(ctx.app, `/api/conversations/${conversationId}/messages`, cookie, { body: "Voici" }, [
    { field: "files", name, type: "application/pdf", content: tinyPdf() },
  ]);

describe("the patient's access history", () => {
  it("records the request page, the documents and the patient's attachments read by a dentist", async () => {
    const patient = await signUpPatient(ctx.app);
    const dentist = await signUpDentist(ctx.app, { first_name: "Julie", last_name: "Roux" });
    const dentistId = dentist.response.json().profile.id as string;
    await verifyDentist(ctx.app, dentistId);
    const id = (
      await postRequest(ctx.app, patient.cookie, { treatment_type: "crown", consent: "true" })
    ).json().id as string;

    // The page twice in a row: one visit.
    const detail = await call("GET", `/api/dentist/requests/${id}`, dentist.cookie);
    expect(detail.statusCode).toBe(200);
    expect((await call("GET", `/api/dentist/requests/${id}`, dentist.cookie)).statusCode).toBe(200);
    const documentId = detail.json().documents[0].id as string;
    expect(
      (await call("GET", `/api/documents/${documentId}/file?disposition=inline`, dentist.cookie)).statusCode,
    ).toBe(200);

    const conversationId = (
      await call("POST", `/api/dentist/requests/${id}/reply`, dentist.cookie, { message: "Bonjour" })
    ).json().conversation_id as string;
    expect((await send(conversationId, patient.cookie, "radio-patient.pdf")).statusCode).toBe(201);
    expect((await send(conversationId, dentist.cookie, "devis-dentiste.pdf")).statusCode).toBe(201);
    const messages = (
      await call("GET", `/api/conversations/${conversationId}/messages`, patient.cookie)
    ).json();
    const attachment = (name: string) =>
      messages.items
        .flatMap((m: { attachments: { id: string; file_name: string }[] }) => m.attachments)
        .find((a: { file_name: string }) => a.file_name === name).id as string;
    // The dentist opens the patient's file; the patient opens the dentist's.
    expect(
      (
        await call(
          "GET",
          `/api/conversations/attachments/${attachment("radio-patient.pdf")}?disposition=attachment`,
          dentist.cookie,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(
          "GET",
          `/api/conversations/attachments/${attachment("devis-dentiste.pdf")}`,
          patient.cookie,
        )
      ).statusCode,
    ).toBe(200);

    const log = (await call("GET", `/api/patient/requests/${id}`, patient.cookie)).json()
      .access_log as Array<{
      action: string;
      actor_name: string;
      actor_kind: string;
      document_id: string | null;
      document_name: string | null;
    }>;
    const lines = log.map((a) => [a.action, a.document_name]).sort();
    expect(lines).toEqual([
      ["attachment_download", "radio-patient.pdf"],
      ["request_view", null],
      ["view", "devis.pdf"],
    ]);
    for (const line of log) expect(line).toMatchObject({ actor_name: "Julie Roux", actor_kind: "dentist" });

    // Another patient sees none of it.
    const other = await signUpPatient(ctx.app);
    expect((await call("GET", `/api/patient/requests/${id}`, other.cookie)).statusCode).toBe(404);
  });

  it("gives the history by pages: the detail holds the 20 newest reads, its route every page, none lost", async () => {
    const patient = await signUpPatient(ctx.app);
    const dentist = await signUpDentist(ctx.app, { first_name: "Paul", last_name: "Morel" });
    await verifyDentist(ctx.app, dentist.response.json().profile.id as string);
    const id = (
      await postRequest(ctx.app, patient.cookie, { treatment_type: "crown", consent: "true" })
    ).json().id as string;
    const detail = await call("GET", `/api/dentist/requests/${id}`, dentist.cookie);
    const documentId = detail.json().documents[0].id as string;
    // The request page, then its devis opened 24 times: 25 reads, more than the page's 20.
    for (let i = 0; i < 24; i++) {
      const read = await call("GET", `/api/documents/${documentId}/file?disposition=inline`, dentist.cookie);
      expect(read.statusCode).toBe(200);
    }

    const first = (await call("GET", `/api/patient/requests/${id}`, patient.cookie)).json();
    expect(first.access_log).toHaveLength(20);
    expect(first.access_log_has_more).toBe(true);
    const page = async (n: number) => {
      const response = await call("GET", `/api/patient/requests/${id}/access-log?page=${n}`, patient.cookie);
      expect(response.statusCode).toBe(200);
      return response.json() as {
        items: { id: string; action: string; created_at: string }[];
        has_more: boolean;
      };
    };
    const [one, two, three] = [await page(1), await page(2), await page(3)];
    expect(one.items).toEqual(first.access_log);
    expect(one.has_more).toBe(true);
    expect(two.items).toHaveLength(5);
    expect(two.has_more).toBe(false);
    expect(three).toMatchObject({ items: [], has_more: false });
    const all = [...one.items, ...two.items];
    expect(new Set(all.map((a) => a.id)).size).toBe(25);
    // Newest first: the request page, opened before the documents, is the last row.
    const times = all.map((a) => a.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.at(-1)?.action).toBe("request_view");
    expect(all.filter((a) => a.action === "view")).toHaveLength(24);

    // Another patient's request: 404, as its detail; a bad page number: 400 in French.
    const other = await signUpPatient(ctx.app);
    const refused = await call("GET", `/api/patient/requests/${id}/access-log?page=2`, other.cookie);
    expect(refused.statusCode).toBe(404);
    const bad = await call("GET", `/api/patient/requests/${id}/access-log?page=0`, patient.cookie);
    expect(bad.statusCode).toBe(400);
  });

  it("records the team opening a patient's help thread and its images, shown to that patient only", async () => {
    const patient = await signUpPatient(ctx.app);
    const other = await signUpPatient(ctx.app);
    const patientId = patient.response.json().profile.id as string;
    const admin = (await signInAdmin(ctx.app, "equipe@example.com")).cookie;
    const sent = await postForm(ctx.app, "/api/support/messages", patient, { body: "Voici ma capture" }, [
      { field: "image", name: "capture.png", type: "image/png", content: tinyPng() },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const messageId = sent.json().id as string;

    const access = async (cookie: string) => (await call("GET", "/api/support/access", cookie)).json().items;
    expect(await access(patient.cookie)).toEqual([]);
    // The patient reading their own thread and image is not a read by someone else.
    expect((await call("GET", `/api/support/messages/${messageId}/image`, patient.cookie)).statusCode).toBe(
      200,
    );
    expect(await access(patient.cookie)).toEqual([]);

    // The team opens the thread twice in a row (one visit), then the image.
    const thread = `/api/admin/support/threads/${patientId}/messages`;
    expect((await call("GET", thread, admin)).statusCode).toBe(200);
    expect((await call("GET", thread, admin)).statusCode).toBe(200);
    expect((await call("GET", `/api/support/messages/${messageId}/image`, admin)).statusCode).toBe(200);
    // An empty thread (someone who never wrote) records nothing.
    const otherId = other.response.json().profile.id as string;
    expect((await call("GET", `/api/admin/support/threads/${otherId}/messages`, admin)).statusCode).toBe(200);

    const rows = await access(patient.cookie);
    expect(
      rows.map((r: { action: string; object_name: string | null }) => [r.action, r.object_name]),
    ).toEqual([
      ["support_image_view", "capture.png"],
      ["support_thread_view", null],
    ]);
    expect(await access(other.cookie)).toEqual([]);

    // An older page asked for on its own (`before`), without opening the thread first: a read too.
    const third = await signUpPatient(ctx.app);
    const thirdId = third.response.json().profile.id as string;
    const first = await postForm(ctx.app, "/api/support/messages", third, { body: "Première question" });
    expect(first.statusCode, first.body).toBe(201);
    const second = await postForm(ctx.app, "/api/support/messages", third, { body: "Seconde question" });
    const older = await call(
      "GET",
      `/api/admin/support/threads/${thirdId}/messages?before=${second.json().id}`,
      admin,
    );
    expect(older.json().items.map((m: { body: string }) => m.body)).toEqual(["Première question"]);
    expect((await access(third.cookie)).map((r: { action: string }) => r.action)).toEqual([
      "support_thread_view",
    ]);
    const dentist = await signUpDentist(ctx.app);
    // A dentist has a support thread of their own (issue 16): nobody read it, and never the patient's.
    expect((await call("GET", "/api/support/access", dentist.cookie)).json()).toMatchObject({
      items: [],
      has_more: false,
    });

    // Every read, by pages of 20, newest first: the patient's 2 rows and 21 more image reads.
    for (let i = 0; i < 21; i++)
      expect((await call("GET", `/api/support/messages/${messageId}/image`, admin)).statusCode).toBe(200);
    const page1 = (await call("GET", "/api/support/access?page=1", patient.cookie)).json();
    const page2 = (await call("GET", "/api/support/access?page=2", patient.cookie)).json();
    expect([page1.items.length, page1.has_more, page2.items.length, page2.has_more]).toEqual([
      20,
      true,
      3,
      false,
    ]);
    const ids = [...page1.items, ...page2.items].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(23);
    expect(page2.items.at(-1).action).toBe("support_thread_view");
  });
});
