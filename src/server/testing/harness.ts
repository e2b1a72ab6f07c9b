import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { buildApp } from "../app";
import { type AppConfig, loadConfig } from "../config";
import { type DatabaseHandle, migrateToLatest, openDatabase, PGLITE_OPTIONS } from "../db/index";
import { runMailJobs } from "../jobs";
import { atFileEnd } from "./file-end";
import { multipart, tinyPdf, tinyPng } from "./files";
import { readOutbox } from "./mail";
import { emptyPostgresDatabase } from "./postgres";
import { startS3, type TestS3 } from "./s3";
import { type TemplateEntry, TemplateFS, templateEntries } from "./template-fs";

/**
 * API tests run buildApp against a real database: a fresh PGlite per app (cloned from a migrated
 * template, so each test file starts clean and fast), or, when TEST_DATABASE_URL is set, a fresh
 * PostgreSQL database created for the app and dropped afterwards. With TEST_S3=1 the files go to
 * an S3 bucket instead of the local disk: one s3rver per test file (started with the first app,
 * stopped after the file's tests), a fresh bucket per app, given to the app as S3_* settings, so
 * the app builds its storage (S3, encrypted by us) exactly as in production.
 */

const TEST_S3 = process.env.TEST_S3 === "1";
/** The files' master key of the apps on PostgreSQL or S3 (32 bytes, base64): a test key, nothing else. */
export const TEST_DATA_KEY = Buffer.alloc(32, 7).toString("base64");
let s3Server: Promise<TestS3> | undefined;

let templates: Promise<{ server: Blob; app: Blob }> | undefined;

/**
 * The migrated database as two data directories:
 * - `server`: the cluster as a server's first start leaves it in DATA_DIR/pglite (the databases
 *   `postgres`, `template0` and `template1`), for the databases on disk (the backup's tests, a
 *   process started on a migrated DATA_DIR);
 * - `app`: the same without `template0` and `template1`, which nothing of an app in memory uses
 *   (PGlite serves the one database, `postgres`; no test creates a database on it). 28 MB to
 *   unpack instead of 43: about 0.17 CPU-s less for every app a test builds (ADR 054). Its files are
 *   read from the tar once per worker and written into each app's database (ADR 068).
 * Built once per run (about 7 CPU-s, ADR 054's addendum): the first worker to need it builds it into
 * the run's folder (global-setup.ts), the other workers wait for it and read it; read once per worker.
 */
function migratedTemplates(): Promise<{ server: Blob; app: Blob }> {
  templates ??= sharedTemplates().catch((error: unknown) => {
    templates = undefined;
    throw error;
  });
  return templates;
}

async function buildTemplates(): Promise<{ server: Blob; app: Blob }> {
  const pglite = new PGlite(PGLITE_OPTIONS);
  const handle = openDatabase({ pglite });
  await migrateToLatest(handle.db);
  const server = await pglite.dumpDataDir("none");
  await pglite.exec(
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
  );
  await pglite.exec("drop database template0");
  await pglite.exec("drop database template1");
  await pglite.exec("checkpoint");
  const app = await pglite.dumpDataDir("none");
  await handle.close();
  return { server, app };
}

/**
 * The run's templates: built by the worker that takes the folder's lock (an exclusive create), written
 * to files and then marked `ready` (or `failed`, with the error); the others wait for the mark. Outside
 * a vitest run with the global setup (no folder provided), built here.
 */
async function sharedTemplates(): Promise<{ server: Blob; app: Blob }> {
  const dir = inject("templateDir");
  if (!dir) return buildTemplates();
  mkdirSync(dir, { recursive: true });
  const ready = path.join(dir, "ready");
  const failed = path.join(dir, "failed");
  const read = () => ({
    server: new Blob([readFileSync(path.join(dir, "server.tar"))]),
    app: new Blob([readFileSync(path.join(dir, "app.tar"))]),
  });
  let builder = false;
  try {
    closeSync(openSync(path.join(dir, "lock"), "wx"));
    builder = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (builder) {
    try {
      const built = await buildTemplates();
      for (const [name, blob] of Object.entries(built))
        writeFileSync(path.join(dir, `${name}.tar`), Buffer.from(await blob.arrayBuffer()));
      writeFileSync(ready, "");
      return built;
    } catch (error) {
      writeFileSync(failed, String((error as Error).stack ?? error));
      throw error;
    }
  }
  // The builder's own hook has the same limit (hookTimeout): a wait that long means it is stuck.
  for (;;) {
    if (existsSync(ready)) return read();
    if (existsSync(failed))
      throw new Error(`The migrated template could not be built:\n${readFileSync(failed, "utf8")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const migratedTemplate = async () => (await migratedTemplates()).server;

let appEntries: Promise<TemplateEntry[]> | undefined;
/** The `app` template's files, read from its tar once per worker (ADR 068). */
function appTemplateEntries(): Promise<TemplateEntry[]> {
  appEntries ??= migratedTemplates()
    .then((built) => templateEntries(built.app))
    .catch((error: unknown) => {
      appEntries = undefined;
      throw error;
    });
  return appEntries;
}

/**
 * The migrated template unpacked into `dir` (a DATA_DIR's `pglite` folder, as a server leaves it after
 * its first start), for the entry points' tests whose subject is not that first start: a process
 * started on it opens the database and finds nothing to migrate (about 4 CPU-s less than initdb and
 * every migration, ADR 054). The start from an empty DATA_DIR stays tested in server.test.ts.
 */
export async function migratedPgliteDir(dir: string): Promise<void> {
  const pglite = new PGlite(dir, { ...PGLITE_OPTIONS, loadDataDir: await migratedTemplate() });
  await pglite.waitReady;
  await pglite.close();
}

/**
 * An app's database in memory starts with 16 MB of shared buffers instead of the cluster's 128 MB: a
 * test's whole database is a few MB (the template unpacked is 28 MB, 16 of them one WAL segment), and
 * PostgreSQL sets up its buffers at every start: about 0.08 CPU-s less for each of the 70–90 apps of
 * a run (ADR 054's addendum). What the app reads and writes is the same; the databases on disk (a
 * server's DATA_DIR) keep the server's settings.
 */
const IN_MEMORY_START = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

async function freshDatabase(
  shared?: string,
  onDisk?: string,
): Promise<{ handle: DatabaseHandle; url?: string; drop: () => Promise<void> }> {
  if (shared)
    return { handle: openDatabase({ databaseUrl: shared, poolSize: 4 }), url: shared, drop: async () => {} };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // On disk (the backup's tests): the template unpacked into the folder, as a server's DATA_DIR/pglite.
    const pglite = onDisk
      ? new PGlite(onDisk, { ...PGLITE_OPTIONS, loadDataDir: await migratedTemplate() })
      : new PGlite({
          ...PGLITE_OPTIONS,
          fs: new TemplateFS(await appTemplateEntries()),
          startParams: IN_MEMORY_START,
        });
    const handle = openDatabase({ pglite, pgliteDir: onDisk });
    return { handle, drop: async () => {} };
  }
  const { url, drop } = await emptyPostgresDatabase(serverUrl, "sourio_test");
  const handle = openDatabase({ databaseUrl: url, poolSize: 4 });
  await migrateToLatest(handle.db);
  return { handle, url, drop };
}

/** Whether a test's own settings put the files in a bucket (blank S3_* ones mean the local disk). */
function sharesStorage(env: Record<string, string>): boolean {
  return Object.entries(env).some(([name, value]) => name.startsWith("S3_") && value.trim() !== "");
}

/** The test file's S3 server: started with its first app, stopped when the file ends. */
function sharedS3(): Promise<TestS3> {
  if (!s3Server) {
    const server = startS3();
    s3Server = server;
    atFileEnd(async () => {
      s3Server = undefined;
      await (await server).close();
    });
  }
  return s3Server;
}

export interface TestContext {
  app: FastifyInstance;
  config: AppConfig;
  database: DatabaseHandle;
  /** The PostgreSQL database's URL (TEST_DATABASE_URL runs), for a second instance on it. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** The e-mails written to the outbox, oldest first, as raw text. */
  outbox(): string[];
  /**
   * The outbox once every e-mail this app has started sending has been written: what a use case
   * sends after its commit without awaiting it is there when the answer has come.
   */
  mails(): Promise<string[]>;
  /**
   * Every stored file (unfinished ones as `.part` keys), read from the disk itself: the storage
   * folder, or with TEST_S3 the bucket as the S3 server holds it.
   */
  storedKeys(): string[];
  /** A stored file's bytes as the store keeps them (encrypted), read from the disk or the bucket. */
  storedFile(key: string): Buffer;
  /** The app's bucket (TEST_S3 runs), undefined on the local disk. */
  bucket?: string | undefined;
  close(): Promise<void>;
}

export interface TestContextOptions {
  env?: Record<string, string>;
  /** Called after buildApp, before ready: tests may add probe routes. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Built client folder to serve; by default none. */
  clientDir?: string;
  /** The app's clock (default: the real time). */
  clock?: () => Date;
  /** Another instance on this PostgreSQL database (the creator drops it), instead of a fresh one. */
  databaseUrl?: string;
  /** Where the app's logs go (default: stdout, at LOG_LEVEL); tests capture them. */
  logStream?: { write(line: string): void };
  /** The files on the local disk even in TEST_S3 runs (tests of the disk folder itself). */
  localStorage?: boolean;
  /**
   * The embedded database in DATA_DIR/pglite, as a server keeps it, instead of in memory (the
   * backup's tests: only a database on disk is backed up). Ignored on PostgreSQL.
   */
  pgliteOnDisk?: boolean;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const { beforeReady, env = {} } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-test-"));
  const { handle, url, drop } = await freshDatabase(
    options.databaseUrl,
    options.pgliteOnDisk ? path.join(dataDir, "pglite") : undefined,
  );
  // A bucket of our own, unless the test chooses the storage itself: any S3_* setting given (several
  // apps on one bucket, or blank ones for the local disk), or localStorage.
  const ownStorage = options.localStorage || Object.keys(env).some((name) => name.startsWith("S3_"));
  const s3 = TEST_S3 && !ownStorage ? await sharedS3() : null;
  const bucket = s3 ? await s3.newBucket() : null;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    // On PostgreSQL or a bucket the instances share one explicit key (config/index.ts requires it);
    // on the embedded database each app generates its own in its DATA_DIR, as in the quick start.
    ...(url || bucket || sharesStorage(env) ? { DATA_KEY: TEST_DATA_KEY } : {}),
    PUBLIC_URL: "http://localhost:3000",
    // The reading processes' priority as the run sets it (scripts/test.mjs: the suite's own beside the
    // browser journeys, ADR 054 addendum); 19, the product's, otherwise.
    ...(process.env.READING_NICE ? { READING_NICE: process.env.READING_NICE } : {}),
    // The realtime bus listens on the same PostgreSQL database.
    ...(url ? { DATABASE_URL: url } : {}),
    ...(bucket
      ? {
          S3_ENDPOINT: bucket.endpoint,
          S3_BUCKET: bucket.bucket,
          S3_REGION: bucket.region,
          S3_ACCESS_KEY_ID: bucket.accessKeyId,
          S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
          S3_FORCE_PATH_STYLE: String(bucket.forcePathStyle),
        }
      : {}),
    ...env,
  });
  const app = await buildApp({
    config,
    database: handle,
    clientDir: options.clientDir ?? path.join(dataDir, "no-client"),
    mailJobs: runMailJobs,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  await beforeReady?.(app);
  await app.ready();
  return {
    app,
    config,
    database: handle,
    databaseUrl: url,
    dataDir,
    bucket: bucket?.bucket,
    outbox() {
      return readOutbox(dataDir);
    },
    async mails() {
      await app.mailer.settled();
      return readOutbox(dataDir);
    },
    storedKeys() {
      if (s3 && bucket) return s3.storedKeys(bucket.bucket);
      const root = path.join(dataDir, "files");
      try {
        return readdirSync(root, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) =>
            path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
          );
      } catch {
        return [];
      }
    },
    storedFile(key) {
      if (s3 && bucket) return s3.storedObject(bucket.bucket, key);
      return readFileSync(path.join(dataDir, "files", key));
    },
    async close() {
      await app.close();
      await handle.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie pair ("name=value") from a response, to send back as a Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookies = response.cookies as Array<{ name: string; value: string }>;
  const session = cookies.find((c) => c.name.endsWith("session_token"));
  if (!session) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${session.name}=${session.value}`;
}

let counter = 0;
/** A unique e-mail per call, so tests never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export async function signUpPatient(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const body = {
    role: "patient",
    first_name: "Marie",
    last_name: "Dupont",
    email: uniqueEmail("patient"),
    password: "Sourire-Sain-2026",
    accept_terms: true,
    ...overrides,
  };
  const response = await app.inject({ method: "POST", url: "/api/account/signup", payload: body });
  return { response, body, cookie: response.statusCode === 201 ? sessionCookie(response) : "" };
}

export async function signUpDentist(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const body = {
    role: "dentist",
    first_name: "Julien",
    last_name: "Martin",
    city: "Paris",
    phone_number: "0142000001",
    email: uniqueEmail("dentist"),
    password: "Sourire-Sain-2026",
    password_confirmation: "Sourire-Sain-2026",
    accept_terms: true,
    ...overrides,
  };
  const response = await app.inject({ method: "POST", url: "/api/account/signup", payload: body });
  return { response, body, cookie: response.statusCode === 201 ? sessionCookie(response) : "" };
}

/** A document sent with a request. */
export interface UploadFile {
  name: string;
  type: string;
  content: Buffer;
}

/** A one-page PDF quote, the usual document of a test request. */
export const devisPdf = (): UploadFile => ({
  name: "devis.pdf",
  type: "application/pdf",
  content: tinyPdf(),
});

/**
 * POST /api/patient/requests as the browser sends it (multipart: the fields as given, the files
 * under "files"), with the session cookie when there is one.
 */
export function postRequest(
  app: FastifyInstance,
  cookie: string | undefined,
  fields: Record<string, string>,
  files: UploadFile[] = [devisPdf()],
): Promise<LightMyRequestResponse> {
  const body = multipart(
    fields,
    files.map((file) => ({ field: "files", ...file })),
  );
  return app.inject({
    method: "POST",
    url: "/api/patient/requests",
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
  });
}

/** An X-ray image, the usual second document of a test request. */
export const radioPng = (): UploadFile => ({ name: "radio.png", type: "image/png", content: tinyPng() });

/**
 * A crown request the patient behind `cookie` creates with these files (and these fields on top):
 * it must be created (201); its id.
 */
export async function newRequestId(
  app: FastifyInstance,
  cookie: string,
  files: UploadFile[] = [devisPdf()],
  fields: Record<string, string> = {},
): Promise<string> {
  const response = await postRequest(
    app,
    cookie,
    { treatment_type: "crown", consent: "true", ...fields },
    files,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/**
 * One app for the whole test file: built before its first test, closed after its last. The object
 * is filled in by `beforeAll`, so read `ctx.app` inside tests and hooks, not at the file's top level.
 */
export function appPerFile(options: TestContextOptions = {}): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(options));
  });
  afterAll(async () => ctx.close?.());
  return ctx;
}

/**
 * Two apps on one PostgreSQL database for the whole test file (TEST_DATABASE_URL runs), as behind a
 * load balancer, both listening on the bus before the first test. B closes first: A's database is
 * dropped when A closes.
 */
export function twoInstancesPerFile(): { a: TestContext; b: TestContext } {
  const pair = { a: {} as TestContext, b: {} as TestContext };
  beforeAll(async () => {
    Object.assign(pair.a, await createTestContext());
    Object.assign(pair.b, await createTestContext({ databaseUrl: pair.a.databaseUrl as string }));
    await Promise.all([pair.a.app.bus.listening(), pair.b.app.bus.listening()]);
  });
  afterAll(async () => {
    await pair.b.close?.();
    await pair.a.close?.();
  });
  return pair;
}
