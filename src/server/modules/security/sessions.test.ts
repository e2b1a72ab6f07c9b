import { describe, expect, it } from "vitest";
import { otherSessionsRevokedMessage, SECURITY_MESSAGES } from "../../../shared/schemas/account";
import { accountSecurityApp, clearedCookie, SAFARI_IPHONE } from "../../testing/account-security";
import { signUpDentist } from "../../testing/harness";

/** The caller's signed-in devices (GET and DELETE /api/account/sessions); password changes are in security.test.ts. */

const { ctx, me, logIn, listSessions, revoke, patientOnTwoDevices } = accountSecurityApp();

describe("GET /api/account/sessions", () => {
  it("lists the caller's devices, newest first, this one marked, with no token anywhere", async () => {
    const { id, a, b } = await patientOnTwoDevices();
    const response = await listSessions(b, SAFARI_IPHONE);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, no-store");
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

describe("DELETE /api/account/sessions", () => {
  const revokeOthers = (cookie: string) =>
    ctx.app.inject({ method: "DELETE", url: "/api/account/sessions", headers: { cookie } });

  it("signs every other device of the caller out; this one and a stranger's stay signed in", async () => {
    const alice = await patientOnTwoDevices();
    const third = await logIn(alice.email, "ancien-secret", SAFARI_IPHONE);
    const bob = await patientOnTwoDevices();
    const response = await revokeOthers(alice.a);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: otherSessionsRevokedMessage(2), revoked: 2 });
    expect(response.json().message).toBe("Les 2 autres appareils ont été déconnectés de votre compte.");
    expect((await me(alice.a)).statusCode).toBe(200);
    expect((await me(alice.b)).statusCode).toBe(401);
    expect((await me(third.cookie)).statusCode).toBe(401);
    for (const cookie of [bob.a, bob.b]) expect((await me(cookie)).statusCode).toBe(200);
    const left = (await listSessions(alice.a)).json().sessions;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);

    // Nothing left to sign out: said so, and this device stays.
    const again = await revokeOthers(alice.a);
    expect(again.json()).toEqual({ message: SECURITY_MESSAGES.noOtherSession, revoked: 0 });
    expect((await me(alice.a)).statusCode).toBe(200);
    // One other: said in the singular.
    expect((await revokeOthers(bob.b)).json()).toEqual({
      message: "L'autre appareil a été déconnecté de votre compte.",
      revoked: 1,
    });
    expect((await me(bob.a)).statusCode).toBe(401);
  });

  it("answers 401 to a signed-out caller and to a device already signed out elsewhere", async () => {
    const { a, b } = await patientOnTwoDevices();
    expect((await revokeOthers("")).statusCode).toBe(401);
    expect((await revokeOthers(b)).statusCode).toBe(200);
    const response = await revokeOthers(a);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("UNAUTHENTICATED");
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
