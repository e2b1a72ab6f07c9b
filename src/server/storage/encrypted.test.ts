import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_FILE, parseMasterKey } from "../config/data-key";
import { pdfOfSize, tinyPdf } from "../testing/files";
import {
  createTestContext,
  newRequestId,
  radioPng,
  signUpPatient,
  TEST_DATA_KEY,
  type TestContext,
} from "../testing/harness";
import { encryptClearFiles, rewrapAll } from "../upkeep/at-rest";
import { CHUNK, EncryptedStorage, HEADER, MAGIC } from "./encrypted";
import { keyringOf } from "./keyring";
import { LocalStorage } from "./storage";

/** Issue 14, encryption at rest: AES-256-GCM per file, in chunks, data keys wrapped by DATA_KEY. */

const keyA = randomBytes(32);
const keyB = randomBytes(32);
let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "sourio-enc-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const local = () => new LocalStorage(root);
const encrypted = (...keys: Buffer[]) => new EncryptedStorage(local(), keyringOf(keys));
const raw = (key: string) => readFileSync(path.join(root, key));

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A source that gives its content in small, uneven pieces, as a network upload does. */
function trickle(content: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, n = 1; at < content.length; n = (n * 7 + 3) % 9000) {
    pieces.push(content.subarray(at, at + n + 1));
    at += n + 1;
  }
  return Readable.from(pieces);
}

let counter = 0;
const newKey = () => `t/00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}.bin`;

describe("EncryptedStorage", () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5])(
    "gives back exactly the %i bytes written, never stores them in clear, knows their size",
    async (length) => {
      const storage = encrypted(keyA);
      const content = randomBytes(length);
      const key = newKey();
      expect(await storage.write(key, trickle(content))).toBe(length);
      expect((await readAll(storage.read(key))).equals(content)).toBe(true);
      expect(await storage.size(key)).toBe(length);
      const stored = raw(key);
      expect(stored.subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);
      if (length >= 64) expect(stored.includes(content.subarray(0, 64))).toBe(false);
    },
  );

  it("refuses a file altered, cut short or cut at a chunk boundary, and an unknown key", async () => {
    const storage = encrypted(keyA);
    const content = randomBytes(2 * CHUNK + 100);
    const key = newKey();
    await storage.write(key, Readable.from([content]));
    const file = path.join(root, key);
    const original = readFileSync(file);

    const flipped = Buffer.from(original);
    flipped[HEADER + CHUNK + 10] = (flipped[HEADER + CHUNK + 10] as number) ^ 1;
    writeFileSync(file, flipped);
    await expect(readAll(storage.read(key))).rejects.toThrow();

    writeFileSync(file, original);
    truncateSync(file, original.length - 50);
    await expect(readAll(storage.read(key))).rejects.toThrow();

    // Two whole chunks and no last one: a reader must not take the second for the end.
    writeFileSync(file, original.subarray(0, HEADER + 2 * (CHUNK + 16)));
    await expect(readAll(storage.read(key))).rejects.toThrow();

    writeFileSync(file, original);
    await expect(readAll(encrypted(keyB).read(key))).rejects.toThrow(/clé inconnue/);
    expect((await readAll(storage.read(key))).equals(content)).toBe(true);
  });

  it("rotates the master key by re-wrapping headers only, the content left as it was", async () => {
    const content = randomBytes(CHUNK + 300);
    const key = newKey();
    await encrypted(keyA).write(key, Readable.from([content]));
    const before = raw(key);

    const rotated = encrypted(keyB, keyA);
    expect(await rotated.rewrap(key)).toBe("rewrapped");
    expect(await rotated.rewrap(key)).toBe("unchanged");
    const after = raw(key);
    expect(after.length).toBe(before.length);
    expect(after.subarray(HEADER).equals(before.subarray(HEADER))).toBe(true);
    expect(after.subarray(0, HEADER).equals(before.subarray(0, HEADER))).toBe(false);
    // Now readable with the new key alone, and no longer with the old one.
    expect((await readAll(encrypted(keyB).read(key))).equals(content)).toBe(true);
    await expect(readAll(encrypted(keyA).read(key))).rejects.toThrow(/clé inconnue/);
  });

  it("encrypts files an older version stored in clear, once", async () => {
    const key = newKey();
    await local().write(key, Readable.from([tinyPdf()]));
    const storage = encrypted(keyA);
    await expect(readAll(storage.read(key))).rejects.toThrow(/non chiffré/);
    expect(await storage.encryptInPlace(key)).toBe(true);
    expect(await storage.encryptInPlace(key)).toBe(false);
    expect(raw(key).subarray(0, 4).toString()).toBe("SRE1");
    expect((await readAll(storage.read(key))).equals(tinyPdf())).toBe(true);
    expect(statSync(path.join(root, key)).mode & 0o777).toBe(0o600);

    const counts = await rewrapAll(encrypted(keyB, keyA));
    expect(counts.rewrapped).toBeGreaterThan(0);
    expect((await readAll(encrypted(keyB).read(key))).equals(tinyPdf())).toBe(true);
  });
});

describe("files at rest in the app", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it("stores no PDF, PNG or JPEG signature on disk, and serves the files as uploaded", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#ffffff" } })
      .jpeg()
      .toBuffer();
    const big = pdfOfSize(300_000);
    const files = [
      { name: "devis.pdf", type: "application/pdf", content: big },
      radioPng(),
      { name: "photo.jpg", type: "image/jpeg", content: jpeg },
    ];
    const patient = await signUpPatient(ctx.app);
    const id = await newRequestId(ctx.app, patient.cookie, files);
    const detail = await ctx.app.inject({
      url: `/api/patient/requests/${id}`,
      headers: { cookie: patient.cookie },
    });
    for (const doc of detail.json().documents as { id: string; file_name: string }[]) {
      const served = await ctx.app.inject({
        url: `/api/documents/${doc.id}/file`,
        headers: { cookie: patient.cookie },
      });
      const sent = files.find((f) => f.name === doc.file_name);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(sent?.content as Buffer), doc.file_name).toBe(true);
      expect(Number(served.headers["content-length"])).toBe(sent?.content.length);
    }

    const signatures = [
      Buffer.from("%PDF"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.from([0xff, 0xd8, 0xff]),
    ];
    const keys = ctx.storedKeys();
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      const stored = ctx.storedFile(key);
      for (const signature of signatures)
        expect(stored.subarray(0, signature.length).equals(signature), key).toBe(false);
      expect(stored.subarray(0, 4).toString(), key).toBe("SRE1");
      expect(stored.includes(Buffer.from("%PDF")), key).toBe(false);
    }
    const keyFile = path.join(ctx.dataDir, KEY_FILE);
    if (ctx.config.databaseUrl || ctx.config.s3) {
      // Shared database or bucket: the key is DATA_KEY, never one generated in DATA_DIR.
      expect(existsSync(keyFile)).toBe(false);
      expect(ctx.config.dataKeys[0]?.toString("base64")).toBe(TEST_DATA_KEY);
    } else {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(parseMasterKey(readFileSync(keyFile, "utf8").split("\n")[0] as string)).not.toBeNull();
    }
  });

  it("encrypts the clear files of an older version at start-up, then skips the listing", async () => {
    const inner = (ctx.app.storage as EncryptedStorage).inner;
    const key = `legacy/00000000-0000-4000-8000-000000000001.pdf`;
    await inner.write(key, Readable.from([tinyPdf()]));
    const storage = ctx.app.storage as EncryptedStorage;
    expect(await encryptClearFiles(ctx.app.db, storage)).toBe(1);
    expect(await encryptClearFiles(ctx.app.db, storage)).toBeNull();
    expect((await readAll(storage.read(key))).equals(tinyPdf())).toBe(true);
  });
});
