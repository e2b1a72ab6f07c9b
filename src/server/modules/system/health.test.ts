import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, type TestContext } from "../../testing/harness";
import { startS3, type TestS3 } from "../../testing/s3";

/**
 * GET /api/health (issue 18): what a load balancer asks each instance. 200 only when the database
 * answers and a file could be stored right now; 503 with what is wrong otherwise.
 */

// Each test starts an app of its own (a store broken on purpose is not given back): on a loaded
// 2-core machine the first start of a file, with its database template, takes most of 30 s.
vi.setConfig({ testTimeout: 90_000 });

// Blank S3_* settings: the files on the local disk, even in runs where the harness uses a bucket.
const LOCAL_DISK = {
  S3_ENDPOINT: "",
  S3_BUCKET: "",
  S3_REGION: "",
  S3_ACCESS_KEY_ID: "",
  S3_SECRET_ACCESS_KEY: "",
};
const silent = { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" };

async function health(ctx: TestContext) {
  // Once unmeasured: the first request after start loads code and warms the database connection,
  // which can take longer than the check's 3 s on a loaded test machine.
  await ctx.app.inject({ method: "GET", url: "/api/health" });
  const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
  return { status: response.statusCode, body: response.json(), cache: response.headers["cache-control"] };
}

const STORAGE_DOWN = {
  status: "error",
  database: "ok",
  storage: "error",
  detail: "Service indisponible : le stockage des fichiers est inaccessible.",
};

describe("health on the local disk", () => {
  it("answers 200 and is never cached", async () => {
    const ctx = await createTestContext({ env: { ...LOCAL_DISK } });
    try {
      expect(ctx.config.s3).toBeUndefined();
      expect(await health(ctx)).toEqual({
        status: 200,
        body: { status: "ok", database: "ok", storage: "ok" },
        cache: "no-store",
      });
      // The probe leaves nothing behind.
      expect(ctx.storedKeys()).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it("runs one check for a burst of probes, and a new one a second later", async () => {
    const ctx = await createTestContext({ env: { ...LOCAL_DISK } });
    // Only the wall clock is faked: the burst happens at one instant however slow the machine, and
    // "a second later" is a step of the clock, not a wait.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await health(ctx);
      vi.setSystemTime(Date.now() + 1000);
      const ping = vi.spyOn(ctx.app.storage, "ping");
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => ctx.app.inject({ method: "GET", url: "/api/health" })),
      );
      expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      expect(ping).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + 999);
      expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      expect(ping).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + 1);
      rmSync(ctx.dataDir, { recursive: true, force: true });
      expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(503);
      expect(ping).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
      await ctx.close();
    }
  });

  it("answers 503 when DATA_DIR is gone (an unmounted volume)", async () => {
    const ctx = await createTestContext({ env: { ...LOCAL_DISK } });
    try {
      rmSync(ctx.dataDir, { recursive: true, force: true });
      expect(await health(ctx)).toMatchObject({ status: 503, body: STORAGE_DOWN });
    } finally {
      await ctx.close();
    }
  });

  it("answers 503 when the files folder cannot be written", async () => {
    const ctx = await createTestContext({ env: { ...LOCAL_DISK } });
    try {
      // A file where the folder should be: no file can be stored (whoever runs the tests, root too).
      writeFileSync(path.join(ctx.dataDir, "files"), "");
      expect(await health(ctx)).toMatchObject({ status: 503, body: STORAGE_DOWN });
    } finally {
      await ctx.close();
    }
  });
});

describe("health on an S3 bucket", () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => s3?.close());

  const onBucket = async (overrides: Record<string, string>) =>
    createTestContext({ env: { ...s3.env, ...silent, ...overrides } });

  it("answers 200 when the bucket exists and the credentials are right", async () => {
    const ctx = await onBucket({ S3_BUCKET: (await s3.newBucket()).bucket });
    try {
      expect(await health(ctx)).toMatchObject({
        status: 200,
        body: { status: "ok", database: "ok", storage: "ok" },
      });
    } finally {
      await ctx.close();
    }
  });

  it("answers 503 when the bucket does not exist", async () => {
    const ctx = await onBucket({ S3_BUCKET: "sourio-absent" });
    try {
      expect(ctx.config.s3?.bucket).toBe("sourio-absent");
      expect(await health(ctx)).toMatchObject({ status: 503, body: STORAGE_DOWN });
    } finally {
      await ctx.close();
    }
  });

  it("answers 503 with wrong credentials", async () => {
    // An access key the store does not know (s3rver checks the key, not the secret's signature).
    const ctx = await onBucket({ S3_BUCKET: (await s3.newBucket()).bucket, S3_ACCESS_KEY_ID: "INCONNUE" });
    try {
      expect(await health(ctx)).toMatchObject({ status: 503, body: STORAGE_DOWN });
    } finally {
      await ctx.close();
    }
  });

  it("answers 503 when the store does not answer", async () => {
    const ctx = await onBucket({ S3_ENDPOINT: "http://127.0.0.1:9" });
    try {
      expect(await health(ctx)).toMatchObject({ status: 503, body: STORAGE_DOWN });
    } finally {
      await ctx.close();
    }
  });
});

describe("health when the database is gone", () => {
  it("answers 503 and names the database", async () => {
    const ctx = await createTestContext({ env: { ...LOCAL_DISK } });
    try {
      await ctx.database.close();
      expect(await health(ctx)).toMatchObject({
        status: 503,
        body: {
          status: "error",
          database: "error",
          storage: "ok",
          detail: "Service indisponible : la base de données ne répond pas.",
        },
      });
    } finally {
      await ctx.app.close();
      rmSync(ctx.dataDir, { recursive: true, force: true });
    }
  });
});
