import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { buildApp } from "../app";
import { type AppConfig, loadConfig } from "../config";
import { type DatabaseHandle, migrateToLatest, openDatabase, PGLITE_OPTIONS } from "../db/index";
import { multipart, tinyPdf } from "./files";
import { decodeQuotedPrintable } from "./mail";

/**
 * API tests run buildApp against a real database: a fresh PGlite per app (cloned from a migrated
 * template, so each test file starts clean and fast), or, when TEST_DATABASE_URL is set, a fresh
 * PostgreSQL database created for the app and dropped afterwards.
 */

let template: Promise<Blob> | undefined;

function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const pglite = new PGlite(PGLITE_OPTIONS);
    const handle = openDatabase({ pglite });
    await migrateToLatest(handle.db);
    const dump = await pglite.dumpDataDir("none");
    await handle.close();
    return dump;
  })();
  return template;
}

async function freshDatabase(
  shared?: string,
): Promise<{ handle: DatabaseHandle; url?: string; drop: () => Promise<void> }> {
  if (shared)
    return { handle: openDatabase({ databaseUrl: shared, poolSize: 4 }), url: shared, drop: async () => {} };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const pglite = new PGlite({ ...PGLITE_OPTIONS, loadDataDir: await migratedTemplate() });
    const handle = openDatabase({ pglite });
    return { handle, drop: async () => {} };
  }
  const name = `sourio_test_${randomUUID().replace(/-/g, "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.href, poolSize: 4 });
  await migrateToLatest(handle.db);
  return {
    handle,
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
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
  /** Every file in the storage folder (`.part` files included), as keys, read from the disk itself. */
  storedKeys(): string[];
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
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const { beforeReady, env = {} } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-test-"));
  const { handle, url, drop } = await freshDatabase(options.databaseUrl);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    PUBLIC_URL: "http://localhost:3000",
    // The realtime bus listens on the same PostgreSQL database.
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  });
  const app = await buildApp({
    config,
    database: handle,
    clientDir: options.clientDir ?? path.join(dataDir, "no-client"),
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
    outbox() {
      const dir = path.join(dataDir, "outbox");
      try {
        return readdirSync(dir)
          .sort()
          .map((f) => decodeQuotedPrintable(readFileSync(path.join(dir, f), "utf8")));
      } catch {
        return [];
      }
    },
    storedKeys() {
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
