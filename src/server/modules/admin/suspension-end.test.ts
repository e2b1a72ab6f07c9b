import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { runMailJobs } from "../../jobs";
import { appPerFile } from "../../testing/harness";
import { api, dentist, patient, signInAdmin, type Who } from "../../testing/people";
import { liftEndedSuspensions } from "./suspension.service";

/*
 * A suspension with an end (ADR 092's addendum): the team may choose the day it is lifted by itself
 * (from tomorrow, within a year); the mail job lifts it that day at 0:00 in Paris, as « Rétablir »
 * does, by no one, and the person is told. Lifted by hand before, it is not lifted again.
 */

// A movable clock: Monday 16 November 2026, 11:00 in Paris (UTC+1).
let now = new Date("2026-11-16T10:00:00Z");
const ctx = appPerFile({ clock: () => now });
const { call, get, post } = api(ctx);
const PASSWORD = "Sourire-Sain-2026";
let admin: Who;

const suspend = (id: string, body: object) => post(`/api/admin/users/${id}/suspension`, body, admin);
const setEnd = (id: string, body: object) => call("PATCH", `/api/admin/users/${id}/suspension`, admin, body);
const logIn = (email: string) =>
  ctx.app.inject({ method: "POST", url: "/api/account/login", payload: { email, password: PASSWORD } });
const mailsTo = async (email: string) => (await ctx.mails()).filter((m) => m.includes(`To: ${email}`));
const lift = () =>
  liftEndedSuspensions({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    clock: () => now,
    log: { error() {} },
  });

async function listed(id: string) {
  const page = await get("/api/admin/users?role=patient&suspended=1&page_size=50", admin);
  expect(page.statusCode, page.body).toBe(200);
  return (page.json().items as { id: string; suspension_ends_at: string | null }[]).find((u) => u.id === id);
}

describe("a suspension with an end (ADR 092's addendum)", () => {
  it("is lifted by the mail job on its day at 0:00 in Paris, by no one, the person told, once", async () => {
    admin = await signInAdmin(ctx.app, "root@example.com");
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const suspended = await suspend(paula.id, { reason: "Faux devis.", ends_on: "2026-11-20" });
    expect(suspended.statusCode, suspended.body).toBe(200);
    // The admin's list: the instant it ends, 0:00 on Friday 20 in Paris.
    expect((await listed(paula.id))?.suspension_ends_at).toBe("2026-11-19T23:00:00.000Z");
    const [told] = (await mailsTo(paula.email)).filter((m) => m.includes("a suspendu votre compte"));
    expect(told).toContain("jusqu'à la fin de la suspension, le 20 novembre 2026");
    expect(told).toContain("ce jour-là, elle sera levée et un e-mail vous le dira");
    const [audit] = await ctx.app.db
      .selectFrom("audit_log")
      .select("details")
      .where("subject_id", "=", paula.id)
      .where("action", "=", "account.suspended")
      .execute();
    expect(audit?.details).toMatchObject({ reason: "Faux devis.", ends_at: "2026-11-19T23:00:00.000Z" });

    // Thursday 23:59 in Paris: still suspended.
    now = new Date("2026-11-19T22:59:00Z");
    expect(await runMailJobs(ctx.app)).toBe(true);
    const refused = await logIn(paula.email);
    expect(refused.statusCode).toBe(403);
    // Her sign-in says the day (after the right password only, as any suspension).
    expect(refused.json().error.message).toBe(ACCOUNT_MESSAGES.suspendedUntil("20 novembre 2026"));
    // Friday 0:00 in Paris: the mail job (jobs.ts) lifts it.
    now = new Date("2026-11-19T23:00:00Z");
    expect(await runMailJobs(ctx.app)).toBe(true);
    const back = await logIn(paula.email);
    expect(back.statusCode, back.body).toBe(200);
    expect(await listed(paula.id)).toBeUndefined();
    const row = await ctx.app.db
      .selectFrom("profiles")
      .select(["suspended_at", "suspension_reason", "suspension_ends_at"])
      .where("id", "=", paula.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ suspended_at: null, suspension_reason: null, suspension_ends_at: null });
    const reinstated = await ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("subject_id", "=", paula.id)
      .where("action", "=", "account.reinstated")
      .execute();
    expect(reinstated).toHaveLength(1);
    expect(reinstated[0]?.actor_id).toBeNull();
    expect(reinstated[0]?.details).toMatchObject({ automatic: true });
    const ended = (await mailsTo(paula.email)).filter((m) =>
      m.includes("vous pouvez de nouveau vous connecter"),
    );
    expect(ended).toHaveLength(1);
    expect(ended[0]).toContain("La suspension de votre compte");
    expect(ended[0]).toContain("a pris fin");
    expect(ended[0]).not.toContain("a levé la suspension");
    expect(ended[0]).toContain("Si la suspension a annulé des demandes de devis, elles le restent");

    // The audit page says the day, and that it was lifted on it by no one.
    const page = await get("/api/admin/audit?type=account&person=Syst", admin);
    expect(page.statusCode, page.body).toBe(200);
    const labels = (page.json().items as { label: string; actor_name: string }[]).map(
      (e) => `${e.actor_name} : ${e.label}`,
    );
    expect(labels).toContain("Système : Suspension du compte levée à la date prévue");
    const suspensions = await get("/api/admin/audit?type=account&page_size=50", admin);
    expect(suspensions.json().items.map((e: { label: string }) => e.label)).toContain(
      "Compte suspendu par l'équipe, levée prévue le 20 novembre 2026",
    );

    // The next runs find nothing left.
    now = new Date("2026-11-20T08:00:00Z");
    expect(await lift()).toBe(0);
    expect(
      (await mailsTo(paula.email)).filter((m) => m.includes("vous pouvez de nouveau vous connecter")),
    ).toHaveLength(1);
  });

  it("lifted by hand before its day, or suspended again without a day, is not lifted by the old one", async () => {
    now = new Date("2026-11-16T10:00:00Z");
    const quentin = await patient(ctx.app, { first_name: "Quentin" });
    const drA = await dentist(ctx.app, { first_name: "Anne" });
    expect((await suspend(quentin.id, { reason: "Spam.", ends_on: "2026-11-18" })).statusCode).toBe(200);
    expect((await suspend(drA.id, { reason: "RPPS douteux.", ends_on: "2026-11-18" })).statusCode).toBe(200);
    // The team lifts Quentin's by hand, then suspends him again with no end.
    expect((await call("DELETE", `/api/admin/users/${quentin.id}/suspension`, admin)).statusCode).toBe(200);
    expect((await suspend(quentin.id, { reason: "Spam, encore." })).statusCode).toBe(200);

    now = new Date("2026-11-18T08:00:00Z");
    // Only the dentist's ends (and he is not verified again by it).
    expect(await lift()).toBe(1);
    expect((await logIn(quentin.email)).statusCode).toBe(403);
    const drBack = await logIn(drA.email);
    expect(drBack.statusCode, drBack.body).toBe(200);
    expect(drBack.json().profile.is_verified).toBe(false);
    const drMail = (await mailsTo(drA.email)).find((m) => m.includes("a pris fin"));
    expect(drMail).toContain("demandez-en une nouvelle depuis votre profil");
    expect(await lift()).toBe(0);
  });

  it("refuses an end that is not a day, today or before, or more than a year away, naming the field", async () => {
    now = new Date("2026-11-16T10:00:00Z");
    const rita = await patient(ctx.app, { first_name: "Rita" });
    const cases: [unknown, string][] = [
      ["2026-02-30", ADMIN_MESSAGES.suspensionEndInvalid],
      ["20/11/2026", ADMIN_MESSAGES.suspensionEndInvalid],
      [42, ADMIN_MESSAGES.suspensionEndInvalid],
      ["2026-11-16", ADMIN_MESSAGES.suspensionEndPast],
      ["2026-11-01", ADMIN_MESSAGES.suspensionEndPast],
      ["2027-11-17", ADMIN_MESSAGES.suspensionEndTooFar],
    ];
    for (const [endsOn, message] of cases) {
      const refused = await suspend(rita.id, { reason: "Test", ends_on: endsOn });
      expect(refused.statusCode, String(endsOn)).toBe(400);
      expect(refused.json().error.fields).toEqual({ ends_on: message });
    }
    // Nothing was suspended by those.
    expect((await get("/api/me", rita)).statusCode).toBe(200);
    // Tomorrow and a year from today are accepted; null is no end.
    const tomorrow = await suspend(rita.id, { reason: "Test", ends_on: "2026-11-17" });
    expect(tomorrow.statusCode, tomorrow.body).toBe(200);
    expect((await call("DELETE", `/api/admin/users/${rita.id}/suspension`, admin)).statusCode).toBe(200);
    expect((await suspend(rita.id, { reason: "Test", ends_on: "2027-11-16" })).statusCode).toBe(200);
    expect((await call("DELETE", `/api/admin/users/${rita.id}/suspension`, admin)).statusCode).toBe(200);
    expect((await suspend(rita.id, { reason: "Test", ends_on: null })).statusCode).toBe(200);
    expect((await listed(rita.id))?.suspension_ends_at).toBeNull();
  });

  it("moves its day, or takes it away, while it lasts: the person told, the new day kept, the old one not (addendum of 06/12)", async () => {
    now = new Date("2026-11-16T10:00:00Z");
    const sara = await patient(ctx.app, { first_name: "Sara" });
    expect((await suspend(sara.id, { reason: "Avis inventés.", ends_on: "2026-11-20" })).statusCode).toBe(
      200,
    );

    const moved = await setEnd(sara.id, { ends_on: "2026-11-25" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ changed: true, renewal: null, message: ADMIN_MESSAGES.suspensionEndSet });
    expect((await listed(sara.id))?.suspension_ends_at).toBe("2026-11-24T23:00:00.000Z");
    const told = (await mailsTo(sara.email)).filter((m) => m.includes("a fixé la fin de la suspension"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("de votre compte au 25 novembre 2026");
    expect((await logIn(sara.email)).json().error.message).toBe(
      ACCOUNT_MESSAGES.suspendedUntil("25 novembre 2026"),
    );
    // The same day again: nothing written, nobody e-mailed.
    const same = await setEnd(sara.id, { ends_on: "2026-11-25" });
    expect(same.json()).toMatchObject({ changed: false, message: ADMIN_MESSAGES.suspensionEndUnchanged });
    expect((await mailsTo(sara.email)).filter((m) => m.includes("a fixé la fin"))).toHaveLength(1);
    const page = await get("/api/admin/audit?type=account&page_size=50", admin);
    expect(page.json().items.map((e: { label: string }) => e.label)).toContain(
      "Date de fin de la suspension modifiée, levée prévue le 25 novembre 2026",
    );
    const audits = await ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("subject_id", "=", sara.id)
      .where("action", "=", "account.suspension_end_changed")
      .execute();
    expect(audits).toEqual([
      {
        actor_id: admin.id,
        details: { ends_at: "2026-11-24T23:00:00.000Z", previous_ends_at: "2026-11-19T23:00:00.000Z" },
      },
    ]);

    // The old day passes: still suspended; the new one lifts it.
    now = new Date("2026-11-19T23:00:00Z");
    expect(await lift()).toBe(0);
    expect((await logIn(sara.email)).statusCode).toBe(403);
    now = new Date("2026-11-24T23:00:00Z");
    expect(await lift()).toBe(1);
    expect((await logIn(sara.email)).statusCode).toBe(200);
    // Lifted: no end left to change.
    const gone = await setEnd(sara.id, { ends_on: "2026-12-01" });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.message).toBe(ADMIN_MESSAGES.notSuspended);

    // Taken away: suspended until the team lifts it, the day never comes.
    now = new Date("2026-11-25T10:00:00Z");
    expect((await suspend(sara.id, { reason: "Encore.", ends_on: "2026-11-27" })).statusCode).toBe(200);
    const removed = await setEnd(sara.id, { ends_on: null });
    expect(removed.json()).toMatchObject({ changed: true, message: ADMIN_MESSAGES.suspensionEndRemoved });
    expect((await listed(sara.id))?.suspension_ends_at).toBeNull();
    const [noEnd] = (await mailsTo(sara.email)).filter((m) => m.includes("a retiré la date de fin"));
    expect(noEnd).toContain("il reste suspendu jusqu'à ce que l'équipe le rétablisse");
    // (Written at the same instant as the suspension: the order between them is the ids'.)
    expect(
      (await get("/api/admin/audit?type=account&page_size=50", admin))
        .json()
        .items.map((e: { label: string }) => e.label),
    ).toContain("Date de fin de la suspension modifiée\u202f: plus de date de fin");
    now = new Date("2026-11-28T10:00:00Z");
    expect(await lift()).toBe(0);
    expect((await logIn(sara.email)).json().error.message).toBe(ACCOUNT_MESSAGES.suspended);

    // Refused as at suspension, naming the field; the day kept as it was.
    const cases: [unknown, string][] = [
      ["2026-11-28", ADMIN_MESSAGES.suspensionEndPast],
      ["2027-11-29", ADMIN_MESSAGES.suspensionEndTooFar],
      ["28/12/2026", ADMIN_MESSAGES.suspensionEndInvalid],
      [undefined, ADMIN_MESSAGES.suspensionEndInvalid],
    ];
    for (const [endsOn, message] of cases) {
      const refused = await setEnd(sara.id, { ends_on: endsOn });
      expect(refused.statusCode, String(endsOn)).toBe(400);
      expect(refused.json().error.fields).toEqual({ ends_on: message });
    }
    expect((await listed(sara.id))?.suspension_ends_at).toBeNull();
    // Nobody's account that is not a patient's or a dentist's.
    expect((await setEnd(admin.id, { ends_on: null })).statusCode).toBe(409);
  });
});
