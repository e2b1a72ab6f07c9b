import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMasterKey, parseMasterKey } from "../src/server/config/data-key";
import { CHUNK, EncryptedStorage, HEADER } from "../src/server/storage/encrypted";
import { keyringOf } from "../src/server/storage/keyring";
import { S3Storage } from "../src/server/storage/s3";
import { tinyPdf } from "../src/server/testing/files";
import { startS3, type TestS3 } from "../src/server/testing/s3";

// npm run rotate-key on the bucket the S3_* settings name (issue 18), as a real process.
const root = path.resolve(import.meta.dirname, "..");
let s3: TestS3;
let dataDir: string;
beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), "sourio-rotate-"));
});
afterAll(async () => {
  await s3?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function rotate(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/rotate-key.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, ...env },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, out, err })),
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("npm run rotate-key on S3", { timeout: 120_000 }, () => {
  it("re-wraps every object of the bucket with DATA_KEY, streamed, and encrypts a clear one", async () => {
    const settings = await s3.newBucket();
    const bucket = new S3Storage(settings);
    const [oldText, newText] = [newMasterKey(), newMasterKey()];
    const [oldKey, newKey] = [parseMasterKey(oldText) as Buffer, parseMasterKey(newText) as Buffer];
    const old = new EncryptedStorage(bucket, keyringOf([oldKey]));
    // A file of several chunks (the object is rewritten whole on S3), a small one, one in clear.
    const big = randomBytes(3 * CHUNK + 123);
    const files: Record<string, Buffer> = {
      "p/00000000-0000-4000-8000-000000000001.pdf": big,
      "p/00000000-0000-4000-8000-000000000002.pdf": tinyPdf(),
    };
    for (const [key, content] of Object.entries(files)) await old.write(key, Readable.from([content]));
    const clear = "contact/00000000-0000-4000-8000-000000000003.pdf";
    await bucket.write(clear, Readable.from([tinyPdf()]));
    files[clear] = tinyPdf();
    const storedBefore = s3.storedObject(settings.bucket, "p/00000000-0000-4000-8000-000000000001.pdf");

    const env = {
      ...s3.env,
      S3_BUCKET: settings.bucket,
      AUTH_SECRET: "rotate-secret-rotate-secret-rotate-0123",
      DATA_KEY: newText,
      DATA_KEY_PREVIOUS: oldText,
    };
    const run = await rotate(env);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain("3 fichier(s) ré-emballé(s) avec la clé actuelle, 0 l'étaient déjà");
    expect(run.out).toContain("DATA_KEY_PREVIOUS");

    // The bucket holds the same objects, nothing left aside; only the big one's header changed.
    expect(s3.storedKeys(settings.bucket).sort()).toEqual(Object.keys(files).sort());
    const storedAfter = s3.storedObject(settings.bucket, "p/00000000-0000-4000-8000-000000000001.pdf");
    expect(storedAfter.length).toBe(storedBefore.length);
    expect(storedAfter.subarray(0, HEADER).equals(storedBefore.subarray(0, HEADER))).toBe(false);
    expect(storedAfter.subarray(HEADER).equals(storedBefore.subarray(HEADER))).toBe(true);
    // Every object reads with the new key alone, none with the old one.
    const current = new EncryptedStorage(bucket, keyringOf([newKey]));
    for (const [key, content] of Object.entries(files)) {
      expect((await readAll(current.read(key))).equals(content), key).toBe(true);
      await expect(readAll(old.read(key))).rejects.toThrow(/clé inconnue/);
    }

    // Run again (after a stop, say): nothing left to do.
    const again = await rotate(env);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("0 fichier(s) ré-emballé(s) avec la clé actuelle, 3 l'étaient déjà");
    bucket.close();
  });
});
