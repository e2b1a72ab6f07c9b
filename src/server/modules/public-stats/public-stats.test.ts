import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_STATS_MESSAGES, roundedDownBelow } from "../../../shared/schemas/publicStats";
import { createTestContext, signUpPatient, type TestContext } from "../../testing/harness";
import { PUBLIC_STATS_PER_MINUTE, PUBLIC_STATS_TTL_MS } from "./public-stats.routes";

let ctx: TestContext;
let now = new Date("2026-11-21T09:00:00Z");
beforeAll(async () => {
  ctx = await createTestContext({ clock: () => now });
});
afterAll(async () => ctx?.close());

const stats = (ip = "203.0.113.1") =>
  ctx.app.inject({ method: "GET", url: "/api/public/stats", remoteAddress: ip });

/** `count` new patients, each with one request (one of them with two: counted once). */
async function patientsWithRequests(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { body, response } = await signUpPatient(ctx.app);
    expect(response.statusCode).toBe(201);
    const { id } = await ctx.app.db
      .selectFrom("profiles")
      .select("id")
      .where("email", "=", body.email)
      .executeTakeFirstOrThrow();
    const times = i === 0 ? 2 : 1;
    for (let n = 0; n < times; n++) {
      await ctx.app.db.insertInto("requests").values({ patient_id: id, treatment_type: "crown" }).execute();
    }
  }
}

describe("roundedDownBelow", () => {
  it("gives the largest multiple of ten strictly below the count", () => {
    expect(roundedDownBelow(0)).toBe(0);
    expect(roundedDownBelow(9)).toBe(0);
    expect(roundedDownBelow(10)).toBe(0);
    expect(roundedDownBelow(11)).toBe(10);
    expect(roundedDownBelow(12_345)).toBe(12_340);
  });
});

describe("GET /api/public/stats", () => {
  it("answers anyone, without a session, with the rounded count of patients who sent a request", async () => {
    const empty = await stats();
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ patients: 0 });
    expect(empty.headers["cache-control"]).toBe(`public, max-age=${PUBLIC_STATS_TTL_MS / 1000}`);
    expect(empty.headers["set-cookie"]).toBeUndefined();

    // A patient without a request is not counted; 12 with requests → "+ de 10".
    expect((await signUpPatient(ctx.app)).response.statusCode).toBe(201);
    await patientsWithRequests(12);

    // Still the cached figure until the cache expires.
    expect((await stats()).json()).toEqual({ patients: 0 });
    now = new Date(now.getTime() + PUBLIC_STATS_TTL_MS + 1000);
    const fresh = await stats();
    expect(fresh.json()).toEqual({ patients: 10 });
    // Only the figure: no names, no ids.
    expect(Object.keys(fresh.json())).toEqual(["patients"]);
  });

  it("is rate-limited per address with a French message", async () => {
    const ip = "203.0.113.99";
    for (let i = 0; i < PUBLIC_STATS_PER_MINUTE; i++) expect((await stats(ip)).statusCode).toBe(200);
    const refused = await stats(ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: { code: "RATE_LIMITED", message: PUBLIC_STATS_MESSAGES.tooMany },
    });
    // Another address is not affected.
    expect((await stats("203.0.113.100")).statusCode).toBe(200);
  });
});
