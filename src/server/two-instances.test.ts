import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMasterKey } from "./config/data-key";
import { runDailyJobs, runExclusive, runMailJobs, runSweeper } from "./jobs";
import { pruneRateLimitHits } from "./plugins/rate-limit-store";
import { pdfOfSize } from "./testing/files";
import {
  createTestContext,
  postRequest,
  signUpDentist,
  signUpPatient,
  type TestContext,
  uniqueEmail,
} from "./testing/harness";
import { startS3, type TestS3 } from "./testing/s3";

/*
 * Two app instances (buildApp twice) on one PostgreSQL database and one S3 bucket (s3rver), as
 * behind a load balancer (issue 18): what one instance stores, counts or runs, the other sees. Only
 * with TEST_DATABASE_URL: the embedded PGlite database belongs to one process.
 */
const env = {
  LOGIN_RATE_LIMIT_PER_ACCOUNT: "2",
  LOGIN_RATE_LIMIT_PER_IP: "4",
  CONTACT_RATE_LIMIT_PER_HOUR: "2",
};

describe.skipIf(!process.env.TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
  let a: TestContext;
  let b: TestContext;
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
    // The same S3_* settings and master key for both, as the operator gives them to every instance.
    const shared = { ...env, ...s3.env, DATA_KEY: newMasterKey() };
    a = await createTestContext({ env: shared });
    b = await createTestContext({ env: shared, databaseUrl: a.databaseUrl as string });
  });
  afterAll(async () => {
    // B first: A's database is dropped when A closes.
    await b?.close();
    await a?.close();
    await s3?.close();
  });

  it("serves through B a document uploaded through A, byte for byte, and logs a dentist's download", async () => {
    const patient = await signUpPatient(a.app);
    const dentist = await signUpDentist(b.app);
    await a.app.db
      .updateTable("profiles")
      .set({ is_verified: true })
      .where("id", "=", dentist.response.json().profile.id)
      .execute();
    // Several encryption chunks and more than one S3 part: the whole path, streamed both ways.
    const content = Buffer.concat([pdfOfSize(1024), randomBytes(6 * 1024 * 1024)]);
    const created = await postRequest(
      a.app,
      patient.cookie,
      {
        treatment_type: "implant",
        consent: "true",
        urgency: "high",
        budget: "2000 €",
        description: "Molaire",
        document_types: JSON.stringify(["quote"]),
      },
      [{ name: "devis.pdf", type: "application/pdf", content }],
    );
    expect(created.statusCode, created.body).toBe(201);
    const requestId = created.json().id as string;
    const detail = async (ctx: TestContext) =>
      (
        await ctx.app.inject({
          url: `/api/patient/requests/${requestId}`,
          headers: { cookie: patient.cookie },
        })
      ).json();
    const [document] = (await detail(b)).documents;
    // The bucket holds it, encrypted by us: not the bytes sent.
    const stored = s3.storedKeys(s3.settings.bucket);
    expect(stored).toHaveLength(1);
    expect(s3.storedObject(s3.settings.bucket, stored[0] as string).includes(content.subarray(0, 64))).toBe(
      false,
    );

    const download = (ctx: TestContext, cookie: string) =>
      ctx.app.inject({ url: `/api/documents/${document.id}/file`, headers: { cookie } });
    const mine = await download(b, patient.cookie);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["content-length"]).toBe(String(content.length));
    expect(mine.rawPayload.equals(content)).toBe(true);
    // The owner's own reads are not logged (ADR 005); a dentist's read through B is, and the
    // patient sees it through A.
    expect((await detail(a)).access_log).toEqual([]);
    const theirs = await download(b, dentist.cookie);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.rawPayload.equals(content)).toBe(true);
    expect((await detail(a)).access_log).toEqual([
      expect.objectContaining({ document_id: document.id, action: "download" }),
    ]);
  });

  it("counts failed logins through both instances together", async () => {
    const email = uniqueEmail("victim");
    const login = (ctx: TestContext) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/account/login",
        remoteAddress: "203.0.113.7",
        payload: { email, password: "Mauvais-Mot-2026" },
      });
    // Limit 2 failures per (account, IP): one on A, one on B, then both refuse.
    expect((await login(a)).statusCode).toBe(401);
    expect((await login(b)).statusCode).toBe(401);
    expect((await login(a)).statusCode).toBe(429);
    expect((await login(b)).statusCode).toBe(429);
  });

  it("counts a route's rate limit through both instances together", async () => {
    // The limit runs before the body is read: a JSON body (415) counts like a real message.
    const post = (ctx: TestContext) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/contact",
        remoteAddress: "203.0.113.8",
        payload: { name: "Marie" },
      });
    expect((await post(a)).statusCode).toBe(415);
    expect((await post(b)).statusCode).toBe(415);
    const blocked = await post(a);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toMatch(/réessayer dans une heure/);
    expect((await post(b)).statusCode).toBe(429);
    // Another address is counted apart, on either instance.
    const other = await b.app.inject({
      method: "POST",
      url: "/api/contact",
      remoteAddress: "203.0.113.9",
      payload: { name: "Paul" },
    });
    expect(other.statusCode).toBe(415);
    // Another rate-limited route is counted apart for the same address.
    const stats = await b.app.inject({
      method: "GET",
      url: "/api/public/stats",
      remoteAddress: "203.0.113.8",
    });
    expect(stats.statusCode).not.toBe(429);
  });

  it("keeps no address in clear and removes the counters whose window has ended", async () => {
    const rows = async () =>
      (await sql<{ key: string }>`select key from rate_limit_hits`.execute(a.database.db)).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThan(0);
    expect(before.some((row) => row.key.includes("203.0.113"))).toBe(false);
    expect(await pruneRateLimitHits(a.database.db, new Date())).toBe(0);
    expect(await pruneRateLimitHits(b.database.db, new Date(Date.now() + 2 * 60 * 60 * 1000))).toBe(
      before.length,
    );
    expect(await rows()).toEqual([]);
  });

  it("runs a job on one instance at a time: the other skips its turn", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const first = runExclusive(a.app, "mail", async () => {
      runs += 1;
      await gate;
    });
    await expect.poll(() => runs).toBe(1);
    // While A runs the mail job, B's mail run (the real one) does nothing…
    expect(await runMailJobs(b.app)).toBe(false);
    const count = async () => {
      runs += 1;
    };
    expect(await runExclusive(b.app, "mail", count)).toBe(false);
    // …and A's other jobs, or B's, are not held up by it.
    expect(await runSweeper(b.app)).toBe(true);
    release();
    expect(await first).toBe(true);
    expect(runs).toBe(1);
    // Once A is done, the next turn runs wherever it comes.
    expect(await runMailJobs(b.app)).toBe(true);
  });

  it("runs the same job started on both instances at once only once", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const task = async () => {
      runs += 1;
      await gate;
    };
    // The one that gets the lock holds it until the other has answered (or, were both to run,
    // until the fallback timer: the test then fails on the count).
    const fallback = setTimeout(() => release(), 5000);
    const attempt = (ctx: TestContext) =>
      runExclusive(ctx.app, "retention", task).then((didRun) => {
        if (!didRun) release();
        return didRun;
      });
    const ran = await Promise.all([attempt(a), attempt(b)]);
    clearTimeout(fallback);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    // The real retention job goes through the same lock.
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    let done: () => void = () => {};
    const blocker = runExclusive(a.app, "retention", async () => {
      held();
      await new Promise<void>((resolve) => {
        done = resolve;
      });
    });
    await holding;
    expect(await runDailyJobs(b.app)).toBe(false);
    done();
    await blocker;
  });
});
