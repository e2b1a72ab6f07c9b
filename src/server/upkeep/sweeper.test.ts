import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, tinyPdf, tinyPng } from "../testing/files";
import { createTestContext, signUpPatient, type TestContext } from "../testing/harness";
import { sweepOrphanFiles } from "./sweeper";

let ctx: TestContext;
beforeAll(async () => {
  // Files aged on the local disk (utimes), even in TEST_S3 runs; the sweeper on a bucket is in contract.test.ts.
  ctx = await createTestContext({
    env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" },
    localStorage: true,
  });
});
afterAll(async () => ctx?.close());

const NOW = new Date();
const MINUTE = 60 * 1000;
const fullPath = (key: string) => path.join(ctx.dataDir, "files", key);
/** Makes a stored file (or `.part` file) look last written `minutes` before NOW. */
const age = (key: string, minutes: number) => {
  const when = new Date(NOW.getTime() - minutes * MINUTE);
  utimesSync(fullPath(key), when, when);
};
const exists = async (key: string) => (await ctx.app.storage.size(key)) !== null;
const sweep = () => sweepOrphanFiles(ctx.app.db, ctx.app.storage, { now: NOW });

async function send(
  url: string,
  cookie: string,
  fields: Record<string, string>,
  file: Parameters<typeof multipart>[1],
) {
  const body = multipart(fields, file);
  const response = await ctx.app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}

async function orphan(prefix: string, n: number) {
  const key = `${prefix}/00000000-0000-4000-8000-00000000000${n}.pdf`;
  await ctx.app.storage.write(key, Readable.from([tinyPdf()]));
  return key;
}

describe("sweepOrphanFiles", () => {
  it("removes old files no row refers to, keeps referenced and recent ones", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const userId = response.json().profile.id;
    await send("/api/patient/requests", cookie, { treatment_type: "crown", consent: "true" }, [
      { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    const doc = await ctx.app.db
      .selectFrom("documents")
      .select("storage_key")
      .where("owner_id", "=", userId)
      .executeTakeFirstOrThrow();

    const old = await orphan(userId, 1);
    const recent = await orphan(userId, 2);
    age(old, 120);
    age(doc.storage_key, 120);
    age(recent, 30);

    expect(await sweep()).toBe(1);
    expect(await exists(old)).toBe(false);
    expect(await exists(doc.storage_key)).toBe(true);
    expect(await exists(recent)).toBe(true);
  });

  it("keeps support images, avatars and contact files, and removes an orphan next to them", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const userId = response.json().profile.id;
    const before = new Set(ctx.storedKeys());
    await send("/api/support/messages", cookie, { body: "Voici ma capture" }, [
      { field: "image", name: "capture.png", type: "image/png", content: tinyPng() },
    ]);
    await send("/api/me/avatar", cookie, {}, [
      { field: "avatar", name: "moi.png", type: "image/png", content: tinyPng() },
    ]);
    await send(
      "/api/contact",
      "",
      { name: "Jeanne Martin", email: "jeanne@example.com", message: "Bonjour" },
      [{ field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() }],
    );
    // The three files these uploads stored: the support image, the avatar and the contact file.
    const kept = ctx.storedKeys().filter((key) => !before.has(key));
    expect(kept).toHaveLength(3);
    for (const key of kept) {
      expect(await exists(key), key).toBe(true);
      age(key, 24 * 60);
    }
    const stray = await orphan(userId, 3);
    age(stray, 24 * 60);

    expect(await sweep()).toBe(1);
    expect(await exists(stray)).toBe(false);
    for (const key of kept) expect(await exists(key), key).toBe(true);
    // The support image is still served in the thread.
    const thread = await ctx.app.inject({ method: "GET", url: "/api/support/messages", headers: { cookie } });
    const id = thread.json().items[0].id;
    const image = await ctx.app.inject({
      method: "GET",
      url: `/api/support/messages/${id}/image`,
      headers: { cookie },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers).toMatchObject({
      "content-type": "image/png",
      "x-content-type-options": "nosniff",
      "content-disposition": `inline; filename="capture.png"; filename*=UTF-8''capture.png`,
    });
  });

  it("removes unfinished .part files left for a few minutes, not an upload being written", async () => {
    const { response } = await signUpPatient(ctx.app);
    const userId = response.json().profile.id;
    // What LocalStorage.write leaves behind when the process dies mid-upload.
    const stale = `${userId}/00000000-0000-4000-8000-000000000004.pdf.part`;
    const writing = `${userId}/00000000-0000-4000-8000-000000000005.pdf.part`;
    await orphan(userId, 6); // makes the folder
    for (const key of [stale, writing]) writeFileSync(fullPath(key), tinyPdf().subarray(0, 100));
    age(stale, 10);
    age(writing, 1);

    expect(await sweep()).toBe(1);
    const left = [];
    for await (const { key } of ctx.app.storage.list()) if (key.endsWith(".part")) left.push(key);
    expect(left).toEqual([writing]);
  });
});
