import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSENT_VERSION } from "../../../shared/domain/consent";
import { DATA_EXPORT_PER_HOUR, DATA_EXPORT_URL, TERMS_VERSION } from "../../../shared/schemas/account";
import { archiveOf } from "../../testing/archive";
import { multipart, tinyPdf, tinyPng } from "../../testing/files";
import { postRequest, signUpPatient } from "../../testing/harness";
import { api } from "../../testing/people";
import { type ActorName, createWorld, type World } from "../../testing/world";
import { DATA_FILE, EXPORT_ACTION, type ExportData, README_FILE } from "./export.service";

/**
 * "Télécharger mes données" (issue 14, RGPD art. 15 and 20). The world (testing/world.ts) has two
 * patients, two verified dentists and an unverified one, conversations shared between them, and
 * files sent by each; on top of it every upload here has content of its own (a marker in the PDF
 * or a colour in the PNG), so an archive can be checked byte for byte: all of mine, none of others'.
 */

let world: World;
/** Files uploaded here, with their marker, by who sent them. */
const uploads = {
  aDocument: tinyPdf("MARQUEUR-A-DOCUMENT devis Alice"),
  aPhoto: tinyPng(3, 3, [200, 10, 10]),
  aAttachment: tinyPdf("MARQUEUR-A-PIECE-JOINTE Alice"),
  aSupport: tinyPng(4, 4, [10, 200, 10]),
  bDocument: tinyPdf("MARQUEUR-B-DOCUMENT devis Bruno"),
  bAttachment: tinyPdf("MARQUEUR-B-PIECE-JOINTE Bruno"),
  chosenAttachment: tinyPdf("MARQUEUR-DENTISTE-PIECE-JOINTE Leroy"),
};
const MARKERS = {
  aDocument: "MARQUEUR-A-DOCUMENT",
  aAttachment: "MARQUEUR-A-PIECE-JOINTE",
  bDocument: "MARQUEUR-B-DOCUMENT",
  bAttachment: "MARQUEUR-B-PIECE-JOINTE",
  chosenAttachment: "MARQUEUR-DENTISTE-PIECE-JOINTE",
};
let aRequest = "";
let bRequest = "";
let aDocumentIds: string[] = [];
let bDocumentIds: string[] = [];

async function sendMessage(actor: ActorName, conversationId: string, body: string, file?: Buffer) {
  const form = multipart(
    { body },
    file ? [{ field: "files", name: "piece-jointe.pdf", type: "application/pdf", content: file }] : [],
  );
  const response = await world.call(actor, {
    method: "POST",
    url: `/api/conversations/${conversationId}/messages`,
    payload: form.payload,
    headers: form.headers,
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function documentIdsOf(requestId: string): Promise<string[]> {
  const rows = await world.ctx.app.db
    .selectFrom("documents")
    .select("id")
    .where("request_id", "=", requestId)
    .execute();
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  world = await createWorld();
  const { app } = world.ctx;
  const a = await postRequest(
    app,
    world.people.patientA.cookie,
    { treatment_type: "implant", consent: "true", description: "Implant sur la 46, devis joint." },
    [
      { name: "devis-alice.pdf", type: "application/pdf", content: uploads.aDocument },
      { name: "photo-alice.png", type: "image/png", content: uploads.aPhoto },
    ],
  );
  expect(a.statusCode, a.body).toBe(201);
  aRequest = a.json().id;
  const b = await postRequest(
    app,
    world.people.patientB.cookie,
    { treatment_type: "implant", consent: "true", description: "Demande de Bruno." },
    [{ name: "devis-bruno.pdf", type: "application/pdf", content: uploads.bDocument }],
  );
  expect(b.statusCode, b.body).toBe(201);
  bRequest = b.json().id;
  aDocumentIds = await documentIdsOf(aRequest);
  bDocumentIds = await documentIdsOf(bRequest);

  // The shared conversation of A and the chosen dentist: a file each way.
  await sendMessage(
    "patientA",
    world.conversations.chosenOpenA,
    "Alice envoie sa pièce jointe.",
    uploads.aAttachment,
  );
  await sendMessage(
    "chosen",
    world.conversations.chosenOpenA,
    "Le Dr Leroy envoie la sienne.",
    uploads.chosenAttachment,
  );
  await sendMessage(
    "patientB",
    world.conversations.chosenOpenB,
    "Bruno écrit au Dr Leroy.",
    uploads.bAttachment,
  );

  const support = multipart({ body: "Capture d'Alice." }, [
    { field: "image", name: "capture-alice.png", type: "image/png", content: uploads.aSupport },
  ]);
  const supportSent = await world.call("patientA", {
    method: "POST",
    url: "/api/support/messages",
    payload: support.payload,
    headers: support.headers,
  });
  expect(supportSent.statusCode, supportSent.body).toBe(201);
}, 240_000);
afterAll(async () => world?.ctx.close());

interface Archive {
  response: LightMyRequestResponse;
  raw: Buffer;
  entries: Map<string, Buffer>;
  data: ExportData;
  json: string;
}

async function exportOf(actor: ActorName): Promise<Archive> {
  return archiveOf(await world.call(actor, { method: "GET", url: DATA_EXPORT_URL }));
}

/** The archive's files (not the JSON, not the README). */
const filesOf = (archive: Archive) =>
  [...archive.entries].filter(([name]) => name !== DATA_FILE && name !== README_FILE);
/** The value, or a failed test saying what was missing. */
function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`absent : ${what}`);
  return value;
}
const holds = (archive: Archive, content: Buffer) =>
  filesOf(archive).some(([, bytes]) => bytes.equals(content));

describe("GET /api/account/export", () => {
  it("refuses a signed-out caller with 401 in the one error shape", async () => {
    const response = await world.call("anonymous", { method: "GET", url: DATA_EXPORT_URL });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error: { code: expect.any(String), message: expect.any(String) },
    });
  });

  it("gives patient A all of A's data and files, and none of patient B's or the dentists' files", async () => {
    const archive = await exportOf("patientA");
    const { data, json, raw, response } = archive;
    const a = world.people.patientA;
    const b = world.people.patientB;

    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toContain(
      'attachment; filename="sourio-mes-donnees-2026-11-21.zip"',
    );
    expect(response.headers["cache-control"]).toBe("private, no-store");
    const readme = archive.entries.get(README_FILE)?.toString("utf8") ?? "";
    expect(readme).toContain("Cette archive contient les données personnelles");
    expect(readme).toContain(DATA_FILE);
    expect(readme).toContain("fichiers/documents/");

    // Profile.
    expect(data.profile).toMatchObject({ id: a.id, email: a.email, phone_number: a.phone, role: "patient" });
    // The consent given at sign-up: its version and date (migration 023).
    expect(data.profile).toMatchObject({ terms_version: TERMS_VERSION });
    expect(Number.isNaN(Date.parse(String(data.profile?.terms_accepted_at)))).toBe(false);

    // Requests: all of A's (the world's four and this file's), with their documents; none of B's.
    const requestIds = data.requests.map((r) => r.id);
    expect(requestIds).toEqual(
      expect.arrayContaining([
        world.requests.openA,
        world.requests.finishedA,
        world.requests.cancelledA,
        world.requests.namedA,
        aRequest,
      ]),
    );
    expect(requestIds).toHaveLength(5);
    for (const id of [world.requests.openB, bRequest, ...bDocumentIds]) expect(json).not.toContain(id);
    expect(json).not.toContain(b.email);
    expect(json).not.toContain(String(b.phone));
    expect(json).not.toContain("Demande de Bruno.");
    expect(json).not.toContain("Bruno écrit au Dr Leroy.");

    // Documents: each of A's documents is in the archive with the bytes A sent, at the path the JSON gives.
    const mine = must(
      data.requests.find((r) => r.id === aRequest),
      "la demande de ce test",
    );
    expect(mine.documents.map((d) => d.id).sort()).toEqual([...aDocumentIds].sort());
    for (const document of mine.documents) {
      expect(document.file).toMatch(/^fichiers\/documents\//);
      expect(archive.entries.has(must(document.file, document.file_name))).toBe(true);
    }
    expect(holds(archive, uploads.aDocument)).toBe(true);
    expect(holds(archive, uploads.aPhoto)).toBe(true);
    const allDocuments = data.requests.flatMap((r) => r.documents);
    expect(allDocuments).toHaveLength(4 * 2 + 2);
    for (const document of allDocuments)
      expect(archive.entries.has(must(document.file, document.file_name))).toBe(true);

    // Offers received, with lines and slots.
    const offerIds = data.offers_received.map((o) => o.id);
    expect(offerIds).toEqual(
      expect.arrayContaining([
        world.offers.chosenOnOpenA,
        world.offers.otherOnOpenA,
        world.offers.acceptedOnFinishedA,
        world.offers.closedOnFinishedA,
      ]),
    );
    expect(offerIds).not.toContain(world.offers.chosenOnOpenB);
    const offer = must(
      data.offers_received.find((o) => o.id === world.offers.chosenOnOpenA),
      "l'offre du dentiste choisi",
    );
    expect(offer).toMatchObject({ dentist_name: "Claire Leroy", amount_cents: 90_000 });
    expect(offer.proposed_slots).toHaveLength(2);
    expect(data.offers_sent).toEqual([]);

    // Conversations: both sides' messages, the other party's name; the dentist's files are not here.
    const conversation = must(
      data.conversations.find((c) => c.id === world.conversations.chosenOpenA),
      "la conversation avec le dentiste choisi",
    );
    expect(conversation.other_party).toMatchObject({ role: "dentist", name: "Claire Leroy" });
    const bodies = conversation.messages.map((m) => m.body);
    expect(bodies).toEqual(
      expect.arrayContaining(["Alice envoie sa pièce jointe.", "Le Dr Leroy envoie la sienne."]),
    );
    const fromDentist = conversation.messages.find((m) => m.body === "Le Dr Leroy envoie la sienne.");
    expect(fromDentist).toMatchObject({
      from: "other_party",
      attachments: [],
      other_party_attachments_not_included: 1,
    });
    const fromMe = must(
      conversation.messages.find((m) => m.body === "Alice envoie sa pièce jointe."),
      "le message d'Alice",
    );
    expect(fromMe.from).toBe("me");
    const attachment = must(fromMe.attachments[0]?.file, "la pièce jointe d'Alice");
    expect(archive.entries.get(attachment)?.equals(uploads.aAttachment)).toBe(true);
    expect(data.conversations.map((c) => c.id)).not.toContain(world.conversations.chosenOpenB);

    // Appointments, support, access history, consents.
    expect(data.appointments.map((x) => x.id)).toContain(world.appointmentA);
    expect(data.appointments[0]).toMatchObject({ my_side: "patient", other_party: { name: "Claire Leroy" } });
    const supportImage = data.support_messages.find((m) => m.image);
    expect(supportImage).toBeTruthy();
    expect(holds(archive, uploads.aSupport)).toBe(true);
    expect(data.consents.filter((c) => c.kind === "document_sharing")).toHaveLength(data.requests.length);
    // Each consent as the form worded it, with its version.
    for (const consent of data.consents.filter((c) => c.kind === "document_sharing"))
      expect(consent).toMatchObject({
        version: CONSENT_VERSION,
        text: expect.stringMatching(/^J'accepte que mes documents/),
      });
    const avatar = must(data.profile?.avatar_file, "la photo de profil");
    expect(avatar).toMatch(/^fichiers\/photo-de-profil\//);
    expect(archive.entries.has(avatar)).toBe(true);

    // Sessions: A's, without any token.
    expect(data.sessions.length).toBeGreaterThan(0);
    const tokens = await world.ctx.app.db.selectFrom("sessions").select("token").execute();
    for (const { token } of tokens) expect(json).not.toContain(token);
    for (const session of data.sessions) expect(Object.keys(session)).not.toContain("token");

    // No byte of anyone else's files: not B's, not the dentist's.
    for (const marker of [MARKERS.bDocument, MARKERS.bAttachment, MARKERS.chosenAttachment])
      expect(raw.includes(Buffer.from(marker)), marker).toBe(false);
    for (const content of [uploads.bDocument, uploads.bAttachment, uploads.chosenAttachment])
      expect(holds(archive, content)).toBe(false);
    expect(data.files.sort()).toEqual(
      filesOf(archive)
        .map(([name]) => name)
        .sort(),
    );
  });

  it("shows patient A who read A's documents, once a dentist has opened one", async () => {
    const [documentId] = aDocumentIds;
    const read = await world.call("chosen", { method: "GET", url: `/api/documents/${documentId}/file` });
    expect(read.statusCode).toBe(200);
    const { data } = await exportOf("patientA");
    const reads = data.access_history.reads_of_my_data.filter((x) => x.document_id === documentId);
    expect(reads).toEqual([
      expect.objectContaining({ read_by: "Claire Leroy", action: "download", reader_kind: "dentist" }),
    ]);
    // The dentist's own archive lists the read, without the document's name.
    const dentist = await exportOf("chosen");
    const mine = dentist.data.access_history.my_reads_of_patient_data.filter(
      (x) => x.document_id === documentId,
    );
    expect(mine).toEqual([expect.objectContaining({ action: "download", request_id: aRequest })]);
    expect(dentist.json).not.toContain("devis-alice");
  });

  it("gives patient B only B's data", async () => {
    const { data, json, raw } = await exportOf("patientB");
    expect(data.profile?.id).toBe(world.people.patientB.id);
    expect(data.requests.map((r) => r.id).sort()).toEqual([world.requests.openB, bRequest].sort());
    for (const id of [world.requests.openA, aRequest, ...aDocumentIds]) expect(json).not.toContain(id);
    expect(json).not.toContain(world.people.patientA.email);
    for (const marker of [MARKERS.aDocument, MARKERS.aAttachment, MARKERS.chosenAttachment])
      expect(raw.includes(Buffer.from(marker)), marker).toBe(false);
    expect(raw.includes(Buffer.from(MARKERS.bDocument))).toBe(true);
    expect(raw.includes(Buffer.from(MARKERS.bAttachment))).toBe(true);
  });

  it("gives the chosen dentist the offers sent and the dentist's own files, no patient's document", async () => {
    const archive = await exportOf("chosen");
    const { data, json, raw } = archive;
    const chosen = world.people.chosen;
    expect(data.profile).toMatchObject({ id: chosen.id, role: "dentist", is_verified: true });
    expect(data.requests).toEqual([]);
    expect(data.offers_received).toEqual([]);

    const sent = data.offers_sent.map((o) => o.id);
    expect(sent).toEqual(
      expect.arrayContaining([
        world.offers.chosenOnOpenA,
        world.offers.acceptedOnFinishedA,
        world.offers.chosenOnOpenB,
      ]),
    );
    expect(sent).not.toContain(world.offers.otherOnOpenA);
    expect(sent).not.toContain(world.offers.closedOnFinishedA);
    expect(data.offers_sent.find((o) => o.id === world.offers.chosenOnOpenA)).toMatchObject({
      patient_name: "Alice Durand",
    });
    expect(data.requests_followed.map((f) => f.request_id)).toContain(world.requests.openA);
    // Answered, so never set aside (ADR 091): the field says so.
    expect(data.requests_followed.find((f) => f.request_id === world.requests.openA)).toMatchObject({
      status: "responded",
      set_aside_at: null,
    });

    // Conversations with A and with B: the patients' names and messages, not their files.
    const ids = data.conversations.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([world.conversations.chosenOpenA, world.conversations.chosenOpenB]),
    );
    expect(ids).not.toContain(world.conversations.otherOpenA);
    expect(json).toContain("Bruno écrit au Dr Leroy.");
    expect(holds(archive, uploads.chosenAttachment)).toBe(true);
    for (const marker of [MARKERS.aDocument, MARKERS.aAttachment, MARKERS.bDocument, MARKERS.bAttachment])
      expect(raw.includes(Buffer.from(marker)), marker).toBe(false);
    expect(filesOf(archive).some(([name]) => name.startsWith("fichiers/documents/"))).toBe(false);
    // No patient's contact details.
    for (const patient of [world.people.patientA, world.people.patientB]) {
      expect(json).not.toContain(patient.email);
      expect(json).not.toContain(String(patient.phone));
    }
    expect(data.appointments.map((x) => x.id)).toContain(world.appointmentA);
    expect(data.consents.map((c) => c.kind)).toEqual(["terms_of_use"]);
    expect(data.profile?.avatar_file).toBeTruthy();
  });

  it("gives the other dentist nothing of the chosen dentist's exchanges", async () => {
    const { data, raw, json } = await exportOf("notChosen");
    const ids = data.conversations.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([world.conversations.otherOpenA]));
    expect(ids).not.toContain(world.conversations.chosenOpenA);
    expect(json).not.toContain("Le Dr Leroy envoie la sienne.");
    expect(data.offers_sent.map((o) => o.id)).not.toContain(world.offers.chosenOnOpenA);
    expect(raw.includes(Buffer.from(MARKERS.chosenAttachment))).toBe(false);
  });

  it("gives a dentist whose verification was withdrawn no conversation nor appointment (D6), until verified again", async () => {
    const id = world.people.notChosen.id;
    const verified = (is_verified: boolean) =>
      world.ctx.app.db.updateTable("profiles").set({ is_verified }).where("id", "=", id).execute();
    await verified(false);
    try {
      const { data, json, entries } = await exportOf("notChosen");
      expect(data.profile).toMatchObject({ id, is_verified: false });
      // Its README says so.
      expect(String(entries.get(README_FILE))).toContain("votre compte n'étant pas vérifié");
      expect(data.conversations).toEqual([]);
      expect(data.appointments).toEqual([]);
      // His own offers stay, without the patient's name.
      expect(data.offers_sent.length).toBeGreaterThan(0);
      expect(json).not.toContain("Alice Durand");
    } finally {
      await verified(true);
    }
    expect((await exportOf("notChosen")).data.conversations.map((c) => c.id)).toContain(
      world.conversations.otherOpenA,
    );
  });

  it("gives an administrator its own profile and sessions only", async () => {
    const { data } = await exportOf("admin");
    expect(data.profile).toMatchObject({ id: world.people.admin.id, is_admin: true });
    expect(data.requests).toEqual([]);
    expect(data.conversations).toEqual([]);
    expect(data.sessions.length).toBeGreaterThan(0);
  });

  it("records each export in the audit trail, without content, and lists it in the next one", async () => {
    const before = await exportOf("patientB");
    const rows = await world.ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_id", "details"])
      .where("action", "=", EXPORT_ACTION)
      .where("actor_id", "=", world.people.patientB.id)
      .execute();
    // B's uploads are all done: every export of B counted the same files, and nothing else.
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(row).toEqual({
        actor_id: world.people.patientB.id,
        subject_id: world.people.patientB.id,
        details: { files: before.data.files.length },
      });
    const after = await exportOf("patientB");
    expect(after.data.account_events.map((e) => e.action)).toContain(EXPORT_ACTION);
  });

  it(`allows ${DATA_EXPORT_PER_HOUR} exports an hour per person, then 429 in French`, async () => {
    const { app } = world.ctx;
    const one = await signUpPatient(app);
    const other = await signUpPatient(app);
    // From a different address each time: the limit is per person, not per address.
    const call = (cookie: string, n: number) =>
      app.inject({ method: "GET", url: DATA_EXPORT_URL, headers: { cookie }, remoteAddress: `10.99.0.${n}` });
    for (let n = 1; n <= DATA_EXPORT_PER_HOUR; n++) expect((await call(one.cookie, n)).statusCode).toBe(200);
    const refused = await call(one.cookie, 50);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: { code: "RATE_LIMITED", message: expect.stringContaining("Veuillez réessayer plus tard") },
    });
    expect((await call(other.cookie, 51)).statusCode).toBe(200);
  });

  it("still gives a whole archive when a file is missing from storage (its path is null)", async () => {
    const { app } = world.ctx;
    const patient = await signUpPatient(app);
    const sent = await postRequest(app, patient.cookie, { treatment_type: "crown", consent: "true" }, [
      { name: "garde.pdf", type: "application/pdf", content: tinyPdf("Gardé") },
      { name: "perdu.pdf", type: "application/pdf", content: tinyPdf("Perdu") },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const lost = await app.db
      .selectFrom("documents")
      .select(["id", "storage_key"])
      .where("request_id", "=", sent.json().id)
      .where("file_name", "=", "perdu.pdf")
      .executeTakeFirstOrThrow();
    await app.storage.remove(lost.storage_key);
    const { entries, data } = await archiveOf(await api({ app }).get(DATA_EXPORT_URL, patient));
    const documents = data.requests.flatMap((r) => r.documents);
    expect(documents.find((d) => d.id === lost.id)?.file).toBeNull();
    expect(documents.filter((d) => d.file !== null)).toHaveLength(1);
    expect([...entries.keys()].filter((name) => name.startsWith("fichiers/"))).toHaveLength(1);
  });

  it("gives a patient the lines of their devis and their mutuelle (issue 15)", async () => {
    const { app } = world.ctx;
    const patient = await signUpPatient(app);
    const line = { code: "HBLD634", act: "Couronne céramo-métallique", tooth: 21, fee_cents: 54_000 };
    const sent = await postRequest(
      app,
      patient.cookie,
      { treatment_type: "crown", consent: "true", quote_lines: JSON.stringify([line]) },
      [{ name: "devis.pdf", type: "application/pdf", content: tinyPdf("Devis") }],
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const cover = {
      percent_of_br: 250,
      ro_included: false,
      annual_ceiling_cents: null,
      implant_allowance_cents: null,
      responsible: true,
    };
    await app.inject({
      method: "PUT",
      url: "/api/patient/cover",
      payload: cover,
      headers: { cookie: patient.cookie },
    });
    const { data } = await archiveOf(await api({ app }).get(DATA_EXPORT_URL, patient));
    expect(data.requests[0]?.quote_lines).toEqual([
      { ...line, basket: "100_sante", br_cents: 12_000, ceiling_cents: 51_500 },
    ]);
    expect(data.mutuelle).toMatchObject(cover);
    const other = await exportOf("patientB");
    expect(other.data.mutuelle).toBeNull();
  });

  it("puts every one of 100 documents in the archive, byte for byte", async () => {
    const { app } = world.ctx;
    const patient = await signUpPatient(app);
    const sent = new Map<string, Buffer>();
    for (let r = 0; r < 10; r++) {
      const files = Array.from({ length: 10 }, (_, i) => {
        const content = tinyPdf(`Document ${r * 10 + i} de cent`);
        return { name: `document-${r * 10 + i}.pdf`, type: "application/pdf", content };
      });
      const response = await postRequest(
        app,
        patient.cookie,
        { treatment_type: "crown", consent: "true" },
        files,
      );
      expect(response.statusCode, response.body).toBe(201);
      for (const file of files) sent.set(file.name, file.content);
    }
    const started = performance.now();
    const response = await api({ app }).get(DATA_EXPORT_URL, patient);
    const elapsed = performance.now() - started;
    const { entries } = await archiveOf(response);
    const documents = [...entries].filter(([name]) => name.startsWith("fichiers/documents/"));
    expect(documents).toHaveLength(100);
    for (const [name, bytes] of documents) {
      const original = sent.get(name.split("/").pop() ?? "");
      expect(original && bytes.equals(original), name).toBe(true);
    }
    console.info(`export de 100 documents : ${Math.round(elapsed)} ms`);
  });
});
