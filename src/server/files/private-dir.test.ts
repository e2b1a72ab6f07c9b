import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, postRequest, signUpPatient, type TestContext } from "../testing/harness";
import { protectDataDir } from "./private-dir";

/** Issue 14: everything under DATA_DIR is the service account's only (folders 0700, files 0600). */
const mode = (file: string) => statSync(file).mode & 0o777;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    out.push(full);
    if (entry.isDirectory()) walk(full, out);
  }
  return out;
}

let ctx: TestContext;
beforeAll(async () => {
  // The local disk's own folder and file modes, even in TEST_S3 runs.
  ctx = await createTestContext({ localStorage: true });
});
afterAll(async () => ctx?.close());

describe("file modes in DATA_DIR", () => {
  it("stores documents and e-mails (reset links) readable by the service's account only", async () => {
    const patient = await signUpPatient(ctx.app);
    expect(
      (await postRequest(ctx.app, patient.cookie, { treatment_type: "crown", consent: "true" })).statusCode,
    ).toBe(201);
    await ctx.app.mailer.send({
      to: "someone@example.com",
      subject: "Lien",
      text: "https://exemple/reset?token=x",
    });

    const written = [...walk(path.join(ctx.dataDir, "files")), ...walk(path.join(ctx.dataDir, "outbox"))];
    expect(written.some((file) => file.endsWith(".eml"))).toBe(true);
    expect(written.some((file) => file.endsWith(".pdf"))).toBe(true);
    for (const folder of [path.join(ctx.dataDir, "files"), path.join(ctx.dataDir, "outbox")])
      expect(mode(folder), folder).toBe(0o700);
    for (const file of written) expect(mode(file), file).toBe(statSync(file).isDirectory() ? 0o700 : 0o600);
  });

  it("closes at start-up the folders an older version left open", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-modes-"));
    try {
      mkdirSync(path.join(dataDir, "outbox"), { mode: 0o755 });
      writeFileSync(path.join(dataDir, "auth-secret"), "secret", { mode: 0o644 });
      await protectDataDir(dataDir);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, "outbox"))).toBe(0o700);
      expect(mode(path.join(dataDir, "auth-secret"))).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
