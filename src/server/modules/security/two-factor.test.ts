import { symmetricEncrypt } from "better-auth/crypto";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { TWO_FACTOR_MESSAGES } from "../../../shared/schemas/twoFactor";
import { rememberedDeviceIn, twoFactorKeysReadable } from "../../auth";
import { accountSecurityApp, CHROME_WINDOWS } from "../../testing/account-security";
import { signUpPatient } from "../../testing/harness";
import { signInAdmin } from "../../testing/people";
import { totpCode, wrongTotpCode } from "../../testing/totp";
import { TWO_FACTOR_ACTIONS } from "./two-factor.service";

/** Two-step sign-in (ADR 098): turning it on and off in « Sécurité », and the sign-in's second step. */

const { ctx, logIn, me, auditActions } = accountSecurityApp();
const PASSWORD = "Sourire-Sain-2026";

/** Every cookie a response sets, as a Cookie header (the browser's jar for the next call). */
function jar(response: LightMyRequestResponse, previous = ""): string {
  const cookies = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
  );
  for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
    if (cookie.value === "" || cookie.maxAge === 0) cookies.delete(cookie.name);
    else cookies.set(cookie.name, `${cookie.name}=${cookie.value}`);
  }
  return [...cookies.values()].join("; ");
}

const post = (url: string, cookie: string, payload: object) =>
  ctx.app.inject({ method: "POST", url, headers: { cookie, "user-agent": CHROME_WINDOWS }, payload });

const status = async (cookie: string) =>
  (await ctx.app.inject({ method: "GET", url: "/api/account/two-factor", headers: { cookie } })).json();

async function patient() {
  const { body, cookie } = await signUpPatient(ctx.app, { password: PASSWORD });
  const id = (await me(cookie)).json().profile.id as string;
  return { email: body.email, id, cookie };
}

/** A patient who turned it on: her session's cookie (renewed by the confirmation) and her setup. */
async function patientWithTwoFactor() {
  const person = await patient();
  const setup = await post("/api/account/two-factor/setup", person.cookie, { password: PASSWORD });
  expect(setup.statusCode).toBe(200);
  const { totp_uri, backup_codes } = setup.json() as { totp_uri: string; backup_codes: string[] };
  const confirmed = await post("/api/account/two-factor/confirm", person.cookie, {
    code: totpCode(totp_uri),
  });
  expect(confirmed.statusCode).toBe(200);
  return { ...person, cookie: jar(confirmed, person.cookie), uri: totp_uri, codes: backup_codes };
}

/** The first step of a sign-in: the password; the cookies it leaves. */
async function passwordStep(email: string, password = PASSWORD, cookie = "") {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/account/login",
    headers: { "user-agent": CHROME_WINDOWS, ...(cookie ? { cookie } : {}) },
    payload: { email, password, remember_me: true },
  });
  return { response, cookie: jar(response, cookie) };
}

const codeStep = (cookie: string, code: string, trustDevice = false) =>
  post("/api/account/login/code", cookie, { code, trust_device: trustDevice });

const mailsAbout = async (email: string, text: string) =>
  (await ctx.mails()).filter((mail) => mail.includes(`To: ${email}`) && mail.includes(text));

describe("who may call the routes", () => {
  it("refuses the anonymous on the five « Sécurité » routes before the body", async () => {
    const responses = await Promise.all([
      ctx.app.inject({ method: "GET", url: "/api/account/two-factor" }),
      ...["setup", "confirm", "backup-codes", "disable"].map((route) =>
        ctx.app.inject({ method: "POST", url: `/api/account/two-factor/${route}`, payload: { password: 1 } }),
      ),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("UNAUTHENTICATED");
    }
  });

  it("acts on the caller's own account only", async () => {
    const alice = await patientWithTwoFactor();
    const bob = await patient();
    expect(await status(bob.cookie)).toEqual({ enabled: false, remembered_devices: 0 });
    // Bob cannot turn Alice's off, nor confirm with her code: each route reads his own account.
    const disable = await post("/api/account/two-factor/disable", bob.cookie, { password: PASSWORD });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error.message).toBe(TWO_FACTOR_MESSAGES.notOn);
    const confirm = await post("/api/account/two-factor/confirm", bob.cookie, { code: totpCode(alice.uri) });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().error.message).toBe(TWO_FACTOR_MESSAGES.noSetup);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 0 });
    expect((await passwordStep(bob.email)).response.statusCode).toBe(200);
  });
});

describe("turning it on", () => {
  it("asks the password, then the app's first code; until then the password alone signs in", async () => {
    const { email, id, cookie } = await patient();
    const wrong = await post("/api/account/two-factor/setup", cookie, { password: "pas-le-bon" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ password: TWO_FACTOR_MESSAGES.passwordWrong });

    const setup = await post("/api/account/two-factor/setup", cookie, { password: PASSWORD });
    expect(setup.statusCode).toBe(200);
    expect(setup.headers["cache-control"]).toContain("no-store");
    const { totp_uri, secret, backup_codes } = setup.json();
    const uri = new URL(totp_uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/Sourio:${email}`);
    expect(uri.searchParams.get("issuer")).toBe("Sourio");
    expect(secret.replaceAll(" ", "")).toBe(uri.searchParams.get("secret"));
    expect(secret).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    expect(backup_codes).toHaveLength(10);
    // Capitals and digits that cannot be taken for one another (no 0/O, 1/I/L), all different.
    for (const code of backup_codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    expect(new Set(backup_codes).size).toBe(10);
    // Stored encrypted: neither the secret nor a code is in the row.
    const row = await ctx.database.db
      .selectFrom("two_factors")
      .selectAll()
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.verified).toBe(false);
    expect(`${row.secret} ${row.backup_codes}`).not.toContain(uri.searchParams.get("secret") ?? "?");
    expect(row.backup_codes).not.toContain(backup_codes[0]);
    // Not in force yet.
    expect(await status(cookie)).toEqual({ enabled: false, remembered_devices: 0 });
    expect((await passwordStep(email)).response.statusCode).toBe(200);

    const wrongCode = await post("/api/account/two-factor/confirm", cookie, {
      code: wrongTotpCode(totp_uri),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().error.fields).toEqual({ code: TWO_FACTOR_MESSAGES.codeWrong });
    const confirmed = await post("/api/account/two-factor/confirm", cookie, { code: totpCode(totp_uri) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(TWO_FACTOR_MESSAGES.enabled);
    // This device stays signed in on its renewed session.
    const renewed = jar(confirmed, cookie);
    expect(renewed).not.toBe(cookie);
    expect((await me(renewed)).statusCode).toBe(200);
    expect(await status(renewed)).toEqual({ enabled: true, remembered_devices: 0 });
    expect(await mailsAbout(email, "vous sera demandé à chaque connexion")).toHaveLength(1);
    expect(await auditActions(id)).toEqual([TWO_FACTOR_ACTIONS.refused, TWO_FACTOR_ACTIONS.enabled]);
    const again = await post("/api/account/two-factor/setup", renewed, { password: PASSWORD });
    expect(again.statusCode).toBe(409);
  });

  it("refuses a code that is not six digits, naming the field", async () => {
    const { cookie } = await patient();
    const response = await post("/api/account/two-factor/confirm", cookie, { code: "12ab" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ code: TWO_FACTOR_MESSAGES.codeInvalidFormat });
  });
});

describe("signing in with it", () => {
  it("answers 202 to the right password, without a session, then signs in with the app's code", async () => {
    const { email, uri } = await patientWithTwoFactor();
    const first = await passwordStep(email);
    expect(first.response.statusCode).toBe(202);
    expect(first.response.json()).toEqual({ second_factor: true });
    expect(first.cookie).not.toContain("session_token");
    expect((await me(first.cookie)).statusCode).toBe(401);

    const wrong = await codeStep(first.cookie, wrongTotpCode(uri));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ code: TWO_FACTOR_MESSAGES.codeWrong });
  });

  it("opens the session with the code, spaces allowed, and remembers the device when asked", async () => {
    const { email, uri } = await patientWithTwoFactor();
    const first = await passwordStep(email);
    const code = totpCode(uri);
    const done = await codeStep(first.cookie, `${code.slice(0, 3)} ${code.slice(3)}`, true);
    expect(done.statusCode).toBe(200);
    expect(done.json().profile.email).toBe(email);
    const signedIn = jar(done, first.cookie);
    expect((await me(signedIn)).statusCode).toBe(200);
    // The pending sign-in is used up.
    expect((await codeStep(first.cookie, totpCode(uri))).statusCode).toBe(401);
    // This browser was remembered: its next sign-in needs the password only.
    const next = await passwordStep(email, PASSWORD, signedIn);
    expect(next.response.statusCode).toBe(200);
    // Another browser still needs the code.
    expect((await passwordStep(email)).response.statusCode).toBe(202);
  });

  it("takes each app code once: typed again in another sign-in, it opens nothing (RFC 6238, 5.2)", async () => {
    const { email, id, uri } = await patientWithTwoFactor();
    const code = totpCode(uri);
    const first = await passwordStep(email);
    expect((await codeStep(first.cookie, code)).statusCode).toBe(200);
    // Someone who has the password and saw the code, within its 90 seconds, asking to be remembered.
    const other = await passwordStep(email);
    expect(other.response.statusCode).toBe(202);
    const replayed = await codeStep(other.cookie, code, true);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toMatchObject({
      code: "SECOND_FACTOR_EXPIRED",
      message: TWO_FACTOR_MESSAGES.codeUsed,
    });
    expect(jar(replayed, other.cookie)).not.toContain("session_token");
    const sessions = async () =>
      (await ctx.database.db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).length;
    // The patient's own session, made by the sign-in before: the one made for the replay is gone,
    // and so is the device the plugin remembered for it.
    expect(await sessions()).toBe(2);
    expect(
      await ctx.database.db
        .selectFrom("verifications")
        .select("id")
        .where("identifier", "like", "trust-device-%")
        .where("value", "=", id)
        .execute(),
    ).toEqual([]);
    // The app's next code still signs in (the plugin takes it 30 seconds early).
    const again = await passwordStep(email);
    expect((await codeStep(again.cookie, totpCode(uri, Date.now() + 30_000))).statusCode).toBe(200);
    expect(await sessions()).toBe(3);
  });

  it("forgets a used code after 90 seconds, and the person's older ones at her next sign-in", async () => {
    const { email, id, uri } = await patientWithTwoFactor();
    const used = (await ctx.database.db
      .selectFrom("two_factor_used_codes")
      .select(["code", "used_at"])
      .where("user_id", "=", id)
      .execute()) as Array<{ code: string; used_at: Date }>;
    expect(used).toEqual([]);
    const code = totpCode(uri);
    const first = await passwordStep(email);
    expect((await codeStep(first.cookie, code)).statusCode).toBe(200);
    const stale = new Date(Date.now() - 91_000);
    await ctx.database.db
      .insertInto("two_factor_used_codes")
      .values({ user_id: id, code: "000000", used_at: stale })
      .execute();
    await ctx.database.db
      .updateTable("two_factor_used_codes")
      .set({ used_at: stale })
      .where("code", "=", code)
      .execute();
    // Used 91 seconds ago for the server (the same code is still the app's): it signs in again.
    const second = await passwordStep(email);
    expect((await codeStep(second.cookie, code)).statusCode).toBe(200);
    const left = await ctx.database.db
      .selectFrom("two_factor_used_codes")
      .select(["code", "used_at"])
      .where("user_id", "=", id)
      .execute();
    expect(left.map((row) => row.code)).toEqual([code]);
    expect(new Date(left[0]?.used_at ?? 0).getTime()).toBeGreaterThan(stale.getTime());
  });

  it("takes each recovery code once", async () => {
    const { email, codes } = await patientWithTwoFactor();
    const first = await passwordStep(email);
    const recovered = await codeStep(first.cookie, codes[0] ?? "");
    expect(recovered.statusCode).toBe(200);
    const second = await passwordStep(email);
    const reused = await codeStep(second.cookie, codes[0] ?? "");
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.fields).toEqual({ code: TWO_FACTOR_MESSAGES.recoveryCodeWrong });
    // Typed in small letters without its dash, another one works.
    const typed = (codes[1] ?? "").replace("-", "").toLowerCase();
    expect((await codeStep(second.cookie, typed)).statusCode).toBe(200);
  });

  it("without a pending sign-in, or after five wrong codes, starts again from the password", async () => {
    const { email, uri } = await patientWithTwoFactor();
    const none = await codeStep("", totpCode(uri));
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toMatchObject({
      code: "SECOND_FACTOR_EXPIRED",
      message: TWO_FACTOR_MESSAGES.expired,
    });
    const first = await passwordStep(email);
    for (let i = 0; i < 5; i += 1)
      expect((await codeStep(first.cookie, wrongTotpCode(uri))).statusCode).toBe(400);
    const sixth = await codeStep(first.cookie, totpCode(uri));
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json().error.message).toBe(TWO_FACTOR_MESSAGES.tooManyCodes);
  });

  it("locks the account's codes for 15 minutes after ten wrong ones in a row", async () => {
    const { email, uri } = await patientWithTwoFactor();
    for (let round = 0; round < 2; round += 1) {
      const pending = await passwordStep(email);
      for (let i = 0; i < 5; i += 1) await codeStep(pending.cookie, wrongTotpCode(uri));
    }
    const pending = await passwordStep(email);
    const locked = await codeStep(pending.cookie, totpCode(uri));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe(TWO_FACTOR_MESSAGES.locked);
  });

  it("tells a suspended account so only after the code", async () => {
    const { email, id, uri } = await patientWithTwoFactor();
    await ctx.database.db
      .updateTable("profiles")
      .set({ suspended_at: new Date(), suspension_reason: "Demandes frauduleuses répétées." })
      .where("id", "=", id)
      .execute();
    const first = await passwordStep(email);
    expect(first.response.statusCode).toBe(202);
    const second = await codeStep(first.cookie, totpCode(uri));
    expect(second.statusCode).toBe(403);
    expect(second.json().error.code).toBe("ACCOUNT_SUSPENDED");
    const sessions = await ctx.database.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(sessions).toEqual([]);
  });
});

describe("recovery codes and turning it off", () => {
  it("renews the recovery codes with the password: the old ones stop working", async () => {
    const { email, cookie, codes } = await patientWithTwoFactor();
    const wrong = await post("/api/account/two-factor/backup-codes", cookie, { password: "pas-le-bon" });
    expect(wrong.statusCode).toBe(400);
    const renewed = await post("/api/account/two-factor/backup-codes", cookie, { password: PASSWORD });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().backup_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    const pending = await passwordStep(email);
    expect((await codeStep(pending.cookie, codes[0] ?? "")).statusCode).toBe(400);
    expect((await codeStep(pending.cookie, fresh[0] ?? "")).statusCode).toBe(200);
  });

  it("turns it off with the password; the password alone signs in again, and the person is told", async () => {
    const { email, id, cookie } = await patientWithTwoFactor();
    const wrong = await post("/api/account/two-factor/disable", cookie, { password: "pas-le-bon" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ password: TWO_FACTOR_MESSAGES.passwordWrong });
    expect(await status(cookie)).toEqual({ enabled: true, remembered_devices: 0 });
    const off = await post("/api/account/two-factor/disable", cookie, { password: PASSWORD });
    expect(off.statusCode).toBe(200);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.disabled);
    const renewed = jar(off, cookie);
    expect((await me(renewed)).statusCode).toBe(200);
    expect(await status(renewed)).toEqual({ enabled: false, remembered_devices: 0 });
    expect((await passwordStep(email)).response.statusCode).toBe(200);
    expect(await mailsAbout(email, "suffit désormais pour vous connecter")).toHaveLength(1);
    expect((await auditActions(id)).slice(-2)).toEqual([
      TWO_FACTOR_ACTIONS.refused,
      TWO_FACTOR_ACTIONS.disabled,
    ]);
    const rows = await ctx.database.db
      .selectFrom("two_factors")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("forgets every device she had remembered, not only the one she turns it off on", async () => {
    const { email, uri, cookie } = await patientWithTwoFactor();
    // A laptop, remembered for 30 days at a sign-in with the code.
    const laptop = await passwordStep(email);
    const first = jar(await codeStep(laptop.cookie, totpCode(uri), true), laptop.cookie);
    // Its next sign-in needs the password only (and renews what it remembers: the jar keeps it).
    const next = await passwordStep(email, PASSWORD, first);
    expect(next.response.statusCode).toBe(200);
    const remembered = next.cookie;
    // Turned off on her phone, then on again with a new key.
    const off = await post("/api/account/two-factor/disable", cookie, { password: PASSWORD });
    expect(off.statusCode).toBe(200);
    const phone = jar(off, cookie);
    const setup = await post("/api/account/two-factor/setup", phone, { password: PASSWORD });
    const confirmed = await post("/api/account/two-factor/confirm", phone, {
      code: totpCode(setup.json().totp_uri),
    });
    expect(confirmed.statusCode).toBe(200);
    // The laptop asks the code like any other browser.
    expect((await passwordStep(email, PASSWORD, remembered)).response.statusCode).toBe(202);
  });
});

describe("the devices that no longer ask the code", () => {
  const forget = (cookie: string) =>
    ctx.app.inject({
      method: "DELETE",
      url: "/api/account/two-factor/remembered-devices",
      headers: { cookie, "user-agent": CHROME_WINDOWS },
    });
  /** A browser remembered for 30 days at a sign-in with the code: its cookies. */
  const rememberedBrowser = async (email: string, uri: string, at = Date.now()) => {
    const pending = await passwordStep(email);
    const done = await codeStep(pending.cookie, totpCode(uri, at), true);
    expect(done.statusCode).toBe(200);
    return jar(done, pending.cookie);
  };

  it("counts them, and asks the code again on all of them at their next sign-in, hers only", async () => {
    const alice = await patientWithTwoFactor();
    const bob = await patientWithTwoFactor();
    const laptop = await rememberedBrowser(alice.email, alice.uri);
    const tablet = await rememberedBrowser(alice.email, alice.uri, Date.now() + 30_000);
    const bobs = await rememberedBrowser(bob.email, bob.uri);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 2 });
    expect((await forget("")).statusCode).toBe(401);

    const forgotten = await forget(alice.cookie);
    expect(forgotten.statusCode).toBe(200);
    expect(forgotten.json().message).toBe(TWO_FACTOR_MESSAGES.devicesForgotten);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 0 });
    expect((await passwordStep(alice.email, PASSWORD, laptop)).response.statusCode).toBe(202);
    expect((await passwordStep(alice.email, PASSWORD, tablet)).response.statusCode).toBe(202);
    // Her sessions stay open: only the code's shortcut goes.
    expect((await me(alice.cookie)).statusCode).toBe(200);
    // Bob's remembered browser is his own: untouched.
    expect(await status(bob.cookie)).toEqual({ enabled: true, remembered_devices: 1 });
    expect((await passwordStep(bob.email, PASSWORD, bobs)).response.statusCode).toBe(200);
    const audit = await ctx.database.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("subject_id", "=", alice.id)
      .where("action", "=", TWO_FACTOR_ACTIONS.devicesForgotten)
      .execute();
    expect(audit.map((row) => [row.action, row.details])).toEqual([
      [TWO_FACTOR_ACTIONS.devicesForgotten, { forgotten: 2 }],
    ]);
  });

  it("reads the remembered device's whole name in the plugin's cookie (its random part has « - » and « _ »)", () => {
    const headers = new Headers();
    headers.append("set-cookie", "sourio.session_token=abc.def; Path=/; HttpOnly");
    headers.append(
      "set-cookie",
      "sourio.trust_device=tok!trust-device-a-Zq_9-xY_0123456789abcdefghijkl.c2lnbmF0dXJl%3D; Max-Age=2592000; Path=/",
    );
    expect(rememberedDeviceIn(headers)).toBe("trust-device-a-Zq_9-xY_0123456789abcdefghijkl");
    expect(
      rememberedDeviceIn(new Headers({ "set-cookie": "sourio.trust_device=; Max-Age=0; Path=/" })),
    ).toBeNull();
    expect(rememberedDeviceIn(null)).toBeNull();
  });

  it("forgets a device when one ends its session in « Appareils connectés », and only that one", async () => {
    const alice = await patientWithTwoFactor();
    const laptop = await rememberedBrowser(alice.email, alice.uri);
    const tablet = await rememberedBrowser(alice.email, alice.uri, Date.now() + 30_000);
    /** The id of the session a browser holds, as « Appareils connectés » lists it. */
    const sessionOf = async (cookie: string) => {
      const list = await ctx.app.inject({ method: "GET", url: "/api/account/sessions", headers: { cookie } });
      return (list.json().sessions as Array<{ id: string; current: boolean }>).find((s) => s.current)?.id;
    };
    const end = async (cookie: string) =>
      (
        await ctx.app.inject({
          method: "DELETE",
          url: `/api/account/sessions/${await sessionOf(cookie)}`,
          headers: { cookie: alice.cookie, "user-agent": CHROME_WINDOWS },
        })
      ).statusCode;
    expect(await end(laptop)).toBe(200);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 1 });
    expect((await passwordStep(alice.email, PASSWORD, laptop)).response.statusCode).toBe(202);
    // The tablet, still remembered, signs in with the password alone; that sign-in renews what it
    // remembers, on its new session: ending that one forgets the tablet too.
    const again = await passwordStep(alice.email, PASSWORD, tablet);
    expect(again.response.statusCode).toBe(200);
    expect(await end(again.cookie)).toBe(200);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 0 });
    expect((await passwordStep(alice.email, PASSWORD, again.cookie)).response.statusCode).toBe(202);
  });

  it("forgets every other device when « Déconnecter les autres appareils », not this one", async () => {
    const alice = await patientWithTwoFactor();
    const laptop = await rememberedBrowser(alice.email, alice.uri);
    const tablet = await rememberedBrowser(alice.email, alice.uri, Date.now() + 30_000);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 2 });
    const response = await ctx.app.inject({
      method: "DELETE",
      url: "/api/account/sessions",
      headers: { cookie: laptop, "user-agent": CHROME_WINDOWS },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().revoked).toBe(2);
    // The laptop's own memory stays: it signs in again with the password alone; the tablet asks the code.
    expect(await status(laptop)).toEqual({ enabled: true, remembered_devices: 1 });
    expect((await passwordStep(alice.email, PASSWORD, tablet)).response.statusCode).toBe(202);
    expect((await passwordStep(alice.email, PASSWORD, laptop)).response.statusCode).toBe(200);
  });
});

describe("removed by the team (ADR 098)", () => {
  const remove = (id: string, cookie: string) =>
    ctx.app.inject({ method: "DELETE", url: `/api/admin/users/${id}/two-factor`, headers: { cookie } });
  const listed = async (cookie: string, email: string) =>
    (
      await ctx.app.inject({
        method: "GET",
        url: `/api/admin/users?role=patient&search=${encodeURIComponent(email)}`,
        headers: { cookie },
      })
    ).json().items[0];

  it("is for the administrators only, on a patient's or a dentist's account that has it", async () => {
    const alice = await patientWithTwoFactor();
    const bob = await patient();
    expect((await remove(alice.id, "")).statusCode).toBe(401);
    expect((await remove(alice.id, bob.cookie)).statusCode).toBe(403);
    const admin = await signInAdmin(ctx.app);
    const none = await remove(bob.id, admin.cookie);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(ADMIN_MESSAGES.twoFactorNotOn);
    const self = await remove(admin.id, admin.cookie);
    expect(self.statusCode).toBe(409);
    expect(self.json().error.message).toBe(ADMIN_MESSAGES.twoFactorNotHere);
    expect((await remove("00000000-0000-4000-8000-000000000000", admin.cookie)).statusCode).toBe(404);
    expect(await status(alice.cookie)).toEqual({ enabled: true, remembered_devices: 0 });
  });

  it("signs the person out everywhere, forgets her remembered devices, and tells her", async () => {
    const { email, id, cookie, uri } = await patientWithTwoFactor();
    // A device remembered for 30 days.
    const pending = await passwordStep(email);
    const remembered = jar(await codeStep(pending.cookie, totpCode(uri), true), pending.cookie);
    const admin = await signInAdmin(ctx.app);
    expect((await listed(admin.cookie, email)).two_factor_enabled).toBe(true);

    const removed = await remove(id, admin.cookie);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe(ADMIN_MESSAGES.twoFactorRemoved);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(remembered)).statusCode).toBe(401);
    expect((await listed(admin.cookie, email)).two_factor_enabled).toBe(false);
    expect((await passwordStep(email)).response.statusCode).toBe(200);
    expect(await mailsAbout(email, "notre équipe a retiré la double authentification")).toHaveLength(1);
    const audit = await ctx.database.db
      .selectFrom("audit_log")
      .select(["actor_id", "action"])
      .where("subject_id", "=", id)
      .where("action", "=", "account.two_factor_removed")
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id, action: "account.two_factor_removed" }]);
    // Turned on again, the device remembered before asks the code like any other.
    const again = await passwordStep(email);
    const setup = await post("/api/account/two-factor/setup", jar(again.response), { password: PASSWORD });
    const next = setup.json().totp_uri as string;
    await post("/api/account/two-factor/confirm", jar(again.response), { code: totpCode(next) });
    expect((await passwordStep(email, PASSWORD, remembered)).response.statusCode).toBe(202);
  });
});

it("logs in an account without it in one step, as before", async () => {
  const { email } = await patient();
  const { response } = await logIn(email, PASSWORD, CHROME_WINDOWS);
  expect(response.statusCode).toBe(200);
});

describe("a server started with another AUTH_SECRET than the one the keys were stored with", () => {
  it("answers the code step 503 in French, not 500, and the start-up check says so", async () => {
    const { email, uri } = await patientWithTwoFactor();
    const db = ctx.database.db;
    expect(await twoFactorKeysReadable(db, ctx.app.auth)).toBe(true);
    // Every stored key as another installation's AUTH_SECRET wrote it (a restore without its secret).
    const stored = await db.selectFrom("two_factors").select(["id", "secret"]).execute();
    const foreign = await symmetricEncrypt({
      key: "le-secret-d-une-autre-installation-0123456789",
      data: new URL(uri).searchParams.get("secret") ?? "",
    });
    await db.updateTable("two_factors").set({ secret: foreign }).execute();
    try {
      expect(await twoFactorKeysReadable(db, ctx.app.auth)).toBe(false);
      const pending = await passwordStep(email);
      expect(pending.response.statusCode).toBe(202);
      const refused = await codeStep(pending.cookie, totpCode(uri));
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        message: TWO_FACTOR_MESSAGES.keysUnreadable,
      });
    } finally {
      for (const row of stored)
        await db.updateTable("two_factors").set({ secret: row.secret }).where("id", "=", row.id).execute();
    }
  });
});
