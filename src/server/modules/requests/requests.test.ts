import { beforeAll, describe, expect, it } from "vitest";
import { CONSENT_VERSION, consentText } from "../../../shared/domain/consent";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { startTrial } from "../../../shared/domain/subscription";
import { CONSENT_MESSAGES, OPEN_TO_ALL_MESSAGES } from "../../../shared/schemas/requests";
import { columnsOfState } from "../../access/subscription";
import { fakeExe, pdfOfSize, tinyPdf, tinyPng } from "../../testing/files";
import { appPerFile, postRequest } from "../../testing/harness";
import { api, patient, people, postForm, signInAdmin, type Who } from "../../testing/people";

const ctx = appPerFile({ env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" } });
const { get, post } = api(ctx);
const who: Record<string, Who> = {};

beforeAll(async () => {
  Object.assign(
    who,
    await people(ctx.app, {
      patients: ["alice", "bob"],
      dentists: { drA: "Anne", drB: "Bruno" },
      unverified: { unverified: {} },
    }),
  );
  who.admin = await signInAdmin(ctx.app, "admin@example.com");
});

type Upload = { name: string; type: string; content: Buffer };
const pdf = (name = "devis-dentiste.pdf"): Upload => ({ name, type: "application/pdf", content: tinyPdf() });
const png = (name = "photo.png"): Upload => ({ name, type: "image/png", content: tinyPng() });
const baseFields = {
  treatment_type: "implant",
  consent: "true",
  urgency: "high",
  budget: "2000 €",
  description: "Molaire",
};

const upload = (cookie: string | undefined, fields: Record<string, string>, files: Upload[]) =>
  postRequest(ctx.app, cookie, fields, files);
// On the disk or, in TEST_S3 runs, in the bucket.
const storedCount = (userId: string) => ctx.storedKeys().filter((key) => key.startsWith(`${userId}/`)).length;
const requestCount = async () =>
  Number(
    (
      await ctx.app.db
        .selectFrom("requests")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function createFor(
  name: string,
  fields: Record<string, string> = {},
  files: Upload[] = [pdf(), png()],
) {
  const response = await upload(
    who[name]?.cookie,
    { ...baseFields, document_types: JSON.stringify(["quote", "photo"]), ...fields },
    files,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

describe("creating a request", () => {
  it("stores the request and its documents, typed by content, under {userId}/{random}.{ext}", async () => {
    const id = await createFor("alice", { quote_amount: "1 250,50" });
    const detail = await get(`/api/patient/requests/${id}`, who.alice?.cookie);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      treatment_type: "implant",
      status: "new",
      urgency: "high",
      budget: "2000 €",
      description: "Molaire",
      quote_amount_cents: 125050,
      recipient: null,
      document_count: 2,
    });
    expect(
      detail
        .json()
        .documents.map((d: { document_type: string; mime_type: string }) => [d.document_type, d.mime_type]),
    ).toEqual([
      ["quote", "application/pdf"],
      ["photo", "image/png"],
    ]);
    const keys = await ctx.app.db
      .selectFrom("documents")
      .select("storage_key")
      .where("request_id", "=", id)
      .execute();
    for (const { storage_key } of keys)
      expect(storage_key).toMatch(new RegExp(`^${who.alice?.id}/[0-9a-f-]{36}\\.(pdf|png)$`));
  });

  it("addresses a request to one verified dentist", async () => {
    const id = await createFor("alice", { recipient: who.drA?.id ?? "" });
    const detail = await get(`/api/patient/requests/${id}`, who.alice?.cookie);
    expect(detail.json().recipient).toMatchObject({ id: who.drA?.id, full_name: "Anne Martin" });
  });

  it.each([
    [{ treatment_type: "" }, [pdf()], 400, "Veuillez sélectionner un type de traitement."],
    [
      { consent: "" },
      [pdf()],
      400,
      "Veuillez accepter le partage de vos documents avec le ou les dentistes choisis.",
    ],
    [
      { quote_amount: "beaucoup" },
      [pdf()],
      400,
      "Veuillez saisir un montant en euros, par exemple 1 250 ou 1 250,50.",
    ],
    // 30 000 000 € is 3 × 10⁹ cents, past the column's 32-bit integer: refused before, not a 500.
    [{ quote_amount: "30000000" }, [pdf()], 400, "Le montant du devis ne peut pas dépasser 100 000 €."],
    [{}, [], 400, "Veuillez téléverser au moins un document."],
    [
      {},
      [{ name: "devis.pdf", type: "application/pdf", content: fakeExe() }],
      415,
      "Le contenu du fichier devis.pdf ne correspond pas",
    ],
    [
      {},
      [{ name: "vide.pdf", type: "application/pdf", content: Buffer.alloc(0) }],
      415,
      "Le contenu du fichier vide.pdf",
    ],
    [
      {},
      [{ name: "gros.pdf", type: "application/pdf", content: pdfOfSize(MAX_FILE_SIZE + 1) }],
      413,
      "Le fichier gros.pdf est trop volumineux (max 10 Mo)",
    ],
  ])("refuses %o with a French message and keeps nothing", async (fields, files, status, message) => {
    const before = { files: storedCount(who.bob?.id ?? ""), rows: await requestCount() };
    const response = await upload(who.bob?.cookie, { ...baseFields, ...fields }, files as Upload[]);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toContain(message);
    expect(storedCount(who.bob?.id ?? "")).toBe(before.files);
    expect(await requestCount()).toBe(before.rows);
  });

  it("is atomic: a bad second file removes the first one already stored", async () => {
    const before = { files: storedCount(who.bob?.id ?? ""), rows: await requestCount() };
    const response = await upload(who.bob?.cookie, baseFields, [
      pdf(),
      { name: "x.pdf", type: "application/pdf", content: fakeExe() },
    ]);
    expect(response.statusCode).toBe(415);
    expect(storedCount(who.bob?.id ?? "")).toBe(before.files);
    expect(await requestCount()).toBe(before.rows);
  });

  it("is atomic: one file over the limit of 10 refuses the request (413) and removes the ten stored", async () => {
    const before = { files: storedCount(who.bob?.id ?? ""), rows: await requestCount() };
    const files = Array.from({ length: 11 }, (_, i) => pdf(`devis-${i}.pdf`));
    const response = await upload(who.bob?.cookie, baseFields, files);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({
      message: "Vous pouvez envoyer au plus 10 fichiers par demande.",
      fields: { files: "Vous pouvez envoyer au plus 10 fichiers par demande." },
    });
    expect(storedCount(who.bob?.id ?? "")).toBe(before.files);
    expect(await requestCount()).toBe(before.rows);
  });

  it("is atomic: a refused recipient (unverified dentist) stores no row and no file", async () => {
    const before = { files: storedCount(who.bob?.id ?? ""), rows: await requestCount() };
    const response = await upload(who.bob?.cookie, { ...baseFields, recipient: who.unverified?.id ?? "" }, [
      pdf(),
      png(),
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.recipient).toBeDefined();
    expect(storedCount(who.bob?.id ?? "")).toBe(before.files);
    expect(await requestCount()).toBe(before.rows);
  });

  it("refuses anonymous callers (401) and dentists (403)", async () => {
    expect((await upload(undefined, baseFields, [pdf()])).statusCode).toBe(401);
    expect((await upload(who.drA?.cookie, baseFields, [pdf()])).statusCode).toBe(403);
  });
});

describe("following requests", () => {
  it("refuses anonymous callers (401) and dentists (403) on the dashboard and the list", async () => {
    for (const url of ["/api/patient/dashboard", "/api/patient/requests"]) {
      expect((await get(url)).statusCode, url).toBe(401);
      expect((await get(url, who.drA?.cookie)).statusCode, url).toBe(403);
    }
  });

  it("shows a patient only their own requests, counters and the 5 most recent", async () => {
    who.chloe = await patient(ctx.app, { first_name: "Chloé" });
    const empty = await get("/api/patient/dashboard", who.chloe.cookie);
    expect(empty.json()).toEqual({
      counts: { active: 0, completed: 0, latest_at: null, support_unread: 0 },
      recent: [],
    });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(await createFor("chloe", { treatment_type: i === 0 ? "whitening" : "crown" }));
    await ctx.app.db
      .updateTable("requests")
      .set({ status: "completed" })
      .where("id", "=", ids[1] ?? "")
      .execute();
    // An accepted request whose appointment is still to come is active, not 'Terminée' (ADR 016).
    await ctx.app.db
      .updateTable("requests")
      .set({ status: "accepted" })
      .where("id", "=", ids[2] ?? "")
      .execute();
    const dashboard = (await get("/api/patient/dashboard", who.chloe.cookie)).json();
    expect(dashboard.counts).toMatchObject({ active: 5, completed: 1 });
    const journeys = Object.fromEntries(
      dashboard.recent.map((r: { id: string; journey: { state: string } }) => [r.id, r.journey.state]),
    );
    expect(journeys).toMatchObject({
      [ids[1] ?? ""]: "done",
      [ids[2] ?? ""]: "accepted",
      [ids[3] ?? ""]: "sent",
    });
    expect(dashboard.counts.latest_at).not.toBeNull();
    // The team's answer, unread: counted on her dashboard, not on another patient's.
    const asked = await postForm(ctx.app, "/api/support/messages", who.chloe, { body: "Une question" });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await get("/api/patient/dashboard", who.chloe.cookie)).json().counts.support_unread).toBe(0);
    const answered = await post(
      `/api/admin/support/threads/${who.chloe.id}/messages`,
      { body: "Bonjour Chloé, voici la réponse." },
      who.admin,
    );
    expect(answered.statusCode, answered.body).toBe(201);
    expect((await get("/api/patient/dashboard", who.chloe.cookie)).json().counts.support_unread).toBe(1);
    const other = await patient(ctx.app);
    expect((await get("/api/patient/dashboard", other.cookie)).json().counts.support_unread).toBe(0);
    expect(dashboard.recent).toHaveLength(5);
    expect(dashboard.recent[0].id).toBe(ids[5]);

    const list = (await get("/api/patient/requests?page_size=4", who.chloe.cookie)).json();
    expect(list.total).toBe(6);
    expect(list.items).toHaveLength(4);
    const page2 = (await get("/api/patient/requests?page_size=4&page=2", who.chloe.cookie)).json();
    expect(page2.items.map((i: { id: string }) => i.id)).toEqual([ids[1], ids[0]]);

    const byLabel = (
      await get(`/api/patient/requests?search=${encodeURIComponent("blanchi")}`, who.chloe.cookie)
    ).json();
    expect(byLabel.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const byStatus = (
      await get(`/api/patient/requests?search=${encodeURIComponent("terminee")}`, who.chloe.cookie)
    ).json();
    expect(byStatus.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    const none = (await get("/api/patient/requests?search=zzz", who.chloe.cookie)).json();
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it("finds a request by the state its row shows, as the journey derives it", async () => {
    who.dora = await patient(ctx.app, { first_name: "Dora" });
    const [sent, compare, lapsed, accepted, pending, confirmed, past, completed, cancelled, taken] =
      await Promise.all(Array.from({ length: 10 }, () => createFor("dora")));
    const offer = async (requestId: string | undefined) => {
      const sentOffer = await post(
        `/api/dentist/requests/${requestId}/offers`,
        { amount_cents: 90_000 },
        who.drA,
      );
      expect(sentOffer.statusCode, sentOffer.body).toBe(201);
    };
    await offer(compare);
    await offer(lapsed);
    // An offer past its last valid day is no longer to compare: the request is 'sent' again, « En cours »
    // (a dentist answered it).
    await ctx.app.db
      .updateTable("offers")
      .set({ valid_until: "2020-01-01" })
      .where("request_id", "=", lapsed ?? "")
      .execute();
    const day = 24 * 3600 * 1000;
    const set = (id: string | undefined, columns: Record<string, unknown>) =>
      ctx.app.db
        .updateTable("requests")
        .set(columns)
        .where("id", "=", id ?? "")
        .execute();
    await set(accepted, { status: "accepted" });
    const soon = new Date(Date.now() + 3 * day);
    await set(pending, { status: "accepted", appointment_status: "pending", appointment_starts_at: soon });
    await set(confirmed, {
      status: "accepted",
      appointment_status: "confirmed",
      appointment_starts_at: soon,
    });
    await set(past, {
      status: "accepted",
      appointment_status: "confirmed",
      appointment_starts_at: new Date(Date.now() - day),
    });
    await set(completed, { status: "completed" });
    await set(cancelled, { status: "cancelled" });
    // A dentist took it on (D8): the state 'sent', labelled « En cours ».
    await set(taken, { status: "in_review" });

    const rows = (await get("/api/patient/requests?page_size=50", who.dora.cookie)).json().items as {
      id: string;
      journey: { state: string; label: string };
    }[];
    const states = Object.fromEntries(rows.map((r) => [r.id, r.journey.state]));
    const labels = Object.fromEntries(rows.map((r) => [r.id, r.journey.label]));
    expect([labels[sent ?? ""], labels[lapsed ?? ""], labels[taken ?? ""]]).toEqual([
      "Envoyée",
      "En cours",
      "En cours",
    ]);
    expect(states).toEqual({
      [sent ?? ""]: "sent",
      [compare ?? ""]: "compare",
      [lapsed ?? ""]: "sent",
      [accepted ?? ""]: "accepted",
      [pending ?? ""]: "appointment_pending",
      [confirmed ?? ""]: "appointment_confirmed",
      [past ?? ""]: "done",
      [completed ?? ""]: "done",
      [cancelled ?? ""]: "cancelled",
      [taken ?? ""]: "sent",
    });
    const found = async (term: string) =>
      (await get(`/api/patient/requests?page_size=50&search=${encodeURIComponent(term)}`, who.dora?.cookie))
        .json()
        .items.map((r: { id: string }) => r.id)
        .sort();
    const ids = (...list: (string | undefined)[]) => list.map((id) => id ?? "").sort();
    // « Envoyée » finds what reads « Envoyée », not the requests a dentist took on (« En cours »).
    expect(await found("Envoyée")).toEqual(ids(sent));
    expect(await found("à comparer")).toEqual(ids(compare));
    expect(await found("choisissez un créneau")).toEqual(ids(accepted));
    expect(await found("Rendez-vous à confirmer")).toEqual(ids(pending));
    expect(await found("rendez-vous")).toEqual(ids(pending, confirmed));
    expect(await found("terminee")).toEqual(ids(past, completed));
    expect(await found("Annulée")).toEqual(ids(cancelled));
    expect(await found("en cours")).toEqual(ids(sent, compare, lapsed, accepted, pending, confirmed, taken));
    // A search that matches a treatment too finds both.
    expect(await found("a")).toHaveLength(10);
  });

  it("answers 404 on another patient's request, 401 anonymous, 403 for a dentist", async () => {
    const id = await createFor("alice");
    const other = await get(`/api/patient/requests/${id}`, who.bob?.cookie);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe("Cette demande n'existe pas ou a été supprimée.");
    expect((await get(`/api/patient/requests/${id}`)).statusCode).toBe(401);
    expect((await get(`/api/patient/requests/${id}`, who.drA?.cookie)).statusCode).toBe(403);
    expect((await get("/api/patient/requests/not-a-uuid", who.alice?.cookie)).statusCode).toBe(404);
    const bobList = (await get("/api/patient/requests?page_size=50", who.bob?.cookie)).json();
    expect(bobList.items.map((i: { id: string }) => i.id)).not.toContain(id);
  });

  it("lets the owner cancel, once, and nobody else", async () => {
    const id = await createFor("alice");
    const post = (cookie?: string) =>
      ctx.app.inject({
        method: "POST",
        url: `/api/patient/requests/${id}/cancel`,
        headers: cookie ? { cookie } : {},
      });
    expect((await post(who.bob?.cookie)).statusCode).toBe(404);
    expect((await post()).statusCode).toBe(401);
    const ok = await post(who.alice?.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe("cancelled");
    expect((await post(who.alice?.cookie)).statusCode).toBe(409);
  });

  it("records the consent as the form worded it, and closes the request when the patient withdraws it", async () => {
    const toAll = await createFor("alice");
    const toA = await createFor("alice", { recipient: who.drA?.id ?? "" });
    const consentOf = async (id: string) =>
      (await get(`/api/patient/requests/${id}`, who.alice?.cookie)).json().consent;
    const all = await consentOf(toAll);
    expect(all).toMatchObject({
      version: CONSENT_VERSION,
      text: consentText({ brand: "Sourio", dentistName: null }),
      withdrawn_at: null,
    });
    // Given as the request was sent (the demo data's requests, sent days ago, showed today's date).
    const sent = (await get(`/api/patient/requests/${toAll}`, who.alice?.cookie)).json().created_at;
    expect(all.given_at).toBe(sent);
    expect((await consentOf(toA)).text).toBe(consentText({ brand: "Sourio", dentistName: "Anne Martin" }));

    const withdraw = (id: string, cookie?: string) =>
      ctx.app.inject({
        method: "POST",
        url: `/api/patient/requests/${id}/consent/withdraw`,
        headers: cookie ? { cookie } : {},
      });
    expect((await get(`/api/dentist/requests/${toAll}`, who.drB?.cookie)).statusCode).toBe(200);
    expect((await withdraw(toAll)).statusCode).toBe(401);
    expect((await withdraw(toAll, who.bob?.cookie)).statusCode).toBe(404);
    expect((await withdraw(toAll, who.drB?.cookie)).statusCode).toBe(403);
    const ok = await withdraw(toAll, who.alice?.cookie);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: "cancelled", message: CONSENT_MESSAGES.withdrawn });
    const after = (await get(`/api/patient/requests/${toAll}`, who.alice?.cookie)).json();
    expect(after.status).toBe("cancelled");
    expect(after.consent.withdrawn_at).not.toBeNull();
    expect(after.consent.text).toBe(all.text);
    // Dentists no longer see it; withdrawing again says it is already closed.
    expect((await get(`/api/dentist/requests/${toAll}`, who.drB?.cookie)).statusCode).toBe(404);
    const again = await withdraw(toAll, who.alice?.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CONSENT_MESSAGES.notOpen);
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_id"])
      .where("action", "=", "request.consent_withdrawn")
      .execute();
    expect(audit).toEqual([{ actor_id: who.alice?.id, subject_id: toAll }]);
  });

  it("lists verified dentists only, for patients only", async () => {
    const list = await get("/api/dentists/verified", who.alice?.cookie);
    const ids = list.json().items.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([who.drA?.id, who.drB?.id]));
    expect(ids).not.toContain(who.unverified?.id);
    expect((await get("/api/dentists/verified")).statusCode).toBe(401);
  });
});

describe("documents", () => {
  it("streams a document to its owner with the right headers and bytes, unrecorded", async () => {
    const id = await createFor("alice");
    const detail = (await get(`/api/patient/requests/${id}`, who.alice?.cookie)).json();
    const doc = detail.documents[0];
    const file = await get(`/api/documents/${doc.id}/file`, who.alice?.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.headers["content-disposition"]).toContain('attachment; filename="devis-dentiste.pdf"');
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.rawPayload.equals(tinyPdf())).toBe(true);
    expect((await get(`/api/patient/requests/${id}`, who.alice?.cookie)).json().access_log).toEqual([]);
  });

  it("shows a request to its patient, the admins and verified dentists (ADR 012) and records every access by someone else", async () => {
    const toAll = await createFor("alice");
    const toA = await createFor("alice", { recipient: who.drA?.id ?? "" });
    const docOf = async (requestId: string) =>
      (await get(`/api/patient/requests/${requestId}`, who.alice?.cookie)).json().documents[0].id;
    const [docAll, docA] = [await docOf(toAll), await docOf(toA)];
    const status = async (docId: string, cookie?: string, q = "") =>
      (await get(`/api/documents/${docId}/file${q}`, cookie)).statusCode;

    expect(await status(docAll, who.bob?.cookie)).toBe(404);
    expect(await status(docAll)).toBe(401);
    expect(await status(docAll, who.unverified?.cookie)).toBe(404);
    expect(await status(docAll, who.drB?.cookie, "?disposition=inline")).toBe(200);
    expect(await status(docA, who.drB?.cookie)).toBe(404);
    expect(await status(docA, who.drA?.cookie)).toBe(200);
    expect(await status(docA, who.admin?.cookie)).toBe(200);

    const logAll = (await get(`/api/patient/requests/${toAll}`, who.alice?.cookie)).json().access_log;
    expect(logAll).toEqual([
      expect.objectContaining({ actor_name: "Bruno Martin", actor_kind: "dentist", action: "view" }),
    ]);
    const logA = (await get(`/api/patient/requests/${toA}`, who.alice?.cookie)).json().access_log;
    expect(logA.map((a: { actor_kind: string; action: string }) => [a.actor_kind, a.action]).sort()).toEqual([
      ["admin", "download"],
      ["dentist", "download"],
    ]);
  });

  it("closes a cancelled request's documents to dentists", async () => {
    const id = await createFor("alice");
    const docId = (await get(`/api/patient/requests/${id}`, who.alice?.cookie)).json().documents[0].id;
    await ctx.app.inject({
      method: "POST",
      url: `/api/patient/requests/${id}/cancel`,
      headers: { cookie: who.alice?.cookie ?? "" },
    });
    expect((await get(`/api/documents/${docId}/file`, who.drA?.cookie)).statusCode).toBe(404);
    expect((await get(`/api/documents/${docId}/file`, who.alice?.cookie)).statusCode).toBe(200);
  });
});

describe("sending a request addressed to one dentist to every verified dentist (ADR 073)", () => {
  const { post } = api(ctx);
  const detail = async (id: string, as: Who) => (await get(`/api/patient/requests/${id}`, as)).json();
  /** The audit rows of the request sent to all (one per change, none for a second click). */
  const openedToAllAudits = (id: string) =>
    ctx.app.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("subject_id", "=", id)
      .where("action", "=", "request.opened_to_all")
      .execute();
  const listedFor = async (as: Who) =>
    (await get("/api/dentist/requests", as)).json().items.map((i: { id: string }) => i.id) as string[];

  it("says when the dentist chosen no longer receives it, and opens it to all with a new consent", async () => {
    const lea = await patient(ctx.app, { first_name: "Léa" });
    who.lea = lea;
    const [named, other] = [who.drA as Who, who.drB as Who];
    const id = await createFor("lea", { recipient: named.id });
    const given = await detail(id, lea);
    expect(given.recipient).toMatchObject({ id: named.id, taking_requests: true });
    expect(await listedFor(other)).not.toContain(id);

    // His verification withdrawn: the request reaches nobody, and the page says so.
    const withdrawn = await post(
      `/api/admin/dentists/${named.id}/verification`,
      { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
      who.admin,
    );
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await detail(id, lea)).recipient).toMatchObject({ id: named.id, taking_requests: false });

    // Without the new consent: refused on the field, nothing changed.
    const refused = await post(`/api/patient/requests/${id}/open-to-all`, {}, lea);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.consent).toBe(OPEN_TO_ALL_MESSAGES.consentRequired);
    expect((await detail(id, lea)).recipient).not.toBeNull();
    // Another patient: 404, whatever the body.
    expect(
      (await post(`/api/patient/requests/${id}/open-to-all`, { consent: true }, who.alice)).statusCode,
    ).toBe(404);

    const opened = await post(`/api/patient/requests/${id}/open-to-all`, { consent: true }, lea);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ id, message: OPEN_TO_ALL_MESSAGES.done });
    const after = await detail(id, lea);
    expect(after.recipient).toBeNull();
    expect(after.consent).toMatchObject({
      version: CONSENT_VERSION,
      text: consentText({ brand: ctx.config.brandName, dentistName: null }),
      withdrawn_at: null,
    });
    expect(await listedFor(other)).toContain(id);
    expect((await get(`/api/dentist/requests/${id}`, other)).statusCode).toBe(200);
    // The audit row names the dentist and the consent it replaced.
    const [audit, ...more] = await openedToAllAudits(id);
    expect(more).toHaveLength(0);
    expect(audit?.details).toEqual({
      replaced: {
        dentist_id: named.id,
        consent_version: given.consent.version,
        consent_at: new Date(given.consent.given_at).toISOString(),
      },
    });

    // Again (a second click): nothing more to do, no second audit row.
    expect((await post(`/api/patient/requests/${id}/open-to-all`, { consent: true }, lea)).statusCode).toBe(
      200,
    );
    expect(await openedToAllAudits(id)).toHaveLength(1);
    // Once cancelled: a French 409.
    expect((await post(`/api/patient/requests/${id}/cancel`, undefined, lea)).statusCode).toBe(200);
    const closed = await post(`/api/patient/requests/${id}/open-to-all`, { consent: true }, lea);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe(OPEN_TO_ALL_MESSAGES.notOpen);
  });

  it("tells too when the dentist chosen is verified but his trial or subscription lapsed", async () => {
    const mael = await patient(ctx.app, { first_name: "Maël" });
    who.mael = mael;
    const named = who.drB as Who;
    const id = await createFor("mael", { recipient: named.id });
    expect((await detail(id, mael)).recipient.taking_requests).toBe(true);
    const now = ctx.app.clock();
    await ctx.app.db
      .insertInto("subscriptions")
      .values({
        dentist_id: named.id,
        ...columnsOfState(startTrial(new Date(now.getTime() - 60 * 86_400_000)), now),
      })
      .execute();
    expect((await detail(id, mael)).recipient.taking_requests).toBe(false);
  });
});
