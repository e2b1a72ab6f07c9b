import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { appPerFile, sessionCookie, signUpPatient } from "./harness";

/**
 * The calls and people of the account-security tests (password change, signed-in devices): a
 * patient on two devices, the e-mails and audit rows they get, and an app whose clock can be moved.
 */

export const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
export const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

/** The body of a password change: the current password, the new one and its confirmation (the new one unless given). */
export const passwordChange = (current: string, next: string, confirmation = next) => ({
  current_password: current,
  new_password: next,
  new_password_confirmation: confirmation,
});

const headersOf = (cookie?: string, userAgent?: string) => ({
  ...(cookie ? { cookie } : {}),
  ...(userAgent ? { "user-agent": userAgent } : {}),
});

/** The session cookie a response clears, if any. */
export function clearedCookie(response: LightMyRequestResponse) {
  const cookies = response.cookies as Array<{ name: string; value: string; maxAge?: number }>;
  return cookies.find((c) => c.name.endsWith("session_token"));
}

/**
 * One app for the test file (call at its top level), whose clock runs `clock.offsetMs` ahead of the
 * real time, and the calls made to it.
 */
export function accountSecurityApp() {
  const clock = { offsetMs: 0 };
  const ctx = appPerFile({
    env: { LOGIN_RATE_LIMIT_PER_IP: "1000" },
    clock: () => new Date(Date.now() + clock.offsetMs),
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

  /** The « mot de passe modifié » e-mails sent to this address (not the new sign-ins' ones, ADR 082). */
  const passwordChangedMailsTo = async (email: string) =>
    (await ctx.mails()).filter(
      (mail) => mail.includes(`To: ${email}`) && mail.includes("Le mot de passe de votre compte"),
    );

  async function auditActions(userId: string): Promise<string[]> {
    const rows = await ctx.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("actor_id", "=", userId)
      .orderBy("created_at")
      .execute();
    return rows.map((row) => row.action);
  }

  return {
    ctx,
    clock,
    logIn,
    me,
    changePassword,
    listSessions,
    revoke,
    patientOnTwoDevices,
    passwordChangedMailsTo,
    auditActions,
  };
}
