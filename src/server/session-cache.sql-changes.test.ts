import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sessionCacheOf } from "./access/session-cache";
import {
  appPerFile,
  newRequestId,
  signUpPatient,
  type TestContext,
  twoInstancesPerFile,
} from "./testing/harness";
import { api, dentist, signInAdmin } from "./testing/people";
import { cachedOnBoth as cachedOnBothInstances } from "./testing/session-cache";

/*
 * The session cache (ADR 026) follows the database's own notifications (migration 030, ADR 039): a
 * change written in SQL, by no service of the app (an operator, a script), to a person's profile, user
 * or sessions takes effect on the next request, on one instance (PGlite or PostgreSQL) and, with
 * TEST_DATABASE_URL, on both of two instances of one PostgreSQL database.
 */

function scenarios(instances: () => { a: TestContext; b: TestContext }) {
  const get = (ctx: TestContext, url: string, cookie: string) => api(ctx).get(url, cookie);

  const cachedOnBoth = (url: string, cookie: string) => cachedOnBothInstances(instances(), url, cookie);

  it("a dentist de-verified in SQL no longer reads patient requests on the next request", async () => {
    const { a, b } = instances();
    const patient = await signUpPatient(a.app);
    const requestId = await newRequestId(a.app, patient.cookie);
    const { id, cookie } = await dentist(a.app);
    await cachedOnBoth(`/api/dentist/requests/${requestId}`, cookie);
    const listed = await get(a, "/api/dentist/requests", cookie);
    expect(listed.json().items.map((i: { id: string }) => i.id)).toContain(requestId);
    await sql`update profiles set is_verified = false where id = ${id}`.execute(a.app.db);
    for (const ctx of [b, a]) {
      expect((await get(ctx, `/api/dentist/requests/${requestId}`, cookie)).statusCode).toBe(404);
      const list = await get(ctx, "/api/dentist/requests", cookie);
      expect(list.json()).toMatchObject({ items: [], verified: false });
      expect((await get(ctx, "/api/me", cookie)).json().profile.is_verified).toBe(false);
    }
  });

  it("an admin whose flag is removed in SQL is refused the admin routes on the next request", async () => {
    const { a, b } = instances();
    const admin = await signInAdmin(a.app);
    await cachedOnBoth("/api/admin/stats", admin.cookie);
    await sql`update profiles set is_admin = false where id = ${admin.id}`.execute(a.app.db);
    expect((await get(b, "/api/admin/stats", admin.cookie)).statusCode).toBe(403);
    expect((await get(a, "/api/admin/stats", admin.cookie)).statusCode).toBe(403);
  });

  it("a session deleted in SQL is refused on the next request", async () => {
    const { a, b } = instances();
    const { cookie, response } = await signUpPatient(a.app);
    const userId = response.json().profile.id as string;
    await cachedOnBoth("/api/me", cookie);
    await sql`delete from sessions where user_id = ${userId}`.execute(a.app.db);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });

  it("a session ended in SQL (its end moved to now) is refused on the next request", async () => {
    const { a, b } = instances();
    const { cookie, response } = await signUpPatient(a.app);
    const userId = response.json().profile.id as string;
    await cachedOnBoth("/api/me", cookie);
    await sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${userId}`.execute(
      a.app.db,
    );
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });

  it("every session truncated in SQL: everyone is refused on the next request", async () => {
    const { a, b } = instances();
    const { cookie } = await signUpPatient(a.app);
    await cachedOnBoth("/api/me", cookie);
    await sql`truncate sessions`.execute(a.app.db);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(401);
    expect((await get(a, "/api/me", cookie)).statusCode).toBe(401);
  });

  it("a bulk update of more people than a notification holds succeeds and empties the cache", async () => {
    const { a, b } = instances();
    const { cookie } = await signUpPatient(a.app);
    await cachedOnBoth("/api/me", cookie);
    // 300 other accounts (300 ids of 36 characters: over the 8 000 bytes of a notification).
    const ids = await sql<{ id: string }>`
      insert into users (name, email) select 'x', 'bulk-' || gen_random_uuid() || '@example.com'
      from generate_series(1, 300) returning id`.execute(a.app.db);
    await sql`insert into profiles (id, email) select id, email from users where email like 'bulk-%'`.execute(
      a.app.db,
    );
    const updated = await sql`update profiles set first_name = 'Bulk' where email like 'bulk-%'`.execute(
      a.app.db,
    );
    expect(Number(updated.numAffectedRows)).toBe(ids.rows.length);
    await Promise.all([a.app.bus.sync(), b.app.bus.sync()]);
    // Everyone: the cache starts empty (the next request asks Better Auth) and still answers.
    expect(sessionCacheOf(a.app.db)?.size).toBe(0);
    expect(sessionCacheOf(b.app.db)?.size).toBe(0);
    expect((await get(b, "/api/me", cookie)).statusCode).toBe(200);
  });

  it("a session renewed (its end pushed later) keeps the other sessions of the person cached", async () => {
    const { a } = instances();
    const { cookie, response } = await signUpPatient(a.app);
    const userId = response.json().profile.id as string;
    await cachedOnBoth("/api/me", cookie);
    const before = sessionCacheOf(a.app.db)?.size ?? 0;
    await sql`update sessions set expires_at = expires_at + interval '1 day' where user_id = ${userId}`.execute(
      a.app.db,
    );
    await a.app.bus.sync();
    expect(sessionCacheOf(a.app.db)?.size).toBe(before);
  });
}

describe("session cache after SQL changes, one instance", () => {
  const ctx = appPerFile();
  scenarios(() => ({ a: ctx, b: ctx }));
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "session cache after SQL changes, two instances of one PostgreSQL",
  () => {
    const pair = twoInstancesPerFile();
    scenarios(() => pair);
  },
);
