import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { type DatabaseHandle, openDatabase } from "../db/index";
import { seedDemoData } from "../demo";
import { runMailJobs, sendScheduledEmails } from "../jobs";
import { EncryptedStorage } from "../storage/encrypted";
import { keyringOf } from "../storage/keyring";
import { LocalStorage, type Storage } from "../storage/storage";
import { pdfOfSize } from "../testing/files";
import {
  createTestContext,
  postRequest,
  sessionCookie,
  signUpPatient,
  type TestContext,
  uniqueEmail,
} from "../testing/harness";
import { emptyPostgresDatabase } from "../testing/postgres";
import { tempDirs } from "../testing/temp-dirs";
import {
  describeDatabase,
  type Manifest,
  postgresTool,
  snapshotEmbedded,
  snapshotPostgres,
  workDir,
  writeBackup,
} from "./archive";
import { checkArchive, restoreBackup } from "./restore";

/**
 * The restore drill (issue 37): a realistic data set (the demo, plus generated requests with their
 * documents, readings and messages), backed up while patients keep writing, restored into a fresh
 * place (an empty DATA_DIR, or an empty PostgreSQL database with TEST_DATABASE_URL), and the app
 * started on it. On PostgreSQL, pg_dump / pg_restore come from the PATH or /usr/lib/postgresql.
 */

const postgresBin = existsSync("/usr/lib/postgresql")
  ? readdirSync("/usr/lib/postgresql")
      .map((v) => path.join("/usr/lib/postgresql", v, "bin"))
      .filter((bin) => existsSync(path.join(bin, "pg_dump")))
      .sort()
      .at(-1)
  : undefined;
if (postgresBin && !postgresTool("pg_dump")) process.env.PATH = `${postgresBin}:${process.env.PATH ?? ""}`;

const PASSWORD = "Sourire-Sain-2026";
const tempDir = tempDirs();

interface Sent {
  requestId: string;
  email: string;
  files: Buffer[];
}

let source: TestContext;
const sent: Sent[] = [];
let size = 2000;

/** A patient's request with two documents of their own bytes (a devis read in the background). */
async function newPatientRequest(app: FastifyInstance): Promise<Sent | null> {
  const email = uniqueEmail("drill");
  const patient = await signUpPatient(app, { email, password: PASSWORD });
  size += 37;
  const files = [pdfOfSize(size), pdfOfSize(size + 11)];
  const response = await postRequest(
    app,
    patient.cookie,
    { treatment_type: "crown", consent: "true", document_types: JSON.stringify(["quote", "other"]) },
    files.map((content, i) => ({ name: `piece-${i}.pdf`, type: "application/pdf", content })),
  );
  if (response.statusCode !== 201) return null;
  return { requestId: response.json().id as string, email, files };
}

beforeAll(async () => {
  // On disk, as a server keeps it: the backup copies its folder (in memory, it would be refused).
  // Every writer signs up from the same address: its sign-ups are not what this file tests.
  source = await createTestContext({
    env: { DEMO_DATA: "true", LOGIN_RATE_LIMIT_PER_IP: "1000" },
    pgliteOnDisk: true,
  });
  const demo = await seedDemoData(source.app, sendScheduledEmails);
  expect(demo.outcome).toBe("created");
  for (let i = 0; i < 4; i += 1) {
    const one = await newPatientRequest(source.app);
    if (one) sent.push(one);
  }
  // Readings of the queued devis, and the e-mails the messages wait for.
  await source.app.readings.drain();
  await runMailJobs(source.app);
}, 600_000);

afterAll(async () => {
  await source?.close();
  // The worker runs other files after this one (isolate: false): what this file held goes with it.
  sent.length = 0;
});

/** A fresh, empty PostgreSQL database on the test server, dropped after the file. */
async function emptyPostgres(): Promise<string> {
  const { url, drop } = await emptyPostgresDatabase(
    process.env.TEST_DATABASE_URL as string,
    "sourio_restore",
  );
  afterAll(drop);
  return url;
}

const rawStore = (storage: Storage) => (storage as EncryptedStorage).inner;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("the restore drill", { timeout: 600_000 }, () => {
  let manifest: Manifest;
  let archive = "";
  let restored: { app: FastifyInstance; database: DatabaseHandle; storage: Storage };

  it("backs up while patients keep writing: the archive is 0600 and its manifest describes the snapshot", async () => {
    const work = await workDir(tempDir("sourio-drill-work-"));
    archive = path.join(tempDir("sourio-drill-out-"), "sourio.zip");
    let writing = true;
    const during: Promise<void> = (async () => {
      let refused = 0;
      while (writing) {
        const one = await newPatientRequest(source.app);
        if (one) sent.push(one);
        refused = one ? 0 : refused + 1;
        if (refused >= 3) throw new Error("three requests in a row refused while the backup ran");
        // A patient's pace, not a flood (a sign-up's password work is reused in tests: ADR 062).
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // A writer that fails ends the wait below at once (its error is thrown by `await during`).
    let writerFailed = false;
    during.catch(() => {
      writerFailed = true;
    });
    try {
      const dumpFile = path.join(work.dir, "dump");
      const postgres = source.database.kind === "postgres";
      const snapshot = postgres
        ? await snapshotPostgres(source.database, source.databaseUrl as string, dumpFile)
        : await snapshotEmbedded(source.database, dumpFile);
      // Writes go on between the snapshot and the files' copy: one more at least.
      const before = sent.length;
      while (sent.length < before + 1 && !writerFailed) await new Promise((r) => setTimeout(r, 50));
      if (writerFailed) await during;
      const result = await writeBackup({
        file: archive,
        databaseKind: source.database.kind,
        dumpFile,
        snapshot,
        store: rawStore(source.app.storage),
        currentKey: source.config.dataKeys[0] as Buffer,
        sourioVersion: "test",
      });
      manifest = result.manifest;
      expect(result.bytes).toBe(statSync(archive).size);
    } finally {
      writing = false;
      await during;
      await work.done();
    }
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    expect(manifest.database.tables.requests).toBeGreaterThanOrEqual(4);
    expect(manifest.database.tables.offers).toBeGreaterThan(0);
    expect(manifest.database.tables.messages).toBeGreaterThan(0);
    expect(manifest.database.tables.quote_readings).toBeGreaterThan(0);
    expect(manifest.database.tables.documents).toBeGreaterThanOrEqual(8);
    expect(manifest.files.length).toBeGreaterThanOrEqual(manifest.database.tables.documents ?? 0);
    // The files are in the archive as stored: encrypted, never a PDF's own bytes.
    expect(manifest.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
    // The app's live database has moved on since: the manifest holds the snapshot's counts.
    const live = await describeDatabase(source.app.db);
    expect(live.tables.requests).toBeGreaterThan(manifest.database.tables.requests ?? 0);
  });

  it("refuses a wrong DATA_KEY before writing anything, and a place that is not empty", async () => {
    const otherKey = Buffer.alloc(32, 9);
    await expect(checkArchive(archive, [otherKey])).rejects.toThrow(/DATA_KEY n'est pas la clé des fichiers/);
    const dataDir = tempDir("sourio-drill-wrongkey-");
    const store = new LocalStorage(path.join(dataDir, "files"));
    await expect(
      restoreBackup({
        file: archive,
        keys: [otherKey],
        store,
        target: { pgliteDir: path.join(dataDir, "pglite") },
      }),
    ).rejects.toThrow(/rien n'a été écrit/);
    expect(readdirSync(dataDir)).toEqual([]);
    // The source's own store is not empty: refused.
    await expect(
      restoreBackup({
        file: archive,
        keys: source.config.dataKeys,
        store: rawStore(source.app.storage),
        target: { pgliteDir: path.join(dataDir, "pglite") },
      }),
    ).rejects.toThrow(/n'est pas vide/);
  });

  it("takes back what a restore failing midway wrote: the place is empty again, and the restore runs there", async () => {
    expect(manifest.files.length).toBeGreaterThan(2);
    const dataDir = tempDir("sourio-drill-interrupted-");
    const store = new LocalStorage(path.join(dataDir, "files"));
    // A store that refuses its third file (a full disk, a bucket that stops answering).
    let writes = 0;
    const failing: Storage = Object.assign(Object.create(store) as Storage, {
      write: (key: string, source: Readable) => {
        writes += 1;
        if (writes === 3) return Promise.reject(new Error("disque plein"));
        return store.write(key, source);
      },
    });
    const databaseUrl = manifest.database.kind === "postgres" ? await emptyPostgres() : undefined;
    const target = databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, "pglite") };
    await expect(
      restoreBackup({ file: archive, keys: source.config.dataKeys, store: failing, target }),
    ).rejects.toThrow("disque plein");
    const left: string[] = [];
    for await (const file of store.list()) left.push(file.key);
    expect(left).toEqual([]);
    if (databaseUrl) {
      const database = openDatabase({ databaseUrl, poolSize: 1 });
      try {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from information_schema.tables where table_schema = 'public'`.execute(
          database.db,
        );
        expect(rows[0]?.n).toBe(0);
      } finally {
        await database.close();
      }
    } else expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
    // Run again once the cause is gone: the place is accepted as empty, and the restore is whole.
    const back = await restoreBackup({ file: archive, keys: source.config.dataKeys, store, target });
    expect(back.database.tables).toEqual(manifest.database.tables);
  });

  it("says so when what a failed restore wrote cannot be taken back, the cause first", async () => {
    const dataDir = tempDir("sourio-drill-stuck-");
    const store = new LocalStorage(path.join(dataDir, "files"));
    let writes = 0;
    const stuck: Storage = Object.assign(Object.create(store) as Storage, {
      write: (key: string, source: Readable) => {
        writes += 1;
        if (writes === 2) return Promise.reject(new Error("disque plein"));
        return store.write(key, source);
      },
      remove: () => Promise.reject(new Error("stockage injoignable")),
    });
    const databaseUrl = manifest.database.kind === "postgres" ? await emptyPostgres() : undefined;
    const target = databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, "pglite") };
    await expect(
      restoreBackup({ file: archive, keys: source.config.dataKeys, store: stuck, target }),
    ).rejects.toThrow(
      "disque plein ; ce qui avait été écrit n'a pas pu être retiré (stockage injoignable) : videz l'endroit avant de relancer.",
    );
  });

  it("restores into a fresh place: every table's rows equal the manifest, the app starts on it", async () => {
    const dataDir = tempDir("sourio-drill-restored-");
    const store = new LocalStorage(path.join(dataDir, "files"));
    const postgres = manifest.database.kind === "postgres";
    const databaseUrl = postgres ? await emptyPostgres() : undefined;
    const target = databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, "pglite") };
    const back = await restoreBackup({ file: archive, keys: source.config.dataKeys, store, target });
    expect(back.database.tables).toEqual(manifest.database.tables);

    const database = databaseUrl
      ? openDatabase({ databaseUrl, poolSize: 4 })
      : openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    const counts = await describeDatabase(database.db);
    expect(counts.tables).toEqual(manifest.database.tables);
    expect(counts.migration).toBe(manifest.database.migration);
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      AUTH_SECRET: "restored-secret-restored-secret-0123456789",
      DATA_KEY: (source.config.dataKeys[0] as Buffer).toString("base64"),
      PUBLIC_URL: "http://localhost:3000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const storage = new EncryptedStorage(store, keyringOf(config.dataKeys));
    const app = await buildApp({ config, database, storage, clientDir: path.join(dataDir, "no-client") });
    await app.ready();
    restored = { app, database, storage };
    afterAll(async () => {
      await app.close();
      await database.close();
    });
  });

  it("serves every document byte for byte, lets a patient log in, and holds no half-written request", async () => {
    const { app, storage } = restored;
    const requests = await app.db.selectFrom("requests").select("id").execute();
    const ids = new Set(requests.map((r) => r.id));
    const documents = await app.db
      .selectFrom("documents")
      .select(["id", "request_id", "storage_key"])
      .execute();
    expect(documents.length).toBe(manifest.database.tables.documents);
    // Every stored document comes back, decrypted with the same key, as the source serves it.
    for (const document of documents) {
      const original = await readAll(source.app.storage.read(document.storage_key));
      const copy = await readAll(storage.read(document.storage_key));
      expect(copy.equals(original), document.storage_key).toBe(true);
    }
    // The generated patients' requests present in the snapshot: complete, their files as uploaded.
    let checked = 0;
    for (const one of sent) {
      if (!ids.has(one.requestId)) continue;
      const login = await app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email: one.email, password: PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      const cookie = sessionCookie(login);
      const own = documents.filter((d) => d.request_id === one.requestId);
      expect(own.length, one.requestId).toBe(one.files.length);
      const downloaded: Buffer[] = [];
      for (const document of own) {
        const file = await app.inject({
          method: "GET",
          url: `/api/documents/${document.id}/file`,
          headers: { cookie },
        });
        expect(file.statusCode, file.body).toBe(200);
        downloaded.push(file.rawPayload);
      }
      const sorted = (list: Buffer[]) => list.map((b) => b.toString("base64")).sort();
      expect(sorted(downloaded)).toEqual(sorted(one.files));
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    // The requests written after the snapshot are absent altogether.
    const after = sent.filter((one) => !ids.has(one.requestId));
    expect(after.length).toBeGreaterThan(0);
    const orphans = await app.db
      .selectFrom("documents")
      .select("id")
      .where(
        "request_id",
        "in",
        after.map((one) => one.requestId),
      )
      .execute();
    expect(orphans).toEqual([]);
    // The demo patient signs in on the restored app.
    const demo = await app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: "patient@demo.sourio.fr", password: "sourio-demo" },
    });
    expect(demo.statusCode, demo.body).toBe(200);
  });
});
