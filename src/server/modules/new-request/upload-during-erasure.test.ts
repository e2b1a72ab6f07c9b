import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { multipart, slowBody, tinyPdf } from "../../testing/files";
import { appPerFile, signUpPatient } from "../../testing/harness";

/**
 * Issue 32: a patient's upload still streaming when the account is erased (from another tab, or by
 * an administrator) is refused as signed out (401), and leaves nothing named after the erased
 * account: no file, no folder, no row. On the local disk, or with TEST_S3 in the bucket. The other
 * uploads under a person's id: security/uploads-during-erasure.test.ts.
 */

const ctx = appPerFile();

describe("an upload still streaming when its account is erased", () => {
  it("is refused (401) and leaves no file, folder or row named after the account", async () => {
    const { cookie, body, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    // A PDF of 256 KB: its start is stored before the rest arrives.
    const pdf = Buffer.concat([tinyPdf(), Buffer.alloc(256 * 1024, 0x20)]);
    const form = multipart({ treatment_type: "crown", consent: "true" }, [
      { field: "files", name: "devis.pdf", type: "application/pdf", content: pdf },
    ]);
    const slow = slowBody(form.payload, form.payload.length - 128 * 1024);
    const upload = ctx.app.inject({
      method: "POST",
      url: "/api/patient/requests",
      headers: { ...form.headers, cookie },
      payload: slow.stream,
    });
    await slow.reading;
    const erased = await ctx.app.inject({
      method: "POST",
      url: "/api/account/delete",
      headers: { cookie },
      payload: { password: body.password },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    slow.release();
    const answer = await upload;
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json().error.code).toBe("UNAUTHENTICATED");

    expect(ctx.storedKeys().filter((key) => key.includes(id))).toEqual([]);
    expect(existsSync(path.join(ctx.dataDir, "files", id)), "dossier au nom du compte").toBe(false);
    const rows = await ctx.app.db
      .selectFrom("requests")
      .select("id")
      .where("patient_id", "=", id)
      .unionAll(ctx.app.db.selectFrom("documents").select("id").where("owner_id", "=", id))
      .execute();
    expect(rows).toEqual([]);
  });

  it("an upload that ends before the erasure is erased with the account, files and folder", async () => {
    const { cookie, body, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const form = multipart({ treatment_type: "crown", consent: "true" }, [
      { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    const created = await ctx.app.inject({
      method: "POST",
      url: "/api/patient/requests",
      headers: { ...form.headers, cookie },
      payload: form.payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(ctx.storedKeys().filter((key) => key.startsWith(`${id}/`))).toHaveLength(1);
    const erased = await ctx.app.inject({
      method: "POST",
      url: "/api/account/delete",
      headers: { cookie },
      payload: { password: body.password },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(ctx.storedKeys().filter((key) => key.includes(id))).toEqual([]);
    expect(existsSync(path.join(ctx.dataDir, "files", id)), "dossier au nom du compte").toBe(false);
  });
});
