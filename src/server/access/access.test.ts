import { describe, expect, it } from "vitest";
import { ensureAdmin } from "../bootstrap";
import { appPerFile, postRequest, sessionCookie, signUpDentist, signUpPatient } from "../testing/harness";

/**
 * The rules of src/server/access through the API: admins are not patients, and a route about
 * someone else's object answers 404 before it looks at the body (the full grid is the matrix test).
 */
const ctx = appPerFile();

const login = async (email: string, password: string) => {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/account/login",
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { cookie: sessionCookie(response), profile: response.json().profile };
};
const get = (url: string, cookie?: string) =>
  ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

describe("admins are not patients", () => {
  it("an administrator made by ADMIN_EMAIL / create-admin has no role and no patient area", async () => {
    await ensureAdmin({ db: ctx.app.db, auth: ctx.app.auth }, "chef@example.com", "admin-secret");
    const { cookie, profile } = await login("chef@example.com", "admin-secret");
    expect(profile).toMatchObject({ is_admin: true, role: null });
    expect((await get("/api/admin/stats", cookie)).statusCode).toBe(200);
    for (const url of ["/api/patient/dashboard", "/api/patient/requests", "/api/dentist/requests"])
      expect((await get(url, cookie)).statusCode, url).toBe(403);
    const filed = await postRequest(ctx.app, cookie, {
      treatment_type: "crown",
      consent: "true",
      document_types: '["quote"]',
    });
    expect(filed.statusCode).toBe(403);
    const count = await ctx.app.db
      .selectFrom("requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("a patient promoted to admin stays a patient: that was their choice", async () => {
    const { body } = await signUpPatient(ctx.app);
    await ensureAdmin({ db: ctx.app.db, auth: ctx.app.auth }, String(body.email), "admin-secret");
    const { cookie, profile } = await login(String(body.email), "admin-secret");
    expect(profile).toMatchObject({ is_admin: true, role: "patient" });
    expect((await get("/api/patient/dashboard", cookie)).statusCode).toBe(200);
    expect((await get("/api/admin/stats", cookie)).statusCode).toBe(200);
  });
});

describe("who asks comes before what is asked", () => {
  it("401 then 404 before any 400 on a route about an object", async () => {
    const stranger = await signUpPatient(ctx.app);
    const dentist = await signUpDentist(ctx.app);
    const missing = "00000000-0000-4000-8000-000000000000";
    const bad = { starts_at: "pas une date", extra: "\u0000" };
    const post = (url: string, cookie?: string) =>
      ctx.app.inject({ method: "POST", url, payload: bad, headers: cookie ? { cookie } : {} });
    expect((await post(`/api/appointments/${missing}/confirm`)).statusCode).toBe(401);
    expect((await post(`/api/appointments/${missing}/confirm`, stranger.cookie)).statusCode).toBe(404);
    expect((await post(`/api/appointments/${missing}/propose`, stranger.cookie)).statusCode).toBe(404);
    expect((await post(`/api/patient/offers/${missing}/appointment`, stranger.cookie)).statusCode).toBe(404);
    // An unverified dentist sees no request: 404, as for any request it may not see.
    expect((await post(`/api/dentist/requests/${missing}/offers`, dentist.cookie)).statusCode).toBe(404);
    // Another area: 403.
    expect((await post(`/api/patient/offers/${missing}/appointment`, dentist.cookie)).statusCode).toBe(403);
  });
});
