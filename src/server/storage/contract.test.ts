import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tinyPdf } from "../testing/files";
import { createTestContext, newRequestId, signUpPatient } from "../testing/harness";
import { startS3, type TestS3 } from "../testing/s3";
import { EncryptedStorage, HEADER } from "./encrypted";
import { keyringOf } from "./keyring";
import { type S3Options, S3Storage } from "./s3";
import { LocalStorage, type Storage } from "./storage";

/**
 * One contract for every Storage (issue 18): the local disk and an S3-compatible bucket (s3rver)
 * must behave the same for every caller — uploads, downloads, the sweeper, key rotation.
 */

let s3: TestS3;
let root: string;
const opened: S3Storage[] = [];
beforeAll(async () => {
  s3 = await startS3();
  root = mkdtempSync(path.join(tmpdir(), "sourio-contract-"));
});
afterAll(async () => {
  for (const store of opened) store.close();
  await s3?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Keys a listing asks for at a time on S3 here: the paging is the same as with S3's 1000, with
 * 25 files written instead of 1005 (a minute and more on a loaded machine). */
const LIST_PAGE = 10;

/** A fresh, empty store for each test. */
const stores: Array<[string, () => Promise<Storage>]> = [
  ["local", async () => new LocalStorage(path.join(root, randomUUID()))],
  [
    "s3",
    async () => {
      const store = new S3Storage(await s3.newBucket(), { listPageSize: LIST_PAGE });
      opened.push(store);
      return store;
    },
  ],
];

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keys(storage: Storage): Promise<string[]> {
  const found: string[] = [];
  for await (const { key } of storage.list()) found.push(key);
  return found.sort();
}

/** `size` bytes in pieces of 64 KB, as a network upload gives them, generated as they are read. */
function stream(size: number, seed = 7): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, size - sent);
      const piece = Buffer.alloc(n);
      for (let i = 0; i < n; i++) piece[i] = (sent + i) * seed;
      sent += n;
      this.push(piece);
    },
  });
}

/** A source that gives `before` bytes, then fails (a client that drops the connection). */
function failing(before: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= before) {
        this.destroy(new Error("connexion interrompue"));
        return;
      }
      const n = Math.min(256 * 1024, before - sent);
      sent += n;
      this.push(Buffer.alloc(n, 1));
    },
  });
}

const owner = () => randomUUID();
const keyOf = (ext = "pdf") => `${owner()}/${randomUUID()}.${ext}`;

describe.each(stores)("Storage contract: %s", (_name, make) => {
  let storage: Storage;
  beforeEach(async () => {
    storage = await make();
  });

  it("writes and reads back a small file, and reports its size", async () => {
    const key = keyOf();
    const content = Buffer.from("%PDF-1.4 un devis\n");
    expect(await storage.write(key, Readable.from([content]))).toBe(content.length);
    expect(await readAll(storage.read(key))).toEqual(content);
    expect(await storage.size(key)).toBe(content.length);
  });

  it("streams a file larger than one S3 part (12 MB) both ways", async () => {
    const key = keyOf("jpg");
    const size = 12 * 1024 * 1024 + 123;
    expect(await storage.write(key, stream(size))).toBe(size);
    expect(await storage.size(key)).toBe(size);
    const back = await readAll(storage.read(key));
    expect(back.length).toBe(size);
    expect(back.equals(await readAll(stream(size)))).toBe(true);
  });

  it("stores an empty file", async () => {
    const key = keyOf("txt");
    expect(await storage.write(key, Readable.from([]))).toBe(0);
    expect(await storage.size(key)).toBe(0);
    expect((await readAll(storage.read(key))).length).toBe(0);
    expect((await storage.readHead(key, 10)).length).toBe(0);
  });

  it("overwrites a key with a new content", async () => {
    const key = keyOf();
    await storage.write(key, Readable.from([Buffer.from("ancien contenu, plus long")]));
    await storage.write(key, Readable.from([Buffer.from("nouveau")]));
    expect((await readAll(storage.read(key))).toString()).toBe("nouveau");
    expect(await storage.size(key)).toBe(7);
  });

  it("answers null for the size of a missing file, and fails to read it", async () => {
    const key = keyOf();
    expect(await storage.size(key)).toBeNull();
    await expect(readAll(storage.read(key))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(storage.readHead(key, 4)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(storage.replaceHead(key, Buffer.from("SRE1"))).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("does not touch the store before a read stream is read, and can be dropped unread", async () => {
    const key = keyOf();
    const unread = storage.read(key);
    // LocalStorage opens the file at once: its failure to do so is not this test's subject.
    unread.on("error", () => {});
    unread.destroy();
    // A stream of a missing file fails only when read: nothing was thrown above.
    expect(await storage.size(key)).toBeNull();
  });

  it("removes a file, and removing it again (or a missing one) is fine", async () => {
    const key = keyOf();
    await storage.write(key, Readable.from([Buffer.from("x")]));
    await storage.remove(key);
    expect(await storage.size(key)).toBeNull();
    await storage.remove(key);
    await storage.remove(keyOf());
    // What the sweeper does with an unfinished upload it listed: nothing left to do here.
    await storage.remove(`${keyOf()}.part`);
    expect(await keys(storage)).toEqual([]);
  });

  it("lists every stored key with a recent modification time", async () => {
    const a = `${owner()}/${randomUUID()}.pdf`;
    const b = `${owner()}/avatars/${randomUUID()}.webp`;
    const before = Date.now() - 5_000;
    await storage.write(a, Readable.from([Buffer.from("a")]));
    await storage.write(b, Readable.from([Buffer.from("b")]));
    const listed: Array<{ key: string; modifiedAt: Date }> = [];
    for await (const entry of storage.list()) listed.push(entry);
    expect(listed.map((e) => e.key).sort()).toEqual([a, b].sort());
    for (const entry of listed) {
      expect(entry.modifiedAt).toBeInstanceOf(Date);
      expect(entry.modifiedAt.getTime()).toBeGreaterThan(before);
      expect(entry.modifiedAt.getTime()).toBeLessThan(Date.now() + 5_000);
    }
  });

  it("lists more keys than one page holds, each once", async () => {
    const store = storage;
    const prefix = owner();
    const written = Array.from(
      { length: 2 * LIST_PAGE + 5 },
      (_, i) => `${prefix}/${String(i).padStart(4, "0")}.txt`,
    );
    for (const key of written) await store.write(key, Readable.from([Buffer.from(key)]));
    expect(await keys(store)).toEqual(written.sort());
  });

  it("reads the head of a file, shorter when the file is", async () => {
    const key = keyOf();
    await storage.write(key, Readable.from([Buffer.from("0123456789")]));
    expect((await storage.readHead(key, 4)).toString()).toBe("0123");
    expect((await storage.readHead(key, 100)).toString()).toBe("0123456789");
  });

  it("replaces the head of a file, the rest untouched (key rotation)", async () => {
    const key = keyOf();
    const size = 6 * 1024 * 1024 + 5;
    await storage.write(key, stream(size));
    const head = randomBytes(HEADER);
    await storage.replaceHead(key, head);
    expect(await storage.size(key)).toBe(size);
    const back = await readAll(storage.read(key));
    const expected = await readAll(stream(size));
    head.copy(expected, 0);
    expect(back.equals(expected)).toBe(true);
    expect((await storage.readHead(key, HEADER)).equals(head)).toBe(true);
  });

  it("leaves no object and no listed key when the source fails, small or multipart", async () => {
    for (const before of [1024, 7 * 1024 * 1024]) {
      const key = keyOf();
      await expect(storage.write(key, failing(before))).rejects.toThrow("connexion interrompue");
      expect(await storage.size(key)).toBeNull();
    }
    expect(await keys(storage)).toEqual([]);
  });

  it("keeps the previous content when an overwrite fails", async () => {
    const key = keyOf();
    await storage.write(key, Readable.from([Buffer.from("version 1")]));
    await expect(storage.write(key, failing(64 * 1024))).rejects.toThrow();
    expect((await readAll(storage.read(key))).toString()).toBe("version 1");
  });

  it.each([
    "../etc/passwd",
    "/absolu.pdf",
    "sans-extension",
    "a/../b.pdf",
    "a//b.pdf",
    "a/b.PDF",
    "a b.pdf",
    "a/b.pdf.part/c.pdf",
  ])("refuses the invalid key %j", async (key) => {
    await expect(storage.write(key, Readable.from([Buffer.from("x")]))).rejects.toThrow(
      "clé de stockage invalide",
    );
    expect(() => storage.read(key)).toThrow("clé de stockage invalide");
    await expect(storage.remove(key)).rejects.toThrow("clé de stockage invalide");
    await expect(storage.readHead(key, 4)).rejects.toThrow("clé de stockage invalide");
    await expect(storage.replaceHead(key, Buffer.from("x"))).rejects.toThrow("clé de stockage invalide");
    expect(await storage.size(key)).toBeNull();
    expect(await keys(storage)).toEqual([]);
  });

  it("keeps a patient's file encrypted under EncryptedStorage, and rotates its key", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const key = keyOf();
    const content = await readAll(stream(6 * 1024 * 1024 + 77, 13));
    const before = new EncryptedStorage(storage, keyringOf([oldKey]));
    expect(await before.write(key, Readable.from([content]))).toBe(content.length);
    const stored = await readAll(storage.read(key));
    expect(stored.subarray(0, 4).toString()).toBe("SRE1");
    expect(stored.includes(content.subarray(1000, 1064))).toBe(false);
    expect(await before.size(key)).toBe(content.length);

    const after = new EncryptedStorage(storage, keyringOf([newKey, oldKey]));
    expect(await after.rewrap(key)).toBe("rewrapped");
    expect(await after.rewrap(key)).toBe("unchanged");
    expect((await readAll(after.read(key))).equals(content)).toBe(true);
    // The old master key alone no longer opens it.
    await expect(readAll(before.read(key))).rejects.toThrow("clé inconnue");
  });
});

describe("S3Storage", () => {
  /** A store whose uploads spool in a folder of the test's own, with the commands it sends. */
  async function spied(options: S3Options = {}, fail?: (name: string, input: unknown) => Error | null) {
    const spool = mkdtempSync(path.join(root, "spool-"));
    const store = new S3Storage(await s3.newBucket(), { spoolDir: spool, ...options });
    opened.push(store);
    const sent: string[] = [];
    const send = store.client.send.bind(store.client);
    store.client.send = ((command: { constructor: { name: string }; input: unknown }, ...rest: unknown[]) => {
      sent.push(command.constructor.name.replace(/Command$/, ""));
      const error = fail?.(command.constructor.name, command.input);
      if (error) return Promise.reject(error);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof store.client.send;
    return { store, sent, spooled: () => readdirSync(spool) };
  }

  it("sends nothing and leaves no temporary file when the source fails", async () => {
    const { store, sent, spooled } = await spied({ multipartThreshold: 1024 * 1024 });
    for (const before of [1024, 7 * 1024 * 1024]) {
      const key = keyOf();
      await expect(store.write(key, failing(before))).rejects.toThrow("connexion interrompue");
      expect(spooled()).toEqual([]);
      expect(await store.size(key)).toBeNull();
    }
    expect(sent).toEqual(["HeadObject", "HeadObject"]);
    expect(await keys(store)).toEqual([]);
  });

  it("sends a small file in one PutObject, spooled then removed", async () => {
    const { store, sent, spooled } = await spied();
    const key = keyOf();
    expect(await store.write(key, stream(3 * 1024 * 1024))).toBe(3 * 1024 * 1024);
    expect(sent).toEqual(["PutObject"]);
    expect(spooled()).toEqual([]);
    expect((await readAll(store.read(key))).equals(await readAll(stream(3 * 1024 * 1024)))).toBe(true);
  });

  it("sends a file above the multipart threshold in parts, and reads it back whole", async () => {
    const { store, sent, spooled } = await spied({
      multipartThreshold: 1024 * 1024,
      partSize: 5 * 1024 * 1024,
    });
    const key = keyOf("jpg");
    const size = 12 * 1024 * 1024 + 5;
    expect(await store.write(key, stream(size, 11))).toBe(size);
    expect(sent).toEqual([
      "CreateMultipartUpload",
      "UploadPart",
      "UploadPart",
      "UploadPart",
      "CompleteMultipartUpload",
    ]);
    expect(spooled()).toEqual([]);
    expect(await store.size(key)).toBe(size);
    expect((await readAll(store.read(key))).equals(await readAll(stream(size, 11)))).toBe(true);
    expect(await keys(store)).toEqual([key]);
  });

  it("aborts the multipart upload when a part fails, and leaves no object nor temporary file", async () => {
    const { store, sent, spooled } = await spied(
      { multipartThreshold: 1024 * 1024, partSize: 5 * 1024 * 1024 },
      (name, input) =>
        name === "UploadPartCommand" && (input as { PartNumber: number }).PartNumber === 2
          ? Object.assign(new Error("le stockage a coupé la connexion"), { name: "TimeoutError" })
          : null,
    );
    const key = keyOf();
    await expect(store.write(key, stream(12 * 1024 * 1024))).rejects.toThrow(
      "le stockage a coupé la connexion",
    );
    expect(sent).toEqual(["CreateMultipartUpload", "UploadPart", "UploadPart", "AbortMultipartUpload"]);
    expect(spooled()).toEqual([]);
    expect(await store.size(key)).toBeNull();
  });

  it("spools in a private folder and file while the upload runs", async () => {
    const spool = mkdtempSync(path.join(root, "spool-"));
    const store = new S3Storage(await s3.newBucket(), { spoolDir: spool });
    opened.push(store);
    const modes: number[] = [];
    const send = store.client.send.bind(store.client);
    store.client.send = ((command: unknown, ...rest: unknown[]) => {
      const [folder] = readdirSync(spool);
      if (folder) {
        const dir = path.join(spool, folder);
        modes.push(statSync(dir).mode & 0o777);
        for (const file of readdirSync(dir)) modes.push(statSync(path.join(dir, file)).mode & 0o777);
      }
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof store.client.send;
    await store.write(keyOf(), stream(1024));
    expect(modes).toEqual([0o700, 0o600]);
    expect(readdirSync(spool)).toEqual([]);
  });
});

describe("ping (the health check)", () => {
  it("is true for a store that can take a file", async () => {
    for (const [, make] of stores) expect(await (await make()).ping()).toBe(true);
  });

  it("is false on S3 for a missing bucket, an unknown access key or a store that does not answer", async () => {
    const good = await s3.newBucket();
    for (const settings of [
      { ...good, bucket: "sourio-absent" },
      // s3rver checks the access key (not the secret's signature, as real stores also do).
      { ...good, accessKeyId: "INCONNUE" },
      { ...good, endpoint: "http://127.0.0.1:9" },
    ]) {
      const store = new S3Storage(settings);
      opened.push(store);
      expect(await store.ping()).toBe(false);
    }
  });

  it("is false on the disk when its folder's parent is gone or the folder is a file", async () => {
    const gone = path.join(root, randomUUID());
    expect(await new LocalStorage(path.join(gone, "files")).ping()).toBe(false);
    const file = path.join(root, randomUUID());
    writeFileSync(file, "");
    expect(await new LocalStorage(file).ping()).toBe(false);
    // The files folder itself is created on first use, and the probe leaves nothing behind.
    const fresh = path.join(root, randomUUID());
    const store = new LocalStorage(fresh);
    expect(await store.ping()).toBe(true);
    expect(readdirSync(fresh)).toEqual([]);
    expect(await keys(store)).toEqual([]);
  });
});

describe("the app on an S3 bucket", () => {
  it("stores an uploaded devis in the bucket, encrypted, and serves it back", async () => {
    const bucket = await s3.newBucket();
    const env = { ...s3.env, S3_BUCKET: bucket.bucket, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" };
    const ctx = await createTestContext({ env });
    try {
      expect(ctx.config.s3?.bucket).toBe(bucket.bucket);
      const { cookie, response } = await signUpPatient(ctx.app);
      const userId = response.json().profile.id;
      await newRequestId(ctx.app, cookie); // with its devis.pdf, a tinyPdf
      const doc = await ctx.app.db
        .selectFrom("documents")
        .select(["id", "storage_key"])
        .where("owner_id", "=", userId)
        .executeTakeFirstOrThrow();

      const raw = new S3Storage(bucket);
      opened.push(raw);
      expect(await keys(raw)).toEqual([doc.storage_key]);
      const stored = await readAll(raw.read(doc.storage_key));
      expect(stored.subarray(0, 4).toString()).toBe("SRE1");
      expect(stored.includes(tinyPdf().subarray(0, 32))).toBe(false);

      const download = await ctx.app.inject({
        method: "GET",
        url: `/api/documents/${doc.id}/file`,
        headers: { cookie },
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(tinyPdf())).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
