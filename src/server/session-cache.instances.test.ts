import { afterEach, describe, expect, it, vi } from "vitest";
import {
  appPerFile,
  sessionCookie,
  signUpPatient,
  type TestContext,
  twoInstancesPerFile,
} from "./testing/harness";
import { api, dentist, signInAdmin } from "./testing/people";
import { cachedOnBoth as cachedOnBothInstances } from "./testing/session-cache";

/*
 * The session cache (ADR 026) is safe: what ends a session or changes a person's rights takes effect
 * on the next request, on the instance that made the change and on the other one. Run on one
 * instance (PGlite or PostgreSQL) and, with TEST_DATABASE_URL, on two instances of one PostgreSQL
 * database (as behind a load balancer; the invalidation travels through LISTEN/NOTIFY).
 */

const PASSWORD = "Sourire-Sain-2026";

function scenarios(instances: () => { a: TestContext; b: TestContext }) {
  const get = (ctx: TestContext, url: string, cookie: string) => api(ctx).get(url, cookie);
  const post = (ctx: TestContext, url: string, payload: object, cookie: string) =>
    api(ctx).post(url, payload, cookie);

  const cachedOnBoth = (url: string, cookie: string) => cachedOnBothInstances(instances(), url, cookie);

  it("a signed-out session is refused at once on both instances", async () => {
    const { a, b } = instances();
    const { cookie } = await signUpPatient(a.app);
    await cachedOnBoth("/api/me", cookie);
    expect((await post(a, "/api/account/logout", {}, cookie)).statusCode).toBe(200);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });

  it("a password change ends the other sessions at once on both instances", async () => {
    const { a, b } = instances();
    const { cookie: other, body } = await signUpPatient(a.app);
    const login = await a.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: PASSWORD },
    });
    const current = sessionCookie(login);
    await cachedOnBoth("/api/me", other);
    const change = await post(
      b,
      "/api/account/password",
      {
        current_password: PASSWORD,
        new_password: "Nouveau-Sourire-2027",
        new_password_confirmation: "Nouveau-Sourire-2027",
      },
      current,
    );
    expect(change.statusCode).toBe(200);
    expect((await get(a, "/api/me", other)).statusCode).toBe(401);
    expect((await get(b, "/api/me", other)).statusCode).toBe(401);
    // The session that changed it goes on (with its new cookie).
    const cookies = change.cookies as Array<{ name: string; value: string }>;
    const renewed = cookies.filter((c) => c.name.endsWith("session_token")).at(-1);
    expect((await get(a, "/api/me", `${renewed?.name}=${renewed?.value}`)).statusCode).toBe(200);
  });

  it("a de-verified dentist loses the requests at once on both instances", async () => {
    const { a, b } = instances();
    const admin = (await signInAdmin(a.app)).cookie;
    const { id, cookie } = await dentist(a.app);
    await cachedOnBoth("/api/dentist/requests", cookie);
    expect((await get(b, "/api/me", cookie)).json().profile.is_verified).toBe(true);
    const decided = await post(
      a,
      `/api/admin/dentists/${id}/verification`,
      { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
      admin,
    );
    expect(decided.statusCode).toBe(200);
    // What the actor carries (the requests' visibility reads it) is the new state, on both instances.
    expect((await get(b, "/api/me", cookie)).json().profile.is_verified).toBe(false);
    expect((await get(a, "/api/me", cookie)).json().profile.is_verified).toBe(false);
  });

  it("an erased account is signed out at once on both instances", async () => {
    const { a, b } = instances();
    const { cookie } = await signUpPatient(a.app);
    await cachedOnBoth("/api/me", cookie);
    const erased = await a.app.inject({
      method: "POST",
      url: "/api/account/delete",
      payload: { password: PASSWORD },
      headers: { cookie },
    });
    expect(erased.statusCode).toBe(200);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });

  it("a suspended account is signed out at once on both instances (ADR 092)", async () => {
    const { a, b } = instances();
    const admin = (await signInAdmin(a.app)).cookie;
    const { cookie, response } = await signUpPatient(a.app);
    const id = response.json().profile.id as string;
    await cachedOnBoth("/api/me", cookie);
    const suspended = await post(a, `/api/admin/users/${id}/suspension`, { reason: "Fraude" }, admin);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });
}

describe("session cache on one instance", () => {
  const ctx = appPerFile();
  afterEach(() => {
    vi.useRealTimers();
  });
  scenarios(() => ({ a: ctx, b: ctx }));

  it("answers a signed-in request from the cache, a session not remembered too", async () => {
    const { body } = await signUpPatient(ctx.app);
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: PASSWORD, remember_me: false },
    });
    const cookie = (login.cookies as Array<{ name: string; value: string }>)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    expect(cookie).toContain("dont_remember");
    // The sign-up's and sign-in's writes notify (migration 030); on PostgreSQL that arrives on its own
    // time and would empty the cache between the calls below. Wait until it has been handled.
    await ctx.app.bus.sync();
    const getSession = vi.spyOn(ctx.app.auth.api, "getSession");
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).statusCode,
        ).toBe(200);
      expect(getSession).toHaveBeenCalledTimes(1);
    } finally {
      getSession.mockRestore();
    }
  });

  it("refuses an expired session even while it is cached", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    expect((await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).statusCode).toBe(
      200,
    );
    // 30 days and a minute later: the session has ended (the cache never outlives it).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 30 * 24 * 60 * 60_000 + 60_000);
    expect((await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).statusCode).toBe(
      401,
    );
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("session cache on two instances of one PostgreSQL", () => {
  const pair = twoInstancesPerFile();
  scenarios(() => pair);
});
