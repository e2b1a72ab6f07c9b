import { sql } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { CHAT_MESSAGES } from "../../../shared/schemas/conversations";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import {
  api,
  dentist,
  givePractice,
  patient,
  postForm,
  signInAdmin,
  verifyBody,
  type Who,
} from "../../testing/people";

/*
 * The team suspends an account and lifts the suspension (ADR 092): who may, what it stops at once
 * (sessions, sign-in, a dentist's verification, a patient's open requests), what it keeps, what the
 * person and the dentists are told, and the audit log.
 */

const ctx = appPerFile();
const { call, get, post } = api(ctx);
const PASSWORD = "Sourire-Sain-2026";
const who: Record<string, Who> = {};

beforeAll(async () => {
  who.admin = await signInAdmin(ctx.app, "root@example.com");
  who.otherAdmin = await signInAdmin(ctx.app, "second@example.com");
});

const suspend = (id: string, reason: unknown, as: Who | undefined = who.admin) =>
  post(`/api/admin/users/${id}/suspension`, { reason }, as);
const reinstate = (id: string, as: Who | undefined = who.admin) =>
  call("DELETE", `/api/admin/users/${id}/suspension`, as);
const logIn = (email: string, password = PASSWORD) =>
  ctx.app.inject({ method: "POST", url: "/api/account/login", payload: { email, password } });

async function openRequest(owner: Who) {
  const response = await postRequest(
    ctx.app,
    owner.cookie,
    { treatment_type: "crown", consent: "true", quote_amount: "1200", document_types: '["quote"]' },
    [devisPdf()],
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** A calendar day `days` from now, as the offer form sends it. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function sendOffer(requestId: string, by: Who) {
  const sent = await post(
    `/api/dentist/requests/${requestId}/offers`,
    { amount_cents: 87_300, comment: "Couronne céramo-métallique.", valid_until: dayFromNow(20), slots: [] },
    by,
  );
  expect(sent.statusCode, sent.body).toBe(201);
}

const auditOf = (id: string) =>
  ctx.app.db
    .selectFrom("audit_log")
    .select(["action", "actor_id", "details"])
    .where("subject_id", "=", id)
    .orderBy("created_at")
    .execute();

const mailsTo = async (email: string) => (await ctx.mails()).filter((m) => m.includes(`To: ${email}`));

describe("account suspension (ADR 092)", () => {
  it("signs a patient out at once, refuses her sign-in after the right password only, cancels her open requests and tells the dentists", async () => {
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const drA = await dentist(ctx.app, { first_name: "Alain" });
    const open = await openRequest(paula);
    const answered = await openRequest(paula);
    await sendOffer(answered, drA);
    expect((await get("/api/patient/requests", paula)).statusCode).toBe(200);
    const beforeMails = (await mailsTo(drA.email)).length;
    // What the suspension tells the open screens, published before its answer (after the commit).
    const publish = vi.spyOn(ctx.app.bus, "publish");

    const done = await suspend(paula.id, "  Demandes frauduleuses répétées.  ");
    expect(done.statusCode, done.body).toBe(200);
    const published = publish.mock.calls.map(([event]) => event);
    publish.mockRestore();
    // Every dentist's lists reload once for both requests; the one whose offer closed, its request.
    expect(published.filter((event) => event.kind === "requests")).toHaveLength(1);
    expect(published).toContainEqual({ kind: "request", requestId: answered, userIds: [drA.id] });
    expect(done.json()).toEqual({ changed: true, renewal: null, message: ADMIN_MESSAGES.suspended });

    // Her session is gone, here at once (the session cache follows the sessions' notifications).
    expect((await get("/api/patient/requests", paula)).statusCode).toBe(401);
    expect((await get("/api/me", paula)).statusCode).toBe(401);
    // A wrong password says nothing of the suspension; the right one says it, and opens nothing.
    const wrong = await logIn(paula.email, "pas-le-bon-mot-de-passe");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain("suspendu");
    const right = await logIn(paula.email);
    expect(right.statusCode).toBe(403);
    expect(right.json().error).toMatchObject({
      code: "ACCOUNT_SUSPENDED",
      message: ACCOUNT_MESSAGES.suspended,
    });
    expect(right.headers["set-cookie"] ?? "").not.toContain("session_token");
    const sessions = await ctx.app.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", paula.id)
      .execute();
    expect(sessions).toEqual([]);

    // Both open requests cancelled, the waiting offer closed, its dentist told; nothing deleted.
    const requests = await ctx.app.db
      .selectFrom("requests")
      .select(["id", "status"])
      .where("patient_id", "=", paula.id)
      .orderBy("id")
      .execute();
    expect(requests.map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(requests.map((r) => r.id).sort()).toEqual([open, answered].sort());
    const offer = await ctx.app.db
      .selectFrom("offers")
      .select("status")
      .where("request_id", "=", answered)
      .executeTakeFirstOrThrow();
    expect(offer.status).toBe("closed");
    expect((await mailsTo(drA.email)).length).toBe(beforeMails + 1);
    // The dentist's list no longer offers them.
    const list = await get("/api/dentist/requests?status=pending", drA);
    expect(list.json().items.map((i: { id: string }) => i.id)).not.toContain(open);

    // She is told, with the reason as the team wrote it (trimmed) and where to write.
    const [told] = (await mailsTo(paula.email)).filter((m) => m.includes("suspendu"));
    expect(told).toContain("Demandes frauduleuses répétées.");
    expect(told).toContain("Vos 2 demandes en cours ont été annulées");
    expect(told).toContain("/contact");

    // The admin's list shows it; the audit log has it in his name, with the requests cancelled.
    const users = await get(
      `/api/admin/users?role=patient&search=${encodeURIComponent(paula.email)}`,
      who.admin,
    );
    expect(users.json().items[0]).toMatchObject({
      id: paula.id,
      suspension_reason: "Demandes frauduleuses répétées.",
      suspended_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const audit = await auditOf(paula.id);
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: "account.suspended",
        actor_id: who.admin?.id,
        details: expect.objectContaining({ reason: "Demandes frauduleuses répétées." }),
      }),
    );

    // Her conversation with the dentist stays on his side, closed to writing: she would not read it.
    const conversationWith = async () =>
      (await get("/api/conversations", drA))
        .json()
        .items.find((c: { other: { id: string } }) => c.other.id === paula.id);
    expect(await conversationWith()).toMatchObject({ other_status: "suspended" });
    const unheard = await postForm(
      ctx.app,
      `/api/conversations/${(await conversationWith()).id}/messages`,
      drA,
      { body: "Vous êtes là\u202f?" },
    );
    expect(unheard.statusCode, unheard.body).toBe(409);
    expect(unheard.json().error.message).toBe(CHAT_MESSAGES.otherSuspended);

    // Suspending again changes nothing, writes nothing.
    const again = await suspend(paula.id, "Encore");
    expect(again.json()).toMatchObject({ changed: false });
    expect((await auditOf(paula.id)).filter((a) => a.action === "account.suspended")).toHaveLength(1);

    // Lifted: she signs in again and is told; her requests stay cancelled.
    const lifted = await reinstate(paula.id);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toEqual({ changed: true, renewal: null, message: ADMIN_MESSAGES.reinstated });
    const back = await logIn(paula.email);
    expect(back.statusCode, back.body).toBe(200);
    expect(await conversationWith()).toMatchObject({ other_status: "active" });
    expect((await mailsTo(paula.email)).some((m) => m.includes("de nouveau vous connecter"))).toBe(true);
    const after = await ctx.app.db
      .selectFrom("requests")
      .select("status")
      .where("patient_id", "=", paula.id)
      .execute();
    expect(after.map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect((await reinstate(paula.id)).json()).toMatchObject({ changed: false });
    expect((await auditOf(paula.id)).map((a) => a.action)).toContain("account.reinstated");
  });

  it("takes a verified dentist out of the requests and the patients' sight; lifting it does not verify him again", async () => {
    const drB = await dentist(ctx.app, { first_name: "Bruno" });
    const rita = await patient(ctx.app, { first_name: "Rita" });
    const request = await openRequest(rita);
    expect((await get(`/api/dentist/requests/${request}`, drB)).statusCode).toBe(200);

    expect((await suspend(drB.id, "RPPS usurpé.")).statusCode).toBe(200);
    expect((await get("/api/dentist/requests", drB)).statusCode).toBe(401);
    expect((await logIn(drB.email)).statusCode).toBe(403);
    const profile = await ctx.app.db
      .selectFrom("profiles")
      .select(["is_verified", "verification_requested_at"])
      .where("id", "=", drB.id)
      .executeTakeFirstOrThrow();
    expect(profile).toEqual({ is_verified: false, verification_requested_at: null });
    // Her request stays open (only a patient's own requests go with her suspension).
    const kept = await ctx.app.db
      .selectFrom("requests")
      .select("status")
      .where("id", "=", request)
      .executeTakeFirstOrThrow();
    expect(kept.status).toBe("new");
    // The reviews' rule reads the withdrawal from the audit log, as for « Retirer la vérification ».
    expect((await auditOf(drB.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(["account.suspended", "verification.revoked"]),
    );
    const [told] = (await mailsTo(drB.email)).filter((m) => m.includes("suspendu"));
    expect(told).toContain("RPPS usurpé.");
    expect(told).toContain("La vérification de votre cabinet est retirée");
    // Not verified again while suspended (the badge, and a trial, would wait behind the suspension),
    // his file complete as the team would verify it.
    await givePractice(ctx.app, drB.id);
    const verify = async () =>
      post(`/api/admin/dentists/${drB.id}/verification`, await verifyBody(ctx.app, drB.id), who.admin);
    const refused = await verify();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toBe(ADMIN_MESSAGES.verifySuspended);

    expect((await reinstate(drB.id)).statusCode).toBe(200);
    const back = await logIn(drB.email);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().profile.is_verified).toBe(false);
    // Lifted, the team may verify him again.
    const again = await verify();
    expect(again.json(), again.body).toMatchObject({ changed: true, is_verified: true });
  });

  it("is for administrators only, never of an administrator, with a French error for each wrong input", async () => {
    const paula = await patient(ctx.app);
    const drC = await dentist(ctx.app);
    // The people themselves and the anonymous: refused before anything changes.
    expect((await suspend(paula.id, "Moi-même", paula)).statusCode).toBe(403);
    expect((await suspend(paula.id, "Un confrère", drC)).statusCode).toBe(403);
    expect((await post(`/api/admin/users/${paula.id}/suspension`, { reason: "Personne" })).statusCode).toBe(
      401,
    );
    expect((await reinstate(paula.id, drC)).statusCode).toBe(403);
    // An administrator, himself or another: 409.
    for (const target of [who.admin, who.otherAdmin]) {
      const refused = await suspend(target?.id ?? "", "Test");
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(ADMIN_MESSAGES.notSuspendable);
    }
    // No reason, a blank one, a too long one: 400 naming the field.
    for (const reason of [undefined, "   ", "x".repeat(1001)]) {
      const bad = await suspend(paula.id, reason);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().error.fields ?? {})).toContain("reason");
    }
    // Nobody's id, a malformed one.
    const unknown = await suspend("00000000-0000-4000-8000-000000000000", "Test");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(ADMIN_MESSAGES.userNotFound);
    expect((await suspend("pas-un-id", "Test")).statusCode).toBe(404);
    // Nothing of that suspended anyone.
    expect((await get("/api/me", paula)).statusCode).toBe(200);
    expect((await get("/api/me", who.otherAdmin)).statusCode).toBe(200);
  });

  it("lists the suspended accounts alone when asked, from their own index (migration 057)", async () => {
    const [kept, held] = [await patient(ctx.app), await patient(ctx.app)];
    expect((await suspend(held.id, "Compte créé pour tester des cartes volées.")).statusCode).toBe(200);
    const ids = async (query: string) => {
      const page = await get(`/api/admin/users?role=patient&${query}`, who.admin);
      expect(page.statusCode, page.body).toBe(200);
      return (page.json().items as { id: string; suspended_at: string | null }[]).map((u) => ({
        id: u.id,
        suspended: u.suspended_at !== null,
      }));
    };
    const suspended = await ids("suspended=1&page_size=50");
    expect(suspended).toContainEqual({ id: held.id, suspended: true });
    expect(suspended.every((u) => u.suspended)).toBe(true);
    expect(suspended.map((u) => u.id)).not.toContain(kept.id);
    expect((await ids("suspended=0&page_size=50")).map((u) => u.id)).toEqual(
      expect.arrayContaining([kept.id, held.id]),
    );
    const bad = await get("/api/admin/users?role=patient&suspended=oui", who.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty("suspended");

    // The planner can read them from the partial index, in list order (scans turned off: the tables
    // of a test are too small for it to prefer an index otherwise).
    const plan = await ctx.app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ "QUERY PLAN": string }>`
        explain select id from profiles where role = 'patient' and suspended_at is not null
        order by created_at desc, id desc limit 11`.execute(trx);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("profiles_suspended_idx");
  });

  it("a session that survives anyway (written back by hand) opens nothing while the account is suspended", async () => {
    const quentin = await patient(ctx.app);
    const kept = await ctx.app.db
      .selectFrom("sessions")
      .selectAll()
      .where("user_id", "=", quentin.id)
      .execute();
    expect(kept.length).toBeGreaterThan(0);
    expect((await suspend(quentin.id, "Propos injurieux envers un dentiste.")).statusCode).toBe(200);
    await ctx.app.db.insertInto("sessions").values(kept).execute();
    expect((await get("/api/me", quentin)).statusCode).toBe(401);
    expect((await reinstate(quentin.id)).statusCode).toBe(200);
    // Lifted, the old session works again (nothing else kept it from working).
    expect((await get("/api/me", quentin)).statusCode).toBe(200);
  });
});
