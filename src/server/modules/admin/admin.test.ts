import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { rppsWithKey } from "../../../shared/policies/verification";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { tinyPng } from "../../sample-files";
import { fakeExe, multipart, tinyPdf } from "../../testing/files";
import { appPerFile, postRequest, signUpPatient } from "../../testing/harness";
import { api, dentist, patient, postForm, signInAdmin, verifyBody, type Who } from "../../testing/people";
import { listenLocally, openSocket } from "../../testing/sockets";
import { sendSupportUnreadEmails } from "../support/support.service";

const ctx = appPerFile();
const { call, get, post } = api(ctx);
const who: Record<string, Who> = {};

/** His profile saved with this RPPS number and practice address (in Lyon 1er), as his form sends it. */
async function savePractice(me: Who, name: string, rpps: string, practice_address: string) {
  const patched = await ctx.app.inject({
    method: "PATCH",
    url: "/api/me",
    payload: {
      full_name: `${name} Martin`,
      city: "Lyon",
      rpps,
      practice_address,
      practice_postcode: "69001",
    },
    headers: { cookie: me.cookie },
  });
  expect(patched.statusCode, patched.body).toBe(200);
}

async function pendingDentist(name: string, rpps = rppsWithKey("1000987654")): Promise<Who> {
  const me = await dentist(ctx.app, { first_name: name }, false);
  await savePractice(me, name, rpps, "1 rue de Lyon");
  expect((await post("/api/me/verification-request", {}, me)).statusCode).toBe(200);
  return me;
}

beforeAll(async () => {
  who.admin = await signInAdmin(ctx.app, "root@example.com");
  who.patient = await patient(ctx.app, { first_name: "Paula", last_name: "Durand" });
  who.other = await patient(ctx.app, { first_name: "Quentin", last_name: "Petit" });
  who.dentist = await pendingDentist("Bernard");
});

const ADMIN_ROUTES: Array<[string, string, object?]> = [
  ["GET", "/api/admin/stats"],
  ["GET", "/api/admin/users?role=dentist"],
  ["GET", "/api/admin/verification-requests"],
  ["POST", "/api/admin/dentists/00000000-0000-4000-8000-000000000000/verification", { decision: "verify" }],
  ["POST", "/api/admin/users/00000000-0000-4000-8000-000000000000/suspension", { reason: "x" }],
  ["DELETE", "/api/admin/users/00000000-0000-4000-8000-000000000000/suspension"],
  ["GET", "/api/admin/contact"],
  ["POST", "/api/admin/contact/00000000-0000-4000-8000-000000000000/handled", {}],
  ["DELETE", "/api/admin/contact/00000000-0000-4000-8000-000000000000/handled"],
  ["GET", "/api/admin/contact/00000000-0000-4000-8000-000000000000/file"],
  ["GET", "/api/admin/audit"],
  ["GET", "/api/admin/support/threads"],
  ["GET", "/api/admin/support/threads/00000000-0000-4000-8000-000000000000/messages"],
  ["POST", "/api/admin/support/threads/00000000-0000-4000-8000-000000000000/read", {}],
  ["POST", "/api/admin/support/threads/00000000-0000-4000-8000-000000000000/messages", { body: "x" }],
];

describe("admin routes refuse everyone but admins (is_admin, ADR 003)", () => {
  it.each(ADMIN_ROUTES)("%s %s", async (method, url, payload) => {
    const call = (as?: Who) =>
      ctx.app.inject({
        method: method as "GET" | "POST",
        url,
        payload,
        headers: as ? { cookie: as.cookie } : {},
      });
    expect((await call()).statusCode).toBe(401);
    expect((await call(who.patient)).statusCode).toBe(403);
    expect((await call(who.dentist)).statusCode).toBe(403);
  });

  it("ignores forged bodies: a patient cannot verify a dentist or grant themselves anything", async () => {
    const forged = await post(
      `/api/admin/dentists/${who.dentist?.id}/verification`,
      { decision: "verify", is_admin: true },
      who.patient,
    );
    expect(forged.statusCode).toBe(403);
    const dentist = await ctx.app.db
      .selectFrom("profiles")
      .select("is_verified")
      .where("id", "=", who.dentist?.id as string)
      .executeTakeFirstOrThrow();
    expect(dentist.is_verified).toBe(false);
  });
});

describe("verification", () => {
  it("lists the queue, verifies in one step with one audit row and an e-mail, twice consistently", async () => {
    const queue = (await get("/api/admin/verification-requests", who.admin)).json();
    expect(queue.items.map((i: { id: string }) => i.id)).toContain(who.dentist?.id);
    expect(queue.items.find((i: { id: string }) => i.id === who.dentist?.id)).toMatchObject({
      rpps: rppsWithKey("1000987654"),
      practice_postcode: "69001",
      city: "Lyon",
    });

    // Not verified: no patient data.
    expect((await get("/api/dentist/requests", who.dentist)).json().items).toEqual([]);
    const verify = async () =>
      post(
        `/api/admin/dentists/${who.dentist?.id}/verification`,
        await verifyBody(ctx.app, who.dentist?.id as string),
        who.admin,
      );
    const first = await verify();
    expect(first.json()).toEqual({
      changed: true,
      is_verified: true,
      renewal: null,
      message: "Dentiste vérifié",
    });
    const second = await verify();
    expect(second.json()).toMatchObject({ changed: false, is_verified: true });
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("subject_id", "=", who.dentist?.id as string)
      .where("action", "like", "verification.granted")
      .execute();
    expect(audit).toHaveLength(1);
    expect(
      (await ctx.mails()).some((m) => m.includes(who.dentist?.email as string) && m.includes("vérifié")),
    ).toBe(true);
    expect(
      (await get("/api/admin/verification-requests", who.admin))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).not.toContain(who.dentist?.id);

    // Verified: sees a patient's request at once; unverified: it is gone at once.
    const created = await postRequest(ctx.app, who.patient?.cookie, {
      treatment_type: "crown",
      consent: "true",
    });
    const requestId = created.json().id;
    expect(
      (await get("/api/dentist/requests", who.dentist)).json().items.map((i: { id: string }) => i.id),
    ).toContain(requestId);
    // Withdrawn with the reason he reads, as a refusal or a suspension: none, and nothing changes.
    for (const reason of [undefined, "   "]) {
      const noReason = await post(
        `/api/admin/dentists/${who.dentist?.id}/verification`,
        { decision: "unverify", ...(reason === undefined ? {} : { reason }) },
        who.admin,
      );
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().error.fields).toEqual({ reason: ADMIN_MESSAGES.withdrawalReasonRequired });
    }
    // A slip of the keyboard is no reason he can read.
    const slip = await post(
      `/api/admin/dentists/${who.dentist?.id}/verification`,
      { decision: "unverify", reason: "  ab " },
      who.admin,
    );
    expect(slip.statusCode).toBe(400);
    expect(slip.json().error.fields).toEqual({ reason: ADMIN_MESSAGES.reasonTooShort });
    expect((await get("/api/me", who.dentist)).json().profile.is_verified).toBe(true);
    const off = await post(
      `/api/admin/dentists/${who.dentist?.id}/verification`,
      { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
      who.admin,
    );
    expect(off.json()).toEqual({
      changed: true,
      is_verified: false,
      renewal: null,
      message: "Dentiste non vérifié",
    });
    expect((await get("/api/dentist/requests", who.dentist)).json().items).toEqual([]);
    expect((await get(`/api/dentist/requests/${requestId}`, who.dentist)).statusCode).toBe(404);
    // He, and the team's list, read that his verification was withdrawn (not « never asked »).
    expect((await get("/api/me", who.dentist)).json().profile.verification_state).toBe("withdrawn");
    const listed = (
      await get(`/api/admin/users?role=dentist&search=${who.dentist?.email}`, who.admin)
    ).json();
    expect(listed.items).toEqual([
      expect.objectContaining({ id: who.dentist?.id, verification_state: "withdrawn" }),
    ]);
    const withdrawn = (await ctx.mails()).filter(
      (m) =>
        m.includes(who.dentist?.email as string) && m.includes("a retiré la vérification de votre compte"),
    );
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]).toContain("pour la raison suivante\u202f:");
    expect(withdrawn[0]).toContain("Numéro RPPS inactif au répertoire");
    // His appointments stand, and their patients are told (ADR 093).
    expect(withdrawn[0]).toContain(
      "Vos rendez-vous ne sont pas annulés\u202f: les patients concernés en sont prévenus par e-mail.",
    );
    expect(
      (
        await post(
          `/api/admin/dentists/${who.dentist?.id}/verification`,
          { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
          who.admin,
        )
      ).json().changed,
    ).toBe(false);
  });

  it("refuses a request with a reason the dentist reads, and needs that reason", async () => {
    const claire = await pendingDentist("Claire");
    const noReason = await post(
      `/api/admin/dentists/${claire.id}/verification`,
      { decision: "refuse" },
      who.admin,
    );
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe("Indiquez la raison du refus : le dentiste la lira.");
    const slip = await post(
      `/api/admin/dentists/${claire.id}/verification`,
      { decision: "refuse", reason: "ab" },
      who.admin,
    );
    expect(slip.statusCode).toBe(400);
    expect(slip.json().error.fields.reason).toBe(ADMIN_MESSAGES.reasonTooShort);
    const refused = await post(
      `/api/admin/dentists/${claire.id}/verification`,
      { decision: "refuse", reason: "Le numéro RPPS ne correspond pas au nom." },
      who.admin,
    );
    expect(refused.json()).toMatchObject({ changed: true, is_verified: false });
    const me = (await get("/api/me", claire)).json().profile;
    expect(me).toMatchObject({
      verification_state: "refused",
      verification_refusal_reason: "Le numéro RPPS ne correspond pas au nom.",
    });
    // No request pending any more: refusing again (a page older than the decision) is a conflict that
    // says so; asking again works.
    const again = await post(
      `/api/admin/dentists/${claire.id}/verification`,
      { decision: "refuse", reason: "Numéro RPPS introuvable" },
      who.admin,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(ADMIN_MESSAGES.refuseDecided);
    const verified = await dentist(ctx.app, { first_name: "Vera" });
    const late = await post(
      `/api/admin/dentists/${verified.id}/verification`,
      { decision: "refuse", reason: "Numéro RPPS introuvable" },
      who.admin,
    );
    expect([late.statusCode, late.json().error.message]).toEqual([409, ADMIN_MESSAGES.refuseVerified]);
    expect((await post("/api/me/verification-request", {}, claire)).statusCode).toBe(200);
    const audit = (await get("/api/admin/audit?type=verification", who.admin)).json();
    expect(audit.items.find((e: { action: string }) => e.action === "verification.refused")).toMatchObject({
      reason: "Le numéro RPPS ne correspond pas au nom.",
      label: "Vérification refusée",
      actor_name: expect.any(String),
    });
    expect(
      (
        await post(
          `/api/admin/dentists/${who.patient?.id}/verification`,
          await verifyBody(ctx.app, who.patient?.id as string),
          who.admin,
        )
      ).statusCode,
    ).toBe(409);
  });

  it("shows the accounts that gave the same RPPS number, and verifies only one of them (ADR 075)", async () => {
    const rpps = rppsWithKey("1000444555");
    const first = await pendingDentist("Inès", rpps);
    const second = await pendingDentist("Iris", rpps);
    const queued = async () =>
      (await get("/api/admin/verification-requests", who.admin))
        .json()
        .items.filter((i: { rpps: string }) => i.rpps === rpps);
    const before = await queued();
    expect(before.map((i: { id: string }) => i.id)).toEqual([first.id, second.id]);
    expect(before[0].same_rpps).toEqual([
      { id: second.id, full_name: "Iris Martin", email: second.email, is_verified: false },
    ]);
    expect(before[1].same_rpps).toEqual([
      { id: first.id, full_name: "Inès Martin", email: first.email, is_verified: false },
    ]);
    // Another number: nobody else.
    const others = (await get("/api/admin/verification-requests", who.admin)).json().items;
    expect(
      others
        .filter((i: { rpps: string }) => i.rpps !== rpps)
        .every((i: { same_rpps: unknown[] }) =>
          i.same_rpps.every((o) => (o as { id: string }).id !== first.id),
        ),
    ).toBe(true);

    const verify = async (id: string) =>
      post(`/api/admin/dentists/${id}/verification`, await verifyBody(ctx.app, id), who.admin);
    expect((await verify(first.id)).json()).toMatchObject({ changed: true, is_verified: true });
    const taken = await verify(second.id);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(
      "Ce numéro RPPS est déjà celui d'un autre dentiste vérifié\u202f: un numéro RPPS n'appartient qu'à une personne. Vérifiez les deux comptes avant de décider.",
    );
    const after = await queued();
    expect(after.map((i: { id: string }) => i.id)).toEqual([second.id]);
    expect(after[0].same_rpps).toEqual([
      { id: first.id, full_name: "Inès Martin", email: first.email, is_verified: true },
    ]);
    // The first one's verification withdrawn: the number is free for the team to give to the other.
    expect(
      (
        await post(
          `/api/admin/dentists/${first.id}/verification`,
          { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
          who.admin,
        )
      ).statusCode,
    ).toBe(200);
    expect((await verify(second.id)).json()).toMatchObject({ changed: true, is_verified: true });
  });

  it("verifies no dentist who has not given an RPPS number and his practice (ADR 075)", async () => {
    const bare = await dentist(ctx.app, { first_name: "Noé" }, false);
    const verify = async () =>
      post(`/api/admin/dentists/${bare.id}/verification`, await verifyBody(ctx.app, bare.id), who.admin);
    const incomplete = {
      code: "CONFLICT",
      message:
        "Ce dentiste n'a pas encore donné un numéro RPPS valide et l'adresse de son cabinet\u202f: il ne peut pas être vérifié.",
    };
    const refused = await verify();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject(incomplete);
    // Each of the three is needed; nothing is written, no e-mail goes. A number nobody else gave, so
    // that the refusal is this one, whatever the file's other tests verified.
    const complete = {
      rpps: rppsWithKey("1000777888"),
      practice_address: "1 rue de Lyon",
      practice_postcode: "69001",
    };
    for (const missing of ["rpps", "practice_address", "practice_postcode"] as const) {
      await ctx.app.db
        .updateTable("profiles")
        .set({ ...complete, [missing]: null })
        .where("id", "=", bare.id)
        .execute();
      const answer = await verify();
      expect(answer.statusCode, missing).toBe(409);
      expect(answer.json().error, missing).toMatchObject(incomplete);
    }
    expect((await get("/api/me", bare)).json().profile).toMatchObject({
      is_verified: false,
      verification_state: "none",
    });
    expect((await ctx.mails()).some((m) => m.includes(bare.email))).toBe(false);

    await ctx.app.db.updateTable("profiles").set(complete).where("id", "=", bare.id).execute();
    expect((await verify()).json()).toMatchObject({ changed: true, is_verified: true });
  });
});

describe("verification of what the team read (ADR 076)", () => {
  const rpps = rppsWithKey("1000555666");
  let lucie: Who;
  beforeAll(async () => {
    lucie = await pendingDentist("Lucie", rpps);
  });
  const url = () => `/api/admin/dentists/${lucie.id}/verification`;
  const state = async () => (await get("/api/me", lucie)).json().profile.verification_state;

  it("asks for the RPPS number and practice the admin checked", async () => {
    const answer = await post(url(), { decision: "verify" }, who.admin);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.fields.checked).toBe(
      "Indiquez le numéro RPPS et le cabinet que vous avez vérifiés.",
    );
    expect(await state()).toBe("requested");
  });

  it("verifies no dentist whose RPPS number or practice changed since the team's screen showed them", async () => {
    const read = (await get("/api/admin/verification-requests", who.admin))
      .json()
      .items.find((i: { id: string }) => i.id === lucie.id);
    const shown = {
      rpps: read.rpps,
      practice_address: read.practice_address,
      practice_postcode: read.practice_postcode,
    };
    expect(shown).toEqual({ rpps, practice_address: "1 rue de Lyon", practice_postcode: "69001" });
    // While the team reads his request, he moves his practice.
    await savePractice(lucie, "Lucie", rpps, "40 quai Rambaud");
    const changed = {
      code: "CONFLICT",
      message:
        "Ce dentiste a modifié son numéro RPPS ou son cabinet depuis l'affichage de cette page. Relisez-les avant de décider.",
    };
    const stale = await post(url(), { decision: "verify", checked: shown }, who.admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject(changed);
    // Each of the three is compared.
    const now = { ...shown, practice_address: "40 quai Rambaud" };
    for (const [field, other] of [
      ["rpps", rppsWithKey("1000555667")],
      ["practice_address", "40 quai Rambaud "],
      ["practice_postcode", "69002"],
    ] as const) {
      const answer = await post(
        url(),
        { decision: "verify", checked: { ...now, [field]: other } },
        who.admin,
      );
      expect(answer.statusCode, field).toBe(409);
      expect(answer.json().error, field).toMatchObject(changed);
    }
    // Nothing written, nothing sent.
    expect(await state()).toBe("requested");
    const granted = () =>
      ctx.app.db
        .selectFrom("audit_log")
        .select("details")
        .where("subject_id", "=", lucie.id)
        .where("action", "=", "verification.granted")
        .execute();
    expect(await granted()).toEqual([]);
    expect((await ctx.mails()).some((m) => m.includes(lucie.email))).toBe(false);

    // What the team reads now: verified, and the audit row keeps what it checked.
    const verified = await post(url(), { decision: "verify", checked: now }, who.admin);
    expect(verified.json()).toMatchObject({ changed: true, is_verified: true });
    expect(await granted()).toEqual([{ details: { checked: now } }]);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL", () => {
    it("verifies one of two accounts of one RPPS number decided at the same moment", async () => {
      const shared = rppsWithKey("1000666777");
      const first = await pendingDentist("Lou", shared);
      const second = await pendingDentist("Léa", shared);
      const body = await verifyBody(ctx.app, second.id);
      // Another admin's « Vérifier » of the first account: written, not committed yet.
      let commit = () => {};
      const held = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let otherPid = 0;
      const other = ctx.app.db.transaction().execute(async (trx) => {
        await trx.updateTable("profiles").set({ is_verified: true }).where("id", "=", first.id).execute();
        otherPid =
          (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid ?? 0;
        await held;
      });
      try {
        await expect.poll(() => otherPid).not.toBe(0);
        const answer = post(`/api/admin/dentists/${second.id}/verification`, body, who.admin);
        // This decision waits for the other one…
        await expect
          .poll(
            async () =>
              (
                await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
                  where ${otherPid} = any(pg_blocking_pids(pid))`.execute(ctx.app.db)
              ).rows[0]?.n,
          )
          .toBe(1);
        commit();
        await other;
        // …and sees the number taken once it is.
        const taken = await answer;
        expect(taken.statusCode).toBe(409);
        expect(taken.json().error.message).toContain(
          "Ce numéro RPPS est déjà celui d'un autre dentiste vérifié",
        );
      } finally {
        commit();
        await other;
      }
    });
  });
});

describe("users tables", () => {
  it("searches by name or e-mail and pages by ten on the server", async () => {
    for (let i = 0; i < 12; i++)
      await signUpPatient(ctx.app, { first_name: "Zoé", last_name: `Pagination${i}` });
    const first = (await get("/api/admin/users?role=patient&search=pagination", who.admin)).json();
    expect(first.items).toHaveLength(10);
    expect(first.has_more).toBe(true);
    const second = (await get("/api/admin/users?role=patient&search=pagination&page=2", who.admin)).json();
    expect(second.items).toHaveLength(2);
    expect(second.has_more).toBe(false);
    expect(
      (await get("/api/admin/users?role=patient&search=nobody-matches", who.admin)).json().items,
    ).toEqual([]);
    expect((await get("/api/admin/users?role=patient&page=0", who.admin)).statusCode).toBe(400);
    expect((await get("/api/admin/users?role=admin", who.admin)).statusCode).toBe(400);
    const dentists = (await get("/api/admin/users?role=dentist", who.admin)).json();
    expect(dentists.items.every((u: { role: string }) => u.role === "dentist")).toBe(true);
    const stats = (await get("/api/admin/stats", who.admin)).json();
    expect(stats.patients).toBeGreaterThanOrEqual(14);
  });
});

describe("support chat", () => {
  it("takes a patient's text and image, shows the team the unread thread, and delivers the reply live", async () => {
    const base = await listenLocally(ctx.app);
    const adminSocket = await openSocket(base, who.admin?.cookie as string);
    const patientSocket = await openSocket(base, who.patient?.cookie as string);
    const otherSocket = await openSocket(base, who.other?.cookie as string);
    try {
      const sent = await postForm(
        ctx.app,
        "/api/support/messages",
        who.patient,
        { body: "Je n'arrive pas à joindre le Dr Martin" },
        [{ field: "image", name: "capture.png", type: "image/png", content: tinyPng() }],
      );
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json()).toMatchObject({ from_team: false, image: { name: "capture.png" } });
      await expect.poll(() => adminSocket.events.some((e) => e.type === "support")).toBe(true);

      const threads = (await get("/api/admin/support/threads", who.admin)).json();
      expect(threads.items[0]).toMatchObject({
        patient_id: who.patient?.id,
        unread: 1,
        patient_name: "Paula Durand",
      });
      expect((await get(sent.json().image.url, who.admin)).statusCode).toBe(200);
      expect((await get(sent.json().image.url, who.other)).statusCode).toBe(404);
      expect(
        (await post(`/api/admin/support/threads/${who.patient?.id}/read`, {}, who.admin)).json(),
      ).toEqual({ read: 1 });
      expect((await get("/api/admin/support/threads", who.admin)).json().items[0].unread).toBe(0);

      const reply = await post(
        `/api/admin/support/threads/${who.patient?.id}/messages`,
        { body: "  Nous le contactons.  " },
        who.admin,
      );
      expect(reply.statusCode).toBe(201);
      expect(reply.json()).toMatchObject({ from_team: true, body: "Nous le contactons." });
      await expect
        .poll(() => patientSocket.events.find((e) => e.type === "support" && e.message.from_team))
        .toBeDefined();
      expect(otherSocket.events.filter((e) => e.type === "support")).toEqual([]);
      const mine = (await get("/api/support/messages", who.patient)).json();
      expect(mine.items.map((m: { body: string }) => m.body)).toEqual([
        "Je n'arrive pas à joindre le Dr Martin",
        "Nous le contactons.",
      ]);
      expect((await get("/api/support/messages", who.other)).json().items).toEqual([]);
      expect(
        (await post(`/api/admin/support/threads/${who.other?.id}/messages`, { body: "x" }, who.admin))
          .statusCode,
      ).toBe(404);
      expect(
        (await post(`/api/admin/support/threads/${who.patient?.id}/messages`, { body: "   " }, who.admin))
          .statusCode,
      ).toBe(400);

      // Unread for 15 minutes: one e-mail to the patient, even one who stopped the e-mails about her
      // conversations with dentists (ADR 081): the team's answer is not one of those.
      const stopped = await call("PATCH", "/api/me/email-preferences", who.patient, { messages: false });
      expect(stopped.statusCode, stopped.body).toBe(200);
      const now = new Date(Date.now() + 16 * 60_000);
      const deps = { db: ctx.app.db, mailer: ctx.app.mailer, config: ctx.config, now, log: { error() {} } };
      const before = ctx.outbox().length;
      expect(await sendSupportUnreadEmails(deps)).toBe(1);
      expect(await sendSupportUnreadEmails(deps)).toBe(0);
      const told = ctx.outbox().slice(before);
      expect(told).toHaveLength(1);
      expect(told[0]).not.toContain("#notifications");
      expect(told[0]).toContain(
        `L'équipe vous a écrit sur ${ctx.config.brandName} et vous n'avez pas encore lu`,
      );
    } finally {
      for (const s of [adminSocket, patientSocket, otherSocket]) s.ws.close();
    }
  });

  it("refuses empty messages and anything but an image, leaving nothing behind", async () => {
    const send = (fields: Record<string, string>, files: { name: string; type: string; content: Buffer }[]) =>
      postForm(
        ctx.app,
        "/api/support/messages",
        who.other,
        fields,
        files.map((f) => ({ field: "image", ...f })),
      );
    expect((await send({ body: "  " }, [])).statusCode).toBe(400);
    expect(
      (await send({}, [{ name: "devis.pdf", type: "application/pdf", content: tinyPdf() }])).statusCode,
    ).toBe(415);
    expect((await send({}, [{ name: "x.png", type: "image/png", content: fakeExe() }])).statusCode).toBe(415);
    expect((await get("/api/support/messages", who.other)).json().items).toEqual([]);
    // A dentist has a thread of their own (issue 16): empty, never the patient's.
    expect((await get("/api/support/messages", who.dentist)).json().items).toEqual([]);
    expect((await get("/api/support/messages")).statusCode).toBe(401);
    expect((await post("/api/support/read", {})).statusCode).toBe(401);
    expect((await post("/api/support/read", {}, who.dentist)).json()).toEqual({ read: 0 });
    expect((await post("/api/support/messages", {}, who.dentist)).statusCode).toBe(415);
  });
});

describe("contact inbox and audit", () => {
  it("lists contact messages newest first and marks them handled", async () => {
    const sent = await postForm(ctx.app, "/api/contact", undefined, {
      name: "Jean",
      email: "jean@example.com",
      message: "Bonjour",
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const list = (await get("/api/admin/contact", who.admin)).json();
    expect(list.items[0]).toMatchObject({ name: "Jean", email: "jean@example.com", handled_at: null });
    const handled = await post(`/api/admin/contact/${list.items[0].id}/handled`, {}, who.admin);
    expect(handled.json().message).toBe("Message marqué comme traité");
    expect((await get("/api/admin/contact", who.admin)).json().items[0].handled_at).not.toBeNull();
    // Marked by mistake: back to the ones to handle, counted again.
    const before = (await get("/api/admin/stats", who.admin)).json().unhandled_contact as number;
    const undone = await call("DELETE", `/api/admin/contact/${list.items[0].id}/handled`, who.admin);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().message).toBe(ADMIN_MESSAGES.contactUnhandled);
    expect((await get("/api/admin/contact", who.admin)).json().items[0].handled_at).toBeNull();
    expect((await get("/api/admin/stats", who.admin)).json().unhandled_contact).toBe(before + 1);
    const unknown = await call(
      "DELETE",
      "/api/admin/contact/00000000-0000-4000-8000-000000000000/handled",
      who.admin,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it("filters the audit by type and person and pages it", async () => {
    const all = (await get("/api/admin/audit?page_size=50", who.admin)).json();
    expect(all.items.length).toBeGreaterThan(0);
    const attachments = (await get("/api/admin/audit?type=attachment", who.admin)).json();
    expect(attachments.items.every((e: { type: string }) => e.type === "attachment")).toBe(true);
    expect(attachments.items.some((e: { action: string }) => e.action === "support_image.view")).toBe(true);
    // The person concerned is named, and found: the patient whose support image the team opened.
    const patientName = (await get("/api/me", who.patient)).json().profile.full_name as string;
    const concerning = (
      await get(`/api/admin/audit?type=attachment&person=${encodeURIComponent(patientName)}`, who.admin)
    ).json();
    expect(concerning.items).toContainEqual(
      expect.objectContaining({ action: "support_image.view", subject: patientName }),
    );
    const byNobody = (await get("/api/admin/audit?person=personne-inconnue", who.admin)).json();
    expect(byNobody.items).toEqual([]);
    const paged = (await get("/api/admin/audit?page_size=1", who.admin)).json();
    expect(paged.items).toHaveLength(1);
    expect(paged.has_more).toBe(true);
  });
});

describe("the team's work, live", () => {
  it("tells every admin's open screens when a verification is asked for or decided and a contact message arrives or is handled; nobody else", async () => {
    const base = await listenLocally(ctx.app);
    const second = await signInAdmin(ctx.app);
    // A session's first use after its sign-in was seen to write a change of the person's sessions
    // (closing a socket opened meanwhile, before its « ready »): each person's first use, and every
    // earlier event handled, before the sockets open, so that only what follows is counted.
    for (const person of [who.admin, second, who.patient]) await get("/api/me", person);
    await ctx.app.bus.sync();
    const admins = [
      await openSocket(base, who.admin?.cookie as string),
      await openSocket(base, second.cookie),
    ];
    const patientSocket = await openSocket(base, who.patient?.cookie as string);
    const teamEvents = (socket: Awaited<ReturnType<typeof openSocket>>) =>
      socket.events.filter((e) => e.type === "team").length;
    const heard = async (count: number) => {
      for (const socket of admins) await expect.poll(() => teamEvents(socket)).toBe(count);
    };
    try {
      const asking = await pendingDentist("Camille", rppsWithKey("1000987612"));
      await heard(1);
      const contact = await ctx.app.inject({
        method: "POST",
        url: "/api/contact",
        ...multipart({ name: "Jeanne Martin", email: "jeanne@example.com", message: "Bonjour" }),
      });
      expect(contact.statusCode, contact.body).toBe(201);
      await heard(2);
      const id = contact.json().id as string;
      expect((await post(`/api/admin/contact/${id}/handled`, {}, who.admin)).statusCode).toBe(200);
      await heard(3);
      expect((await call("DELETE", `/api/admin/contact/${id}/handled`, who.admin)).statusCode).toBe(200);
      await heard(4);
      const decided = await post(
        `/api/admin/dentists/${asking.id}/verification`,
        await verifyBody(ctx.app, asking.id),
        second,
      );
      expect(decided.statusCode, decided.body).toBe(200);
      await heard(5);
      await ctx.app.bus.sync();
      expect(teamEvents(patientSocket)).toBe(0);
    } finally {
      for (const socket of [...admins, patientSocket]) socket.ws.close();
    }
  });
});
