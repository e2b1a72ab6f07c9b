import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "../../../shared/schemas/account";
import { ensureAdmin } from "../../bootstrap";
import { appPerFile, sessionCookie, signUpDentist, signUpPatient, uniqueEmail } from "../../testing/harness";
import {
  MAX_WRONG_CURRENT_PASSWORDS,
  SECURITY_ACTIONS,
  WRONG_CURRENT_PASSWORD_WINDOW_MS,
} from "./security.service";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

/** The app's clock runs this far ahead of the real time (moved by the throttle test). */
let offsetMs = 0;
const ctx = appPerFile({
  env: { LOGIN_RATE_LIMIT_PER_IP: "1000" },
  clock: () => new Date(Date.now() + offsetMs),
});

const headersOf = (cookie?: string, userAgent?: string) => ({
  ...(cookie ? { cookie } : {}),
  ...(userAgent ? { "user-agent": userAgent } : {}),
});

async function logIn(email: string, password: string, userAgent: string) {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/account/login",
    headers: headersOf(undefined, userAgent),
    payload: { email, password, remember_me: true },
  });
  return { response, cookie: response.statusCode === 200 ? sessionCookie(response) : "" };
}

const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
const changePassword = (cookie: string, payload: object, userAgent = CHROME_WINDOWS) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/account/password",
    headers: headersOf(cookie, userAgent),
    payload,
  });
const listSessions = (cookie: string, userAgent = CHROME_WINDOWS) =>
  ctx.app.inject({ method: "GET", url: "/api/account/sessions", headers: headersOf(cookie, userAgent) });
const revoke = (cookie: string, id: string) =>
  ctx.app.inject({
    method: "DELETE",
    url: `/api/account/sessions/${encodeURIComponent(id)}`,
    headers: { cookie },
  });

/** A patient signed in on two devices: a Windows PC (a) and an iPhone (b). */
async function patientOnTwoDevices() {
  const { body, cookie } = await signUpPatient(ctx.app, { password: "ancien-secret" });
  // Only the two devices: the sign-up's own session ends.
  await ctx.app.inject({ method: "POST", url: "/api/account/logout", headers: { cookie } });
  const a = await logIn(body.email, "ancien-secret", CHROME_WINDOWS);
  const b = await logIn(body.email, "ancien-secret", SAFARI_IPHONE);
  expect(a.response.statusCode).toBe(200);
  expect(b.response.statusCode).toBe(200);
  const id = a.response.json().profile.id as string;
  return { email: body.email, id, a: a.cookie, b: b.cookie };
}

const mailsTo = (email: string) => ctx.outbox().filter((mail) => mail.includes(`To: ${email}`));

async function auditActions(userId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .selectFrom("audit_log")
    .select("action")
    .where("actor_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => row.action);
}

function clearedCookie(response: LightMyRequestResponse) {
  const cookies = response.cookies as Array<{ name: string; value: string; maxAge?: number }>;
  return cookies.find((c) => c.name.endsWith("session_token"));
}

describe("anonymous callers", () => {
  it("get 401 on the three routes, before the body or the id is looked at", async () => {
    const responses = await Promise.all([
      ctx.app.inject({ method: "POST", url: "/api/account/password", payload: { current_password: 1 } }),
      ctx.app.inject({ method: "GET", url: "/api/account/sessions" }),
      ctx.app.inject({ method: "DELETE", url: "/api/account/sessions/pas-un-id" }),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toMatchObject({
        code: "UNAUTHENTICATED",
        message: "Veuillez vous connecter pour continuer.",
      });
    }
  });
});

describe("POST /api/account/password", () => {
  it("refuses a wrong current password in French and changes nothing", async () => {
    const { email, id, a, b } = await patientOnTwoDevices();
    const response = await changePassword(a, {
      current_password: "pas-le-bon",
      new_password: "nouveau-secret",
      new_password_confirmation: "nouveau-secret",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: SECURITY_MESSAGES.currentPasswordWrong,
      fields: { current_password: SECURITY_MESSAGES.currentPasswordWrong },
    });
    expect(response.headers["set-cookie"]).toBeUndefined();
    // Both sessions alive, the old password still works, the new one does not, no e-mail.
    expect((await me(a)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(200);
    expect((await logIn(email, "ancien-secret", CHROME_WINDOWS)).response.statusCode).toBe(200);
    expect((await logIn(email, "nouveau-secret", CHROME_WINDOWS)).response.statusCode).toBe(401);
    expect(mailsTo(email)).toEqual([]);
    expect(await auditActions(id)).toEqual([SECURITY_ACTIONS.passwordChangeRefused]);
  });

  it("checks the new password with the sign-up rule and the confirmation, in French", async () => {
    const { a } = await patientOnTwoDevices();
    const refused: Array<[Record<string, string>, string, string]> = [
      [
        { current_password: "ancien-secret", new_password: "12345", new_password_confirmation: "12345" },
        "new_password",
        "Le mot de passe doit contenir au moins 8 caractères",
      ],
      [
        {
          current_password: "ancien-secret",
          new_password: "nouveau-secret",
          new_password_confirmation: "autre-secret",
        },
        "new_password_confirmation",
        "Les mots de passe ne correspondent pas",
      ],
      [
        {
          current_password: "ancien-secret",
          new_password: "ancien-secret",
          new_password_confirmation: "ancien-secret",
        },
        "new_password",
        SECURITY_MESSAGES.newPasswordSame,
      ],
      [{ new_password: "nouveau-secret" }, "current_password", SECURITY_MESSAGES.currentPasswordRequired],
    ];
    for (const [body, field, message] of refused) {
      const response = await changePassword(a, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.fields[field], JSON.stringify(body)).toBe(message);
    }
    expect((await me(a)).statusCode).toBe(200);
  });

  it("changes the password, keeps this device signed in, signs the others out and e-mails the person", async () => {
    const { email, id, a, b } = await patientOnTwoDevices();
    const response = await changePassword(a, {
      current_password: "ancien-secret",
      new_password: "nouveau-secret",
      new_password_confirmation: "nouveau-secret",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SECURITY_MESSAGES.passwordChanged });
    expect(response.body).not.toContain("nouveau-secret");

    // This device continues on the new session cookie; the other device is signed out.
    const renewed = sessionCookie(response);
    expect(renewed).not.toBe(a);
    expect((await me(renewed)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(a)).statusCode).toBe(401);
    const sessions = (await listSessions(renewed)).json().sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ current: true, device: "Chrome sur Windows" });

    expect((await logIn(email, "ancien-secret", CHROME_WINDOWS)).response.statusCode).toBe(401);
    expect((await logIn(email, "nouveau-secret", SAFARI_IPHONE)).response.statusCode).toBe(200);

    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] ?? "";
    expect(mail).toContain("Bonjour Marie,");
    expect(mail).toContain("Le mot de passe de votre compte Sourio a été modifié le ");
    expect(mail).toContain("(Chrome sur Windows)");
    expect(mail).toContain("http://localhost:3000/forgot-password");
    expect(mail).not.toContain("nouveau-secret");
    expect(mail).not.toContain("ancien-secret");
    expect(await auditActions(id)).toEqual([SECURITY_ACTIONS.passwordChanged]);
  });

  it("works for a dentist too, whose e-mail points to the dentists' forgotten-password page", async () => {
    const { body, cookie } = await signUpDentist(ctx.app);
    const response = await changePassword(cookie, {
      current_password: body.password,
      new_password: "cabinet-secret",
      new_password_confirmation: "cabinet-secret",
    });
    expect(response.statusCode).toBe(200);
    expect(mailsTo(body.email)[0]).toContain("http://localhost:3000/dentist/forgot-password");
  });

  it("works for an admin, whose e-mail points to the admins' forgotten-password page", async () => {
    const email = uniqueEmail("admin");
    await ensureAdmin({ db: ctx.app.db, auth: ctx.app.auth }, email, "admin-secret");
    const { cookie } = await logIn(email, "admin-secret", CHROME_WINDOWS);
    const response = await changePassword(cookie, {
      current_password: "admin-secret",
      new_password: "admin-nouveau",
      new_password_confirmation: "admin-nouveau",
    });
    expect(response.statusCode).toBe(200);
    expect((await listSessions(sessionCookie(response))).json().sessions).toHaveLength(1);
    expect(mailsTo(email)[0]).toContain("http://localhost:3000/admin/forgot-password");
    expect((await logIn(email, "admin-nouveau", CHROME_WINDOWS)).response.statusCode).toBe(200);
  });

  it(`stops after ${MAX_WRONG_CURRENT_PASSWORDS} wrong current passwords in the window, even the right one`, async () => {
    const { a } = await patientOnTwoDevices();
    const attempt = (current: string) =>
      changePassword(a, {
        current_password: current,
        new_password: "nouveau-secret",
        new_password_confirmation: "nouveau-secret",
      });
    for (let i = 0; i < MAX_WRONG_CURRENT_PASSWORDS; i++)
      expect((await attempt(`essai-${i}`)).statusCode).toBe(400);
    const blocked = await attempt("ancien-secret");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: "RATE_LIMITED",
      message: SECURITY_MESSAGES.tooManyAttempts,
    });
    expect((await me(a)).statusCode).toBe(200);

    offsetMs = WRONG_CURRENT_PASSWORD_WINDOW_MS + 1000;
    try {
      expect((await attempt("ancien-secret")).statusCode).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("GET /api/account/sessions", () => {
  it("lists the caller's devices, newest first, this one marked, with no token anywhere", async () => {
    const { id, a, b } = await patientOnTwoDevices();
    const response = await listSessions(b, SAFARI_IPHONE);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const { sessions } = response.json();
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s: { device: string }) => s.device)).toEqual([
      "Safari sur iPhone",
      "Chrome sur Windows",
    ]);
    expect(sessions.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual(
        ["created_at", "current", "device", "expires_at", "id", "ip", "last_active_at"].sort(),
      );
      expect(session.ip).toBe("127.0.0.*");
      expect(new Date(session.expires_at).getTime()).toBeGreaterThan(Date.now());
    }
    const rows = await ctx.database.db
      .selectFrom("sessions")
      .select(["id", "token"])
      .where("user_id", "=", id)
      .execute();
    expect(rows.map((row) => row.id).sort()).toEqual(sessions.map((s: { id: string }) => s.id).sort());
    for (const row of rows) expect(response.body).not.toContain(row.token);
    for (const cookie of [a, b]) expect(response.body).not.toContain(cookie.split("=")[1]?.split(".")[0]);

    // From the other device, the other one is current.
    const fromA = (await listSessions(a)).json().sessions;
    expect(fromA.find((s: { current: boolean }) => s.current).device).toBe("Chrome sur Windows");
  });

  it("shows a dentist only their own sessions", async () => {
    await patientOnTwoDevices();
    const { cookie } = await signUpDentist(ctx.app);
    const { sessions } = (await listSessions(cookie)).json();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].current).toBe(true);
  });
});

describe("DELETE /api/account/sessions/:id", () => {
  it("signs another of the caller's devices out", async () => {
    const { a, b } = await patientOnTwoDevices();
    const other = (await listSessions(a)).json().sessions.find((s: { current: boolean }) => !s.current);
    const response = await revoke(a, other.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SECURITY_MESSAGES.sessionRevoked, signed_out: false });
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(a)).statusCode).toBe(200);
    const left = (await listSessions(a)).json().sessions;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    // Already gone: 404.
    expect((await revoke(a, other.id)).statusCode).toBe(404);
  });

  it("answers 404 for a stranger's session, which stays alive, and for ids that are none", async () => {
    const alice = await patientOnTwoDevices();
    const bob = await patientOnTwoDevices();
    const bobSession = (await listSessions(bob.a)).json().sessions[0];
    for (const id of [bobSession.id, "pas-un-id", "00000000-0000-4000-8000-000000000000", "x".repeat(90)]) {
      const response = await revoke(alice.a, id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error).toEqual({
        code: "NOT_FOUND",
        message: SECURITY_MESSAGES.sessionNotFound,
      });
    }
    expect((await me(bob.a)).statusCode).toBe(200);
    expect((await me(bob.b)).statusCode).toBe(200);
    expect((await listSessions(bob.a)).json().sessions).toHaveLength(2);
  });

  it("revoking the current session signs out and clears the cookie", async () => {
    const { a, b } = await patientOnTwoDevices();
    const current = (await listSessions(a)).json().sessions.find((s: { current: boolean }) => s.current);
    const response = await revoke(a, current.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SECURITY_MESSAGES.currentSessionRevoked, signed_out: true });
    const cleared = clearedCookie(response);
    expect(cleared?.value).toBe("");
    expect(cleared?.maxAge).toBe(0);
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(200);
  });
});

describe("Better Auth's own session endpoints", () => {
  it("are closed: /api/auth/list-sessions and /api/auth/revoke-session answer 404", async () => {
    const { a } = await patientOnTwoDevices();
    const list = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/list-sessions",
      headers: { cookie: a },
    });
    expect(list.statusCode).toBe(404);
    const revoked = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/revoke-session",
      headers: { cookie: a },
      payload: { token: "x" },
    });
    expect(revoked.statusCode).toBe(404);
    expect((await me(a)).statusCode).toBe(200);
  });
});
