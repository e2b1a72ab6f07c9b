import { describe, expect, it } from "vitest";
import { ensureAdmin } from "./bootstrap";
import { appPerFile, signUpPatient } from "./testing/harness";

const ctx = appPerFile();

const login = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/account/login", payload: { email, password } });
const deps = () => ({ db: ctx.app.db, auth: ctx.app.auth });

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

  it("promotes an existing account and sets its password", async () => {
    const { body } = await signUpPatient(ctx.app);
    expect(await ensureAdmin(deps(), String(body.email), "new-admin-pass")).toBe("updated");
    const response = await login(String(body.email), "new-admin-pass");
    expect(response.json().profile).toMatchObject({ is_admin: true, first_name: "Marie" });
  });
});
