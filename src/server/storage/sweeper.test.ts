import { utimesSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, tinyPdf } from "../testing/files";
import { createTestContext, signUpPatient, type TestContext } from "../testing/harness";
import { sweepOrphanFiles } from "./sweeper";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const age = (key: string, hours: number) => {
  const when = new Date(Date.now() - hours * 60 * 60 * 1000);
  utimesSync(path.join(ctx.dataDir, "files", key), when, when);
};

describe("sweepOrphanFiles", () => {
  it("removes old files no row refers to, keeps referenced and recent ones", async () => {
    const { cookie, response } = await signUpPatient(ctx.app);
    const userId = response.json().profile.id;
    const body = multipart({ treatment_type: "crown", consent: "true" }, [
      { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    const created = await ctx.app.inject({
      method: "POST",
      url: "/api/patient/requests",
      payload: body.payload,
      headers: { ...body.headers, cookie },
    });
    expect(created.statusCode).toBe(201);
    const [doc] = await ctx.app.db.selectFrom("documents").select("storage_key").execute();
    const referenced = doc?.storage_key ?? "";

    const orphan = `${userId}/00000000-0000-4000-8000-000000000001.pdf`;
    const recentOrphan = `${userId}/00000000-0000-4000-8000-000000000002.pdf`;
    await ctx.app.storage.write(orphan, Readable.from([tinyPdf()]));
    await ctx.app.storage.write(recentOrphan, Readable.from([tinyPdf()]));
    age(orphan, 2);
    age(referenced, 2);

    expect(await sweepOrphanFiles(ctx.app.db, ctx.app.storage)).toBe(1);
    expect(await ctx.app.storage.size(orphan)).toBeNull();
    expect(await ctx.app.storage.size(referenced)).toBeGreaterThan(0);
    expect(await ctx.app.storage.size(recentOrphan)).toBeGreaterThan(0);
  });
});
