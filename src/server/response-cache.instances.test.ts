import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import {
  appPerFile,
  postRequest,
  signUpPatient,
  type TestContext,
  twoInstancesPerFile,
} from "./testing/harness";
import { api, dentist, signInAdmin } from "./testing/people";

/*
 * The response cache (ADR 030) never shows what changed: a write, whoever makes it and on whichever
 * instance, is in the next answer. Run on one instance (PGlite or PostgreSQL) and, with
 * TEST_DATABASE_URL, on two instances of one PostgreSQL database, the write going through one and the
 * read through the other. Each scenario first proves the answer was served from the cache, so that
 * the freshness it checks is the cache's and not a fresh query's.
 */

function scenarios(instances: () => { a: TestContext; b: TestContext }) {
  const get = (ctx: TestContext, url: string, cookie: string) => api(ctx).get(url, cookie);
  const verifiedDentist = (ctx: TestContext) => dentist(ctx.app);

  /** Asks twice; the second answer must come from the cache and equal the first. */
  async function cachedOn(ctx: TestContext, url: string, cookie: string) {
    // The setup's own writes reach this instance's listener first (a change arriving while the
    // first answer is computed rightly keeps it out of the cache).
    await ctx.app.bus.sync();
    const first = await get(ctx, url, cookie);
    expect(first.statusCode).toBe(200);
    const hits = ctx.app.responseCache.stats.hits;
    const second = await get(ctx, url, cookie);
    expect(second.statusCode).toBe(200);
    expect(ctx.app.responseCache.stats.hits).toBe(hits + 1);
    expect(second.headers["content-type"]).toMatch(/^application\/json/);
    expect(second.json()).toEqual(first.json());
    return second.json();
  }

  it("a request sent through one instance is in the dentist's next list on the other", async () => {
    const { a, b } = instances();
    const dentist = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    const before = await cachedOn(a, "/api/dentist/requests", dentist.cookie);
    await cachedOn(a, "/api/dentist/dashboard", dentist.cookie);
    const sent = await postRequest(b.app, patient.cookie, { treatment_type: "crown", consent: "true" });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().id as string;
    const after = (await get(a, "/api/dentist/requests", dentist.cookie)).json();
    expect(after.items.map((r: { id: string }) => r.id)).toContain(id);
    expect(after.items.length).toBe(Math.min(before.items.length + 1, before.page_size));
    const dashboard = (await get(a, "/api/dentist/dashboard", dentist.cookie)).json();
    expect(dashboard.recent_requests.map((r: { id: string }) => r.id)).toContain(id);
  });

  it("a write made outside the app's services (an operator's SQL) is in the next answer", async () => {
    const { a, b } = instances();
    const dentist = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    const sent = await postRequest(a.app, patient.cookie, { treatment_type: "implant", consent: "true" });
    const id = sent.json().id as string;
    const list = await cachedOn(a, "/api/dentist/requests", dentist.cookie);
    const row = list.items.find((r: { id: string }) => r.id === id);
    expect(row.patient_name).toContain("Marie");
    await sql`update profiles set full_name = 'Camille Renard' where id = ${patient.response.json().profile.id}`.execute(
      b.app.db,
    );
    const next = (await get(a, "/api/dentist/requests", dentist.cookie)).json();
    expect(next.items.find((r: { id: string }) => r.id === id).patient_name).toContain("Camille");
  });

  it("a dentist de-verified on the other instance is refused, not served his cached list", async () => {
    const { a, b } = instances();
    const admin = await signInAdmin(b.app);
    const verified = await verifiedDentist(a);
    const list = await cachedOn(a, "/api/dentist/requests", verified.cookie);
    expect(list.verified).toBe(true);
    const decided = await api(b).post(
      `/api/admin/dentists/${verified.id}/verification`,
      { decision: "unverify" },
      admin,
    );
    expect(decided.statusCode).toBe(200);
    const next = await get(a, "/api/dentist/requests", verified.cookie);
    expect(next.statusCode === 200 ? next.json().verified : false).toBe(false);
    expect(next.statusCode === 200 ? next.json().items : []).toEqual([]);
  });

  it("one person's cached answer is never another's", async () => {
    const { a } = instances();
    const first = await verifiedDentist(a);
    const second = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    // Addressed to the first dentist only: the second must not see it, cached or not.
    const sent = await postRequest(a.app, patient.cookie, {
      treatment_type: "crown",
      consent: "true",
      recipient: first.id,
    });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().id as string;
    const mine = await cachedOn(a, "/api/dentist/requests", first.cookie);
    expect(mine.items.map((r: { id: string }) => r.id)).toContain(id);
    const theirs = await cachedOn(a, "/api/dentist/requests", second.cookie);
    expect(theirs.items.map((r: { id: string }) => r.id)).not.toContain(id);
  });
}

describe("response cache on one instance", () => {
  const ctx = appPerFile();
  beforeAll(() => ctx.app.bus.listening());
  scenarios(() => ({ a: ctx, b: ctx }));

  it("a patient's own screens are not cached, nor a refused request", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const before = { ...ctx.app.responseCache.stats };
    for (let i = 0; i < 2; i++) {
      expect(
        (await ctx.app.inject({ method: "GET", url: "/api/patient/requests", headers: { cookie } }))
          .statusCode,
      ).toBe(200);
      expect(
        (await ctx.app.inject({ method: "GET", url: "/api/dentist/requests", headers: { cookie } }))
          .statusCode,
      ).toBe(403);
    }
    expect(ctx.app.responseCache.stats).toEqual(before);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("response cache on two instances of one PostgreSQL", () => {
  const pair = twoInstancesPerFile();
  scenarios(() => pair);
});
