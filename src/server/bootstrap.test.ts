import { describe, expect, it } from "vitest";
import { ensureAdmin, systemRemoveTwoFactor } from "./bootstrap";
import { appPerFile, sessionCookie, signUpPatient } from "./testing/harness";
import { totpCode } from "./testing/totp";

const ctx = appPerFile();

const login = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/account/login", payload: { email, password } });
const deps = () => ({ db: ctx.app.db, auth: ctx.app.auth });
const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });

describe("ensureAdmin", () => {
  it("creates an admin who can log in, and records it in the audit log", async () => {
    expect(await ensureAdmin(deps(), "Boss@Example.com", "admin-secret")).toBe("created");
    const response = await login("boss@example.com", "admin-secret");
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.is_admin).toBe(true);
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .selectAll()
      .where("subject_id", "=", response.json().profile.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain("admin.ensured");
  });

  it("leaves no session behind on an account it creates: nobody holds one, none shows as an unknown device", async () => {
    expect(await ensureAdmin(deps(), "chef@example.com", "admin-secret")).toBe("created");
    const sessionsOf = () =>
      ctx.app.db
        .selectFrom("sessions as s")
        .innerJoin("users as u", "u.id", "s.user_id")
        .select("s.id")
        .where("u.email", "=", "chef@example.com")
        .execute();
    expect(await sessionsOf()).toEqual([]);
    const cookie = sessionCookie(await login("chef@example.com", "admin-secret"));
    const devices = await ctx.app.inject({
      method: "GET",
      url: "/api/account/sessions",
      headers: { cookie },
    });
    expect(devices.json().sessions).toEqual([expect.objectContaining({ current: true })]);
  });

  it("promotes an existing account and sets its password", async () => {
    const { body } = await signUpPatient(ctx.app);
    expect(await ensureAdmin(deps(), String(body.email), "new-admin-pass")).toBe("updated");
    const response = await login(String(body.email), "new-admin-pass");
    expect(response.json().profile).toMatchObject({ is_admin: true, first_name: "Marie" });
  });

  it("ends the sessions of the account it promotes or whose password it sets, not an administrator's own at each start", async () => {
    // Whoever signed up with the address before it was made ADMIN_EMAIL keeps no session into the admin area.
    const { body, cookie } = await signUpPatient(ctx.app);
    expect((await me(cookie)).statusCode).toBe(200);
    await ensureAdmin(deps(), String(body.email), "admin-secret-1");
    expect((await me(cookie)).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/admin/stats", headers: { cookie } })).statusCode,
    ).toBe(401);

    // The administrator signs in; the next start, same password: his session stays.
    const admin = sessionCookie(await login(String(body.email), "admin-secret-1"));
    expect((await me(admin)).statusCode).toBe(200);
    await ensureAdmin(deps(), String(body.email), "admin-secret-1");
    expect((await me(admin)).statusCode).toBe(200);

    // A new ADMIN_PASSWORD (or `npm run create-admin` after a leak): sessions of the old one end.
    await ensureAdmin(deps(), String(body.email), "admin-secret-2");
    expect((await me(admin)).statusCode).toBe(401);
    expect((await login(String(body.email), "admin-secret-2")).statusCode).toBe(200);
  });
});

describe("systemRemoveTwoFactor (npm run create-admin -- --remove-two-factor)", () => {
  it("takes two-step sign-in off an administrator's account: the password alone signs in, her sessions end", async () => {
    await ensureAdmin(deps(), "vigie@example.com", "admin-secret");
    const cookie = sessionCookie(await login("vigie@example.com", "admin-secret"));
    const post = (url: string, payload: object, from = cookie) =>
      ctx.app.inject({ method: "POST", url, headers: { cookie: from }, payload });
    const setup = await post("/api/account/two-factor/setup", { password: "admin-secret" });
    const confirmed = await post("/api/account/two-factor/confirm", {
      code: totpCode(setup.json().totp_uri),
    });
    expect(confirmed.statusCode).toBe(200);
    const renewed = sessionCookie(confirmed);
    expect((await me(renewed)).statusCode).toBe(200);
    expect((await login("vigie@example.com", "admin-secret")).statusCode).toBe(202);
    // No administrator can remove it from the screens: the server's operator can.
    expect(await systemRemoveTwoFactor(deps(), " Vigie@Example.com ")).toBe(true);
    expect((await me(renewed)).statusCode).toBe(401);
    const again = await login("vigie@example.com", "admin-secret");
    expect(again.statusCode).toBe(200);
    const id = again.json().profile.id as string;
    expect(
      await ctx.app.db.selectFrom("two_factors").select("id").where("user_id", "=", id).execute(),
    ).toEqual([]);
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("subject_id", "=", id)
      .where("action", "=", "account.two_factor_removed_on_server")
      .execute();
    expect(audit).toEqual([{ action: "account.two_factor_removed_on_server", actor_id: null }]);
    // Nothing to remove any more; an unknown address is no account.
    expect(await systemRemoveTwoFactor(deps(), "vigie@example.com")).toBe(false);
    expect(await systemRemoveTwoFactor(deps(), "personne@example.com")).toBe(false);
  });
});
