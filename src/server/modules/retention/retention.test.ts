import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETENTION } from "../../../shared/domain/retention";
import { RETENTION_KINDS } from "../../../shared/schemas/admin";
import { writeAudit } from "../../access/audit";
import { SESSION_TIMES } from "../../config";
import { tinyPdf } from "../../testing/files";
import {
  createTestContext,
  postRequest,
  sessionCookie,
  signUpDentist,
  signUpPatient,
  type TestContext,
} from "../../testing/harness";
import { signInAdmin } from "../../testing/people";
import { type RetentionDeps, retentionPreview, runRetention } from "./retention.service";

/**
 * The retention job with a moved clock: it erases exactly what is due (rows and files), runs once
 * a day whatever the number of callers, and warns inactive accounts once.
 */
const DAY = 86_400_000;
const start = new Date();
let now = start;
let ctx: TestContext;
let deps: RetentionDeps;
beforeAll(async () => {
  ctx = await createTestContext({ clock: () => now });
  deps = {
    db: ctx.app.db,
    storage: ctx.app.storage,
    mailer: ctx.app.mailer,
    config: ctx.config,
    log: ctx.app.log,
  };
});
afterAll(async () => ctx?.close());

const at = (days: number) => new Date(start.getTime() + days * DAY);
const count = async (table: "contact_submissions" | "documents") =>
  Number(
    (
      await ctx.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * This account last seen so long ago that its erasure is due in ten days (inside the warning month);
 * everyone else signed in at the (moved) clock's time.
 */
async function dueInTenDays(id: string) {
  const lastSeen = new Date(now);
  lastSeen.setUTCFullYear(lastSeen.getUTCFullYear() - RETENTION.inactiveAccountYears);
  await ctx.app.db
    .updateTable("profiles")
    .set({ last_seen_at: new Date(lastSeen.getTime() + 10 * DAY) })
    .where("id", "=", id)
    .execute();
  await ctx.app.db.updateTable("profiles").set({ last_seen_at: now }).where("id", "<>", id).execute();
}

/** The account counts as seen at the clock's time, its inactivity warning (if any) cleared. */
async function expectSeenNow(id: string) {
  const row = await ctx.app.db
    .selectFrom("profiles")
    .select(["last_seen_at", "inactivity_warned_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  expect(row.inactivity_warned_at).toBeNull();
  expect(new Date(row.last_seen_at).getTime()).toBe(now.getTime());
}

describe("retention job", () => {
  let cancelledKey: string;
  let keptKey: string;
  const contactKey = "contact/retention-test.pdf";

  it("erases a cancelled request's documents after the period, and nothing else", async () => {
    const patient = await signUpPatient(ctx.app);
    const cancelled = (
      await postRequest(ctx.app, patient.cookie, { treatment_type: "crown", consent: "true" })
    ).json().id;
    const kept = (
      await postRequest(ctx.app, patient.cookie, { treatment_type: "implant", consent: "true" })
    ).json().id;
    const cancel = await ctx.app.inject({
      method: "POST",
      url: `/api/patient/requests/${cancelled}/cancel`,
      headers: { cookie: patient.cookie },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const key = async (requestId: string) =>
      (
        await ctx.app.db
          .selectFrom("documents")
          .select("storage_key")
          .where("request_id", "=", requestId)
          .executeTakeFirstOrThrow()
      ).storage_key;
    cancelledKey = await key(cancelled);
    keptKey = await key(kept);
    await ctx.app.storage.write(contactKey, Readable.from(tinyPdf()));
    await ctx.app.db
      .insertInto("contact_submissions")
      .values({
        name: "Léa",
        email: "lea@example.com",
        message: "Bonjour",
        file_key: contactKey,
        created_at: start,
      })
      .execute();

    // Just before the period: nothing is due.
    now = at(RETENTION.cancelledRequestDocumentDays - 1);
    expect(
      (await retentionPreview(ctx.app.db, now)).items.find((i) => i.kind === "cancelled_documents")?.count,
    ).toBe(0);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, documents: 0, contact: 0 });
    expect(ctx.storedKeys()).toContain(cancelledKey);

    // After it: the cancelled request's document goes, row and file; the open request keeps its own.
    now = at(RETENTION.cancelledRequestDocumentDays + 1);
    const preview = await retentionPreview(ctx.app.db, now);
    expect(preview.items.find((i) => i.kind === "cancelled_documents")?.count).toBe(1);
    expect(preview.items.find((i) => i.kind === "contact")?.count).toBe(0);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, documents: 1, contact: 0 });
    expect(ctx.storedKeys()).not.toContain(cancelledKey);
    expect(ctx.storedKeys()).toContain(keptKey);
    expect(ctx.storedKeys()).toContain(contactKey);
    // The request itself stays in the patient's history, without documents.
    const detail = await ctx.app.inject({
      method: "GET",
      url: `/api/patient/requests/${cancelled}`,
      headers: { cookie: patient.cookie },
    });
    expect(detail.json()).toMatchObject({ status: "cancelled", documents: [] });
  });

  it("runs once a day, even when two instances call it at the same time", async () => {
    expect(await runRetention(deps, now)).toMatchObject({ ran: false });
    now = at(RETENTION.contactMessageDays + 1);
    // An audit row of the day the test started: a year later, past the logs' period.
    await writeAudit(ctx.app.db, {
      actorId: null,
      action: "admin.ensured",
      subjectType: "profile",
      subjectId: null,
      at: start,
    });
    const runs = await Promise.all([runRetention(deps, now), runRetention(deps, now)]);
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
    const run = runs.find((r) => r.ran);
    // The contact message (a year after it came, never answered) and its file; the logs of a year ago.
    expect(run).toMatchObject({ contact: 1 });
    expect(await count("contact_submissions")).toBe(0);
    expect(ctx.storedKeys()).not.toContain(contactKey);
    expect(ctx.storedKeys()).toContain(keptKey);
    // The old audit row is gone; the runs' own rows, written at the moved clock, stay.
    const left = await ctx.app.db.selectFrom("audit_log").select(["action", "created_at"]).execute();
    expect(left.every((row) => row.action === "retention.run")).toBe(true);
    expect(left.every((row) => new Date(row.created_at) > new Date(now.getTime() - 366 * DAY))).toBe(true);
  });

  it("warns an inactive account once, a month before it is due; signing in again clears it", async () => {
    const dentist = await signUpDentist(ctx.app);
    const id = dentist.response.json().profile.id as string;
    await dueInTenDays(id);
    const mails = () => ctx.outbox().filter((m) => m.includes("Pour garder votre compte")).length;

    now = new Date(now.getTime() + DAY);
    expect(
      (await retentionPreview(ctx.app.db, now)).items.find((i) => i.kind === "inactivity_warning")?.count,
    ).toBe(1);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, warned: 1 });
    expect(mails()).toBe(1);
    expect(ctx.outbox().at(-1)).toContain("/dentist/login");
    now = new Date(now.getTime() + DAY);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, warned: 0 });
    expect(mails()).toBe(1);

    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: dentist.body.email, password: dentist.body.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    await expectSeenNow(id);
  });

  it("warns a suspended account without asking her to sign in, which she cannot: the contact form instead", async () => {
    const patient = await signUpPatient(ctx.app);
    const id = patient.response.json().profile.id as string;
    const admin = await signInAdmin(ctx.app, "retention-suspends@example.com");
    const suspended = await ctx.app.inject({
      method: "POST",
      url: `/api/admin/users/${id}/suspension`,
      headers: { cookie: admin.cookie },
      payload: { reason: "Fausses demandes." },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    await dueInTenDays(id);

    now = new Date(now.getTime() + DAY);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, warned: 1 });
    const [warning] = (await ctx.mails()).filter(
      (m) => m.includes(`To: ${patient.body.email}`) && m.includes("seront supprimés le"),
    );
    expect(warning).toContain("suspendu par notre équipe");
    expect(warning).toContain(`${ctx.config.publicUrl}/contact`);
    expect(warning).not.toContain("Pour garder votre compte");
    expect(warning).not.toContain("/login");
  });

  it("counts a remembered session that slides as activity: the person using the product is neither warned nor erased", async () => {
    const patient = await signUpPatient(ctx.app);
    const id = patient.response.json().profile.id as string;
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: patient.body.email, password: patient.body.password, remember_me: true },
    });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = sessionCookie(login);
    // Signed in years ago, warned, and still using the product every day since with that session.
    const signedIn = new Date(now);
    signedIn.setUTCFullYear(signedIn.getUTCFullYear() - RETENTION.inactiveAccountYears);
    await ctx.app.db
      .updateTable("profiles")
      .set({ last_seen_at: signedIn, inactivity_warned_at: new Date(now.getTime() - 20 * DAY) })
      .where("id", "=", id)
      .execute();
    // Its session last slid a day ago: Better Auth slides it on the next request.
    const { expiresIn, updateAge } = SESSION_TIMES;
    await ctx.app.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() + (expiresIn - updateAge) * 1000 - 60_000) })
      .where("user_id", "=", id)
      .execute();
    const me = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(me.statusCode).toBe(200);
    await expectSeenNow(id);
    // Ten days after the warning's month, the job erases nobody.
    now = new Date(now.getTime() + 10 * DAY);
    expect(await runRetention(deps, now)).toMatchObject({ ran: true, warned: 0 });
    const after = await ctx.app.db
      .selectFrom("profiles")
      .select("erased_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(after.erased_at).toBeNull();
  });

  it("shows an admin what the next run will erase; nobody else", async () => {
    const { body } = await signUpPatient(ctx.app);
    const admin = (await signInAdmin(ctx.app, "conservation@example.com")).cookie;
    const response = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/retention",
      headers: { cookie: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json();
    // every kind the schema knows, each once, in its order
    expect(preview.items.map((i: { kind: string }) => i.kind)).toEqual([...RETENTION_KINDS]);
    // Ran today at the moved clock: the next run is tomorrow.
    expect(preview.next_run_on).toBe(new Date(now.getTime() + DAY).toISOString().slice(0, 10));
    const patientLogin = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: body.password },
    });
    const refused = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/retention",
      headers: { cookie: sessionCookie(patientLogin) },
    });
    expect(refused.statusCode).toBe(403);
  });
});
