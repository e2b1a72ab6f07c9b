import { describe, expect, it } from "vitest";
import { ensureAdmin } from "./bootstrap";
import { appPerFile, sessionCookie, signUpPatient } from "./testing/harness";

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
