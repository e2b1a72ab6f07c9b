import http from "node:http";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { actByCode } from "../../../shared/domain/acts";
import { RETENTION } from "../../../shared/domain/retention";
import { DATA_EXPORT_URL } from "../../../shared/schemas/account";
import { DOCUMENT_MESSAGES } from "../../../shared/schemas/documents";
import { type QuoteReading, READING_MESSAGES, type ReadResult } from "../../../shared/schemas/reading";
import { REQUEST_NOT_FOUND } from "../../../shared/schemas/requests";
import { archiveOf } from "../../testing/archive";
import { type CorpusDevis, devisPdf, devisPhoto, makeDevis } from "../../testing/devis-corpus";
import {
  createTestContext,
  newRequestId,
  radioPng,
  signUpDentist,
  signUpPatient,
  type TestContext,
  type UploadFile,
} from "../../testing/harness";
import { operators } from "../../testing/hostile-files";
import { api } from "../../testing/people";
import { listenLocally, openSocket } from "../../testing/sockets";
import { runRetention } from "../retention/retention.service";
import { readQuote } from "./read";
import { MAX_ATTEMPTS, readingQueue, readingTextKey } from "./reading.repo";
import { READ_AGAIN_PER_HOUR } from "./reading.routes";
import { ReadingRunner } from "./runner";
import { endedByItself } from "./sandbox";
import { ReadingError } from "./types";

/**
 * Reading the uploaded devis (issue 17), through the API and a real database: the upload queues
 * the reading, the runner (drained by the test, never waited for with sleeps) reads it, the patient
 * sees it, confirms or dismisses it; nobody else can; the stored text goes with the request.
 */

let ctx: TestContext;
let owner: { cookie: string; id: string };
let other: { cookie: string; id: string };
let dentistCookie: string;
let devis: CorpusDevis;
let devisFile: UploadFile;

const silentLog = { info() {}, warn() {}, error() {} };

async function patientId(email: string): Promise<string> {
  const row = await ctx.app.db
    .selectFrom("profiles")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function upload(
  cookie: string,
  files: UploadFile[],
  types: string[],
  fields: Record<string, string> = {},
): Promise<string> {
  return newRequestId(ctx.app, cookie, files, { document_types: JSON.stringify(types), ...fields });
}

/** A JSON call to the app as someone (`ctx` is read at each call: it is set in beforeAll). */
const call = (...args: Parameters<ReturnType<typeof api>["call"]>) => api(ctx).call(...args);

const readingOf = (cookie: string, requestId: string) =>
  call("GET", `/api/patient/requests/${requestId}/reading`, cookie);

async function latest(requestId: string): Promise<QuoteReading> {
  const response = await readingOf(owner.cookie, requestId);
  expect(response.statusCode, response.body).toBe(200);
  const reading = response.json().reading as QuoteReading | null;
  if (!reading) throw new Error("no reading");
  return reading;
}

/** Where the patient asks for a document of the request to be read (again). */
const readUrl = (requestId: string, documentId: string) =>
  `/api/patient/requests/${requestId}/documents/${documentId}/read`;

/** The rows of the request's readings, read in the database. */
const readingRowsOf = (requestId: string) =>
  ctx.app.db.selectFrom("quote_readings").select("id").where("request_id", "=", requestId).execute();

async function documentsOf(requestId: string) {
  return ctx.app.db
    .selectFrom("documents")
    .select(["id", "document_type"])
    .where("request_id", "=", requestId)
    .orderBy("position")
    .execute();
}

const garbagePdf = (): UploadFile => ({
  name: "devis-abime.pdf",
  type: "application/pdf",
  content: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(2000, 0x41), Buffer.from("\n%%EOF\n")]),
});

beforeAll(async () => {
  ctx = await createTestContext();
  const a = await signUpPatient(ctx.app);
  const b = await signUpPatient(ctx.app, { first_name: "Bruno", last_name: "Petit" });
  owner = { cookie: a.cookie, id: await patientId(a.body.email) };
  other = { cookie: b.cookie, id: await patientId(b.body.email) };
  dentistCookie = (await signUpDentist(ctx.app)).cookie;
  devis = makeDevis(17);
  devisFile = {
    name: "devis-cabinet.pdf",
    type: "application/pdf",
    content: Buffer.from(await devisPdf(devis)),
  };
});
afterAll(async () => ctx?.close());

describe("reading an uploaded devis", () => {
  let requestId: string;
  let reading: QuoteReading;

  it("queues the devis at upload (the upload answers at once), and the runner reads its lines", async () => {
    requestId = await upload(owner.cookie, [devisFile, radioPng()], ["quote", "xray"]);
    const queued = await latest(requestId);
    expect(queued).toMatchObject({ status: "pending", result: null, file_name: "devis-cabinet.pdf" });
    const [quote] = await documentsOf(requestId);
    expect(queued.document_id).toBe(quote?.id);

    expect(await ctx.app.readings.drain()).toBe(1);
    reading = await latest(requestId);
    expect(reading.status).toBe("done");
    expect(reading.kind).toBe("text_pdf");
    expect(reading.pages).toBe(1);
    expect(reading.finished_at).not.toBeNull();
    const lines = reading.result?.lines ?? [];
    expect(lines.length).toBe(devis.lines.length);
    expect(lines.map((l) => l.code)).toEqual(devis.lines.map((l) => l.code));
    expect(lines.map((l) => l.fee_cents)).toEqual(devis.lines.map((l) => l.fee_cents));
  });

  it("stores the text read under the patient's prefix, encrypted at rest", async () => {
    const key = readingTextKey(owner.id, reading.id);
    expect(ctx.storedKeys()).toContain(key);
    const raw = ctx.storedFile(key);
    const code = devis.lines[0]?.code ?? "";
    expect(code).toMatch(/^[A-Z]{4}\d{3}$/);
    expect(raw.includes(Buffer.from(code))).toBe(false);
    const row = await ctx.app.db
      .selectFrom("quote_readings")
      .select("text_key")
      .where("id", "=", reading.id)
      .executeTakeFirstOrThrow();
    expect(row.text_key).toBe(key);
  });

  it("shows the reading to its patient only", async () => {
    expect((await readingOf(other.cookie, requestId)).statusCode).toBe(404);
    expect((await readingOf(dentistCookie, requestId)).statusCode).toBe(403);
    expect((await readingOf("", requestId)).statusCode).toBe(401);
    const notFound = await readingOf(owner.cookie, "00000000-0000-4000-8000-000000000000");
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().error.message).toBe(REQUEST_NOT_FOUND);
  });

  it("serves the preview of a page read to its patient, never cached; a page out of range is 404", async () => {
    const url = (page: number) => `/api/patient/requests/${requestId}/reading/${reading.id}/pages/${page}`;
    const page = await call("GET", url(1), owner);
    expect(page.statusCode, page.body.slice(0, 200)).toBe(200);
    expect(page.headers["content-type"]).toBe("image/png");
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.rawPayload.subarray(1, 4).toString("latin1")).toBe("PNG");
    const beyond = await call("GET", url(2), owner);
    expect(beyond.statusCode).toBe(404);
    expect(beyond.json().error.message).toBe(READING_MESSAGES.readingNotFound);
    const stranger = await call("GET", url(1), other);
    expect(stranger.statusCode).toBe(404);
  });

  it("drops a preview its patient no longer waits for (the connection closed), and serves the next one", async () => {
    const base = await listenLocally(ctx.app);
    const box = ctx.app.readings.previewSandbox;
    const run = box.run.bind(box);
    const signals: (AbortSignal | undefined)[] = [];
    const runs: Promise<unknown>[] = [];
    let leave = () => {};
    // The patient leaves while the page is queued for rendering: the run waits for the server to see
    // the connection closed, then goes on with what the route gave it.
    const spy = vi.spyOn(box, "run").mockImplementation(async (task, signal) => {
      signals.push(signal);
      if (signals.length === 1) {
        leave();
        await expect.poll(() => signal?.aborted, { timeout: 30_000 }).toBe(true);
      }
      const running = run(task, signal);
      runs.push(running);
      return running;
    });
    try {
      const url = `${base}/api/patient/requests/${requestId}/reading/${reading.id}/pages/1`;
      const gone = new Promise<void>((resolve) => {
        const client = http.get(url, { headers: { cookie: owner.cookie } });
        leave = () => client.destroy();
        client.on("error", () => resolve());
        client.on("close", () => resolve());
      });
      await gone;
      await expect.poll(() => runs.length).toBe(1);
      expect(signals[0]?.aborted).toBe(true);
      await expect(runs[0]).rejects.toThrow("le client est parti");

      // The next patient who waits gets the page; the preview's signal stays quiet after its answer.
      const page = await fetch(url, { headers: { cookie: owner.cookie } });
      // A 404 here twice in CI (03/12 and 06/12/2026, not reproduced): the preview's process had died
      // by itself (no stop of ours). Such a death is now rendered again (the test below); if a 404
      // comes again, it says what the server answered and how the process last ended.
      const said = page.status === 200 ? "" : await page.clone().text();
      const ended = `dernier arrêt : ${box.lastKill ?? "aucun"}, dernière fin : ${JSON.stringify(box.lastExit)}`;
      expect(page.status, `${said} (${ended})`).toBe(200);
      expect(page.headers.get("content-type")).toBe("image/png");
      await page.arrayBuffer();
      expect(signals).toHaveLength(2);
      expect(signals[1]?.aborted).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it("renders the page once more when its process ended by itself under it, never when it was killed", async () => {
    const box = ctx.app.readings.previewSandbox;
    const run = box.run.bind(box);
    // How a child that ended under its task fails it (sandbox.test.ts makes a real one end so).
    const ended = (signal: NodeJS.Signals | null) =>
      Object.assign(new ReadingError(READING_MESSAGES.failed), {
        childExit: { exitCode: signal ? null : 1, signal, starting: false },
      });
    let failNext: NodeJS.Signals | null | undefined;
    const spy = vi.spyOn(box, "run").mockImplementation(async (task, signal) => {
      if (failNext !== undefined) {
        const how = failNext;
        failNext = undefined;
        throw ended(how);
      }
      // The real render. Its child too died by itself once in CI (07/12/2026, Node 22 on PostgreSQL,
      // as in the test above): then it runs once more here, so that this test counts the route's
      // runs (the spy's calls), not the health of a child process on a loaded machine.
      return run(task, signal).catch((error: unknown) => {
        if (!endedByItself(error)) throw error;
        return run(task, signal);
      });
    });
    try {
      const url = `/api/patient/requests/${requestId}/reading/${reading.id}/pages/1`;
      failNext = null;
      const page = await call("GET", url, owner);
      expect(page.statusCode, page.body.slice(0, 200)).toBe(200);
      expect(page.headers["content-type"]).toBe("image/png");
      expect(spy).toHaveBeenCalledTimes(2);
      // Killed from outside (SIGKILL: the kernel's memory killer, an operator): the French 404, once.
      failNext = "SIGKILL";
      const killed = await call("GET", url, owner);
      expect(killed.statusCode).toBe(404);
      expect(killed.json().error.message).toBe(READING_MESSAGES.failed);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });

  it("drops a preview whose patient left while its page was fetched from storage", async () => {
    const base = await listenLocally(ctx.app);
    const box = ctx.app.readings.previewSandbox;
    const run = box.run.bind(box);
    const read = ctx.app.storage.read.bind(ctx.app.storage);
    const aborted: (boolean | undefined)[] = [];
    const runs: Promise<unknown>[] = [];
    let leave = () => {};
    // The patient leaves before the route asks for the preview: the server has seen the connection
    // closed (back to the connections open before it) by the time the page's file is handed over.
    const fetched = vi.spyOn(ctx.app.storage, "read").mockImplementation((key) =>
      Readable.from(
        (async function* () {
          leave();
          await expect.poll(() => openConnections(), { timeout: 30_000 }).toBe(before);
          yield* read(key);
        })(),
      ),
    );
    const rendering = vi.spyOn(box, "run").mockImplementation(async (task, signal) => {
      aborted.push(signal?.aborted);
      const running = run(task, signal);
      runs.push(running);
      return running;
    });
    const openConnections = () =>
      new Promise<number>((resolve) => ctx.app.server.getConnections((_, count) => resolve(count)));
    const before = await openConnections();
    try {
      const url = `${base}/api/patient/requests/${requestId}/reading/${reading.id}/pages/1`;
      await new Promise<void>((resolve) => {
        const client = http.get(url, { headers: { cookie: owner.cookie } });
        leave = () => client.destroy();
        client.on("error", () => resolve());
        client.on("close", () => resolve());
      });
      await expect.poll(() => runs.length).toBe(1);
      expect(aborted).toEqual([true]);
      await expect(runs[0]).rejects.toThrow("le client est parti");
    } finally {
      fetched.mockRestore();
      rendering.mockRestore();
    }
  });

  it("confirms the lines read through PUT …/quote with reading_id, in the same transaction", async () => {
    const lines = (reading.result?.lines ?? []).map((l) => ({
      code: l.code,
      act: l.act || "Acte",
      tooth: l.tooth,
      fee_cents: l.fee_cents ?? 100,
    }));
    // Another request's reading: refused, and nothing saved on either request.
    const otherRequest = await upload(owner.cookie, [devisFile], ["quote"]);
    const wrong = await call("PUT", `/api/patient/requests/${otherRequest}/quote`, owner, {
      lines,
      reading_id: reading.id,
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.message).toBe(READING_MESSAGES.readingNotFound);
    const otherDetail = await call("GET", `/api/patient/requests/${otherRequest}`, owner);
    expect(otherDetail.json().quote_lines).toEqual([]);
    // A reading still pending cannot be confirmed either.
    const pending = await latest(otherRequest);
    expect(pending.status).toBe("pending");
    const early = await call("PUT", `/api/patient/requests/${otherRequest}/quote`, owner, {
      lines,
      reading_id: pending.id,
    });
    expect(early.statusCode).toBe(404);

    const saved = await call("PUT", `/api/patient/requests/${requestId}/quote`, owner, {
      lines,
      reading_id: reading.id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const detail = await call("GET", `/api/patient/requests/${requestId}`, owner);
    expect(detail.json().quote_lines.map((l: { code: string | null }) => l.code)).toEqual(
      lines.map((l) => l.code),
    );
    expect((await latest(requestId)).confirmed_at).not.toBeNull();
    await ctx.app.readings.drain();
  });

  it("records a dismissal ('je saisis moi-même'), for its patient only", async () => {
    const url = `/api/patient/requests/${requestId}/reading/${reading.id}/dismiss`;
    const stranger = await call("POST", url, other);
    expect(stranger.statusCode).toBe(404);
    expect((await latest(requestId)).dismissed_at).toBeNull();
    const response = await call("POST", url, owner);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(READING_MESSAGES.dismissed);
    expect(response.json().reading.dismissed_at).not.toBeNull();
    // Another request's id with this reading: not found.
    const elsewhere = await upload(owner.cookie, [radioPng()], ["xray"]);
    const mismatched = await call(
      "POST",
      `/api/patient/requests/${elsewhere}/reading/${reading.id}/dismiss`,
      owner,
    );
    expect(mismatched.statusCode).toBe(404);
    expect(mismatched.json().error.message).toBe(READING_MESSAGES.readingNotFound);
  });

  it("queues nothing when the patient typed the lines, or sent no devis", async () => {
    const typed = await upload(owner.cookie, [devisFile], ["quote"], {
      quote_lines: JSON.stringify([{ code: "HBLD634", act: "Couronne", tooth: 21, fee_cents: 60_000 }]),
    });
    const xray = await upload(owner.cookie, [devisFile], ["xray"]);
    for (const id of [typed, xray]) {
      const response = await readingOf(owner.cookie, id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ reading: null });
    }
  });

  it("removes the text read when the request is deleted", async () => {
    const key = readingTextKey(owner.id, reading.id);
    expect(ctx.storedKeys()).toContain(key);
    const response = await call("DELETE", `/api/patient/requests/${requestId}`, owner);
    expect(response.statusCode, response.body).toBe(200);
    expect(ctx.storedKeys()).not.toContain(key);
    expect(await readingRowsOf(requestId)).toEqual([]);
  });
});

describe("a devis that cannot be read", () => {
  let requestId: string;
  let documentId: string;

  it("fails with a French message, and offers manual entry", async () => {
    requestId = await upload(owner.cookie, [garbagePdf(), radioPng()], ["quote", "xray"]);
    documentId = (await documentsOf(requestId))[0]?.id ?? "";
    await ctx.app.readings.drain();
    const reading = await latest(requestId);
    expect(reading.status).toBe("failed");
    expect(reading.result).toBeNull();
    expect(Object.values(READING_MESSAGES)).toContain(reading.message);
    expect(reading.message).toMatch(/illisible|pas pu lire|ne peut pas être lu/);
  });

  it("is read again on demand (retry), once at a time", async () => {
    const url = readUrl(requestId, documentId);
    const stranger = await call("POST", url, other);
    expect(stranger.statusCode).toBe(404);
    const retry = await call("POST", url, owner);
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json().reading).toMatchObject({ status: "pending", document_id: documentId });
    const twice = await call("POST", url, owner);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(READING_MESSAGES.alreadyReading);
    expect(await ctx.app.readings.drain()).toBe(1);
    const again = await latest(requestId);
    expect(again.id).toBe(retry.json().reading.id);
    expect(again.status).toBe("failed");
  });

  it("refuses a document of another request (400) and a closed request (409)", async () => {
    const otherRequest = await upload(owner.cookie, [radioPng()], ["xray"]);
    const foreign = await call("POST", readUrl(otherRequest, documentId), owner);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe(READING_MESSAGES.notQuote);
    const cancel = await call("POST", `/api/patient/requests/${requestId}/cancel`, owner);
    expect(cancel.statusCode).toBe(200);
    const closed = await call("POST", readUrl(requestId, documentId), owner);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe(READING_MESSAGES.notEditable);
  });
});

describe("re-reading, limited per patient", () => {
  it(`answers a French 429 past ${READ_AGAIN_PER_HOUR} reads an hour, for that patient only`, async () => {
    const a = await signUpPatient(ctx.app);
    const b = await signUpPatient(ctx.app);
    const mine = await newRequestId(ctx.app, a.cookie, [garbagePdf()], { document_types: '["quote"]' });
    const theirs = await newRequestId(ctx.app, b.cookie, [garbagePdf()], { document_types: '["quote"]' });
    const myDocument = (await documentsOf(mine))[0]?.id ?? "";
    const theirDocument = (await documentsOf(theirs))[0]?.id ?? "";
    // Already queued by the upload: each ask is refused as busy (409), and counted all the same.
    for (let i = 0; i < READ_AGAIN_PER_HOUR; i += 1) {
      const response = await call("POST", readUrl(mine, myDocument), a.cookie);
      expect(response.statusCode, response.body).toBe(409);
    }
    const limited = await call("POST", readUrl(mine, myDocument), a.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({
      code: "RATE_LIMITED",
      message: READING_MESSAGES.tooManyReadings,
    });
    const other = await call("POST", readUrl(theirs, theirDocument), b.cookie);
    expect(other.statusCode).toBe(409);
    await ctx.app.readings.drain();
  });
});

describe("the reading queue", () => {
  /** A request with a devis queued, its reading id. */
  async function queued(): Promise<{ requestId: string; readingId: string }> {
    const requestId = await upload(owner.cookie, [devisFile], ["quote"]);
    return { requestId, readingId: (await latest(requestId)).id };
  }
  const statusOf = async (id: string) =>
    await ctx.app.db
      .selectFrom("quote_readings")
      .select(["status", "attempts", "message"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("never gives the same reading to two runners (for update skip locked)", async () => {
    const first = await queued();
    const second = await queued();
    const a = readingQueue(ctx.app.db);
    const b = readingQueue(ctx.app.db);
    const [x, y] = await Promise.all([a.claim(), b.claim()]);
    expect(x && y).toBeTruthy();
    expect(new Set([x?.id, y?.id])).toEqual(new Set([first.readingId, second.readingId]));
    const [z, w] = await Promise.all([a.claim(), b.claim()]);
    expect([z, w]).toEqual([undefined, undefined]);
    expect(x).toMatchObject({ patientId: owner.id, mime: "application/pdf", attempts: 1 });
    // Back in the queue for the next tests.
    await sql`update quote_readings set status = 'pending', started_at = null where id in (${x?.id}, ${y?.id})`.execute(
      ctx.app.db,
    );
    await ctx.app.readings.drain();
  });

  it("recovers the readings a stopped instance left running (failed after 3 attempts)", async () => {
    const stale = await queued();
    const worn = await queued();
    const fresh = await queued();
    await sql`update quote_readings set status = 'running', attempts = 1, started_at = now() - interval '11 minutes' where id = ${stale.readingId}`.execute(
      ctx.app.db,
    );
    await sql`update quote_readings set status = 'running', attempts = ${MAX_ATTEMPTS}, started_at = now() - interval '11 minutes' where id = ${worn.readingId}`.execute(
      ctx.app.db,
    );
    // Live: a reading under load may run for minutes (its CPU-time limit, its 4 × wall backstop).
    await sql`update quote_readings set status = 'running', attempts = 1, started_at = now() - interval '5 minutes' where id = ${fresh.readingId}`.execute(
      ctx.app.db,
    );
    expect(await ctx.app.readings.recover()).toBe(2);
    expect(await statusOf(stale.readingId)).toMatchObject({ status: "pending", attempts: 1 });
    expect(await statusOf(worn.readingId)).toMatchObject({
      status: "failed",
      message: READING_MESSAGES.failed,
    });
    expect(await statusOf(fresh.readingId)).toMatchObject({ status: "running" });
    // The recovered one is read again; the live one is left to its runner.
    expect(await ctx.app.readings.drain()).toBe(1);
    expect(await statusOf(stale.readingId)).toMatchObject({ status: "done", attempts: 2 });
    await sql`update quote_readings set status = 'failed' where id = ${fresh.readingId}`.execute(ctx.app.db);
  });

  it("keeps no text of a request deleted while its devis was being read", async () => {
    const { requestId, readingId } = await queued();
    const runner = new ReadingRunner({
      db: ctx.app.db,
      storage: ctx.app.storage,
      bus: ctx.app.bus,
      log: silentLog,
      read: async (data, options) => {
        const reading = await readQuote(data, options);
        const deleted = await call("DELETE", `/api/patient/requests/${requestId}`, owner);
        expect(deleted.statusCode).toBe(200);
        return reading;
      },
    });
    expect(await runner.drain()).toBe(1);
    await runner.close();
    expect(ctx.storedKeys()).not.toContain(readingTextKey(owner.id, readingId));
    expect(ctx.storedKeys().filter((key) => key.includes("/readings/"))).not.toContain(
      readingTextKey(owner.id, readingId),
    );
  });

  it("logs why a process died under its task (exit code or signal), never what it read", async () => {
    const warnings: { obj: object; msg: string }[] = [];
    const runner = new ReadingRunner({
      db: ctx.app.db,
      storage: ctx.app.storage,
      bus: ctx.app.bus,
      log: { ...silentLog, warn: (obj, msg) => warnings.push({ obj, msg }) },
    });
    try {
      await runner.previewSandbox.warm();
      const pid = runner.previewSandbox.pid as number;
      // Two million drawing operators: a page that takes seconds to draw, killed from outside meanwhile.
      const preview = runner.preview(await operators(), "application/pdf", 1);
      setTimeout(() => process.kill(pid, "SIGKILL"), 300);
      await expect(preview).rejects.toThrow(READING_MESSAGES.failed);
      expect(warnings).toEqual([
        {
          obj: { task: "preview", reason: "exit", exitCode: null, signal: "SIGKILL", starting: false },
          msg: "processus de lecture arrêté",
        },
      ]);
    } finally {
      await runner.close();
    }
  });

  it("tells the patient's open tabs when a reading is done ({ type: 'reading' }), and nobody else", async () => {
    const base = await listenLocally(ctx.app);
    const mine = await openSocket(base, owner.cookie);
    const theirs = await openSocket(base, other.cookie);
    try {
      const { requestId, readingId } = await queued();
      await ctx.app.readings.drain();
      await expect
        .poll(() => mine.events)
        .toContainEqual({ type: "reading", request_id: requestId, reading_id: readingId });
      expect(theirs.events.some((e) => e.type === "reading")).toBe(false);
    } finally {
      mine.ws.terminate();
      theirs.ws.terminate();
    }
  });

  it("puts each reading, with its text, in the patient's data export", async () => {
    const { requestId, readingId } = await queued();
    await ctx.app.readings.drain();
    const { data } = await archiveOf(await api(ctx).get(DATA_EXPORT_URL, owner));
    const request = data.requests.find((r) => r.id === requestId);
    const exported = request?.devis_readings.find((r) => r.id === readingId);
    expect(exported?.status).toBe("done");
    expect(exported?.result?.lines.length).toBe(devis.lines.length);
    expect(exported?.text).toContain(devis.lines[0]?.code);
  });
});

describe("the text read goes with the devis", () => {
  /** A new patient's request with its devis read: the patient, the request, the stored text's key. */
  async function readDevis() {
    const signup = await signUpPatient(ctx.app, { first_name: "Chloé", last_name: "Morel" });
    const patient = await patientId(signup.body.email);
    const requestId = await upload(signup.cookie, [devisFile], ["quote"]);
    await ctx.app.readings.drain();
    const row = await ctx.app.db
      .selectFrom("quote_readings")
      .select(["id", "status", "text_key"])
      .where("request_id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("done");
    expect(row.text_key).toBe(readingTextKey(patient, row.id));
    expect(ctx.storedKeys()).toContain(row.text_key);
    return { signup, requestId, key: row.text_key as string };
  }

  it("when the patient erases their account", async () => {
    const { signup, key } = await readDevis();
    const response = await call("POST", "/api/account/delete", signup, { password: signup.body.password });
    expect(response.statusCode, response.body).toBe(200);
    expect(ctx.storedKeys()).not.toContain(key);
  });

  it("when the documents of a cancelled request reach the end of their retention", async () => {
    const { signup, requestId, key } = await readDevis();
    const cancel = await call("POST", `/api/patient/requests/${requestId}/cancel`, signup);
    expect(cancel.statusCode).toBe(200);
    const now = new Date();
    await ctx.app.db
      .updateTable("requests")
      .set({
        cancelled_at: new Date(now.getTime() - (RETENTION.cancelledRequestDocumentDays + 1) * 86_400_000),
      })
      .where("id", "=", requestId)
      .execute();
    const run = await runRetention(
      {
        db: ctx.app.db,
        storage: ctx.app.storage,
        mailer: ctx.app.mailer,
        config: ctx.config,
        log: silentLog,
      },
      now,
    );
    expect(run).toMatchObject({ ran: true, documents: 1 });
    expect(ctx.storedKeys()).not.toContain(key);
    expect(await readingRowsOf(requestId)).toEqual([]);
  });
});

describe("the runner started with the app", () => {
  it("reads a devis as soon as it is uploaded, without anyone draining the queue, and stops with the app", async () => {
    const started = await createTestContext({
      // As in production (NODE_ENV=test leaves the runner to the tests): started when the app is ready.
      beforeReady: (app) => {
        app.addHook("onReady", async () => {
          await app.readings.start();
        });
      },
    });
    try {
      const patient = await signUpPatient(started.app);
      const id = await newRequestId(started.app, patient.cookie, [devisFile], {
        document_types: '["quote"]',
      });
      const url = `/api/patient/requests/${id}/reading`;
      await vi.waitFor(
        async () => {
          const reading = await started.app.inject({
            method: "GET",
            url,
            headers: { cookie: patient.cookie },
          });
          expect(reading.json().reading?.status).toBe("done");
        },
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      await started.close();
    }
  });
});

describe("figures printed otherwise than the act table (issue 34)", () => {
  it("keeps the printed BR, flags it with the table's beside it, and saves the patient's choice; the estimate stays the table's", async () => {
    // A devis printing a BR 12,50 € below the table's for one act of the table (an outdated tariff).
    const printed = makeDevis(3);
    const index = printed.lines.findIndex((l) => actByCode(l.code) && l.br_cents > 0);
    expect(index).toBeGreaterThanOrEqual(0);
    const original = printed.lines[index] as CorpusDevis["lines"][number];
    const tableBr = original.br_cents;
    printed.lines[index] = {
      ...original,
      br_cents: tableBr - 12_50,
      amo_cents: Math.round((tableBr - 12_50) * 0.6),
    };
    const file = {
      name: "devis-ancien-tarif.pdf",
      type: "application/pdf",
      content: Buffer.from(await devisPdf(printed)),
    };
    const requestId = await upload(owner.cookie, [file], ["quote"]);
    await ctx.app.readings.drain();
    const reading = await latest(requestId);
    const line = reading.result?.lines[index];
    expect(line?.br_cents).toBe(tableBr - 12_50);
    expect(line?.amo_cents).toBe(Math.round((tableBr - 12_50) * 0.6));
    expect(line?.uncertain).toEqual(expect.arrayContaining(["br_cents", "amo_cents"]));
    expect(line?.expected).toMatchObject({
      br_cents: tableBr,
      amo_cents: Math.round(tableBr * 0.6),
      day: printed.day,
    });
    expect(line?.filled).toEqual([]);
    // The other lines print the table's figures: nothing to compare there.
    const others = (reading.result?.lines ?? []).filter((_, i) => i !== index);
    for (const other of others) expect(other.uncertain).not.toContain("br_cents");

    const lines = (reading.result?.lines ?? []).map((l) => ({
      code: l.code,
      act: l.act || "Acte",
      tooth: l.tooth,
      fee_cents: l.fee_cents ?? 100,
    }));
    const bad = await call("PUT", `/api/patient/requests/${requestId}/quote`, owner, {
      lines,
      quote_date: printed.day,
      reading_id: reading.id,
      reading_choices: [{ line: index, field: "br_cents", use: "mine" }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields["reading_choices.0.use"]).toBe(
      "Choix invalide\u202f: la valeur lue ou le tarif.",
    );

    const saved = await call("PUT", `/api/patient/requests/${requestId}/quote`, owner, {
      lines,
      quote_date: printed.day,
      reading_id: reading.id,
      reading_choices: [
        { line: index, field: "br_cents", use: "table" },
        { line: index, field: "amo_cents", use: "read" },
        // A line that was not compared with the table (or out of range): not kept.
        { line: 39, field: "br_cents", use: "table" },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await latest(requestId)).choices).toEqual([
      { line: index, field: "br_cents", use: "table" },
      { line: index, field: "amo_cents", use: "read" },
    ]);
    // The patient's devis is estimated with the dated table's BR, whatever was printed or chosen (ADR 038).
    expect(saved.json().lines[index].br_cents).toBe(tableBr);
    // What was read is still what was read.
    const row = await ctx.app.db
      .selectFrom("quote_readings")
      .select("result")
      .where("id", "=", reading.id)
      .executeTakeFirstOrThrow();
    expect((row.result as { lines: { br_cents: number }[] }).lines[index]?.br_cents).toBe(tableBr - 12_50);
  });
});

describe("a figure the reading corrected, and the patient kept as read (issue 34, ADR 043 addendum)", () => {
  it("saves the fee read, keeps the choice of a BR or AMO read, and estimates the reste à charge with the table's BR", async () => {
    const requestId = await upload(owner.cookie, [devisFile], ["quote"]);
    await ctx.app.readings.drain();
    const reading = await latest(requestId);
    expect(reading.status).toBe("done");
    // What the reader leaves on a photo whose OCR slipped where the devis proves it (parse.test.ts and
    // cells.test.ts make these from pages; a photo slipping on purpose is not reproducible cheaply):
    // written in the reading's row, as the reader would.
    const day = "2026-03-02";
    const expected = (basket: "100_sante" | "libre") => ({ basket, br_cents: 12_000, amo_cents: 7200, day });
    const result: ReadResult = {
      lines: [
        // HBLD634 on the 14: BR read "1200" (12,00 €), corrected to the table's 120,00 € by the printed AMO.
        {
          tooth: 14,
          code: "HBLD634",
          act: "Couronne céramo-métallique",
          basket: "100_sante",
          fee_cents: 50_000,
          br_cents: 12_000,
          amo_cents: 7200,
          uncertain: ["br_cents"],
          expected: expected("100_sante"),
          filled: [],
          as_read: { br_cents: 1200 },
        },
        // HBLD734 on the 36: fee read "150,00", corrected to 1 500,00 € by the printed total.
        {
          tooth: 36,
          code: "HBLD734",
          act: "Couronne céramo-métallique sur molaire",
          basket: "libre",
          fee_cents: 150_000,
          br_cents: 12_000,
          amo_cents: 7200,
          uncertain: ["fee_cents"],
          expected: expected("libre"),
          filled: [],
          as_read: { fee_cents: 15_000 },
        },
        // A free line (HBMD017 is not in the table): AMO read "5,40", read again in its cell as 54,00 €.
        {
          tooth: 46,
          code: "HBMD017",
          act: "Inlay core",
          basket: "libre",
          fee_cents: 30_000,
          br_cents: 9000,
          amo_cents: 5400,
          uncertain: ["amo_cents"],
          expected: null,
          filled: [],
          as_read: { amo_cents: 540 },
        },
      ],
      total_cents: 230_000,
      lines_total_cents: 230_000,
      total_matches: true,
      patient_name: null,
      practitioner_name: null,
      practitioner_number: null,
      quote_date: day,
      confidence: 0.7,
    };
    await ctx.app.db
      .updateTable("quote_readings")
      .set({ kind: "image", result: JSON.stringify(result) })
      .where("id", "=", reading.id)
      .execute();

    // The patient keeps every value read: the fee in its line, the BR and the AMO as choices.
    const saved = await call("PUT", `/api/patient/requests/${requestId}/quote`, owner, {
      quote_date: day,
      reading_id: reading.id,
      lines: [
        { code: "HBLD634", act: "Couronne céramo-métallique", tooth: 14, fee_cents: 50_000 },
        // A known act's BR sent by a forged request: the table's is taken, as for any line.
        {
          code: "HBLD734",
          act: "Couronne céramo-métallique sur molaire",
          tooth: 36,
          fee_cents: 15_000,
          br_cents: 1200,
        },
        { code: null, act: "HBMD017 · Inlay core", tooth: 46, fee_cents: 30_000, br_cents: 9000 },
      ],
      reading_choices: [
        { line: 0, field: "br_cents", use: "read" },
        { line: 2, field: "amo_cents", use: "read" },
        // A free line has no table to choose, and its basket was not corrected: not kept.
        { line: 2, field: "br_cents", use: "table" },
        { line: 2, field: "basket", use: "read" },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      saved.json().lines.map((l: { fee_cents: number; br_cents: number }) => [l.fee_cents, l.br_cents]),
    ).toEqual([
      [50_000, 12_000],
      [15_000, 12_000],
      [30_000, 9000],
    ]);
    expect(saved.json().quote_amount_cents).toBe(95_000);
    expect((await latest(requestId)).choices).toEqual([
      { line: 0, field: "br_cents", use: "read" },
      { line: 2, field: "amo_cents", use: "read" },
    ]);

    // The reste à charge, computed by the server (no mutuelle): the fee less 60 % of the table's BR —
    // 500,00 − 72,00 = 428,00 € (not 500,00 − 7,20 with the BR read), 150,00 − 72,00 = 78,00 €, and the
    // free line's 300,00 − 54,00 (60 % of its BR, whatever AMO was read) = 246,00 €: 752,00 € in all.
    const comparison = await call("GET", `/api/patient/requests/${requestId}/comparison`, owner);
    expect(comparison.statusCode, comparison.body).toBe(200);
    const original = comparison.json().original;
    expect(
      original.lines.map((l: { amo_cents: number; rest_cents: number }) => [l.amo_cents, l.rest_cents]),
    ).toEqual([
      [7200, 42_800],
      [7200, 7800],
      [5400, 24_600],
    ]);
    expect(original.total).toMatchObject({ fee_cents: 95_000, amo_cents: 19_800, rest_cents: 75_200 });
    expect(original.tariff_day).toBe(day);
  });
});

describe("a devis typed 'Photo' is recognised and read (issue 34)", () => {
  /** A one-page PDF with a text layer that is not a devis: a prescription. */
  async function prescriptionPdf(): Promise<UploadFile> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const lines = [
      "Dr Claire Martin",
      "Ordonnance du 12/11/2026",
      "Paracetamol 1 g, 3 fois par jour",
      "Bain de bouche",
    ];
    for (const [i, text] of lines.entries()) page.drawText(text, { x: 60, y: 760 - i * 24, size: 14, font });
    return { name: "ordonnance.pdf", type: "application/pdf", content: Buffer.from(await pdf.save()) };
  }
  const rowsOf = (requestId: string) =>
    ctx.app.db
      .selectFrom("quote_readings as q")
      .innerJoin("documents as d", "d.id", "q.document_id")
      .select(["q.status", "q.purpose", "d.file_name", "q.text_key"])
      .where("q.request_id", "=", requestId)
      .orderBy("d.position")
      .execute();

  it("classifies every photo and PDF of a request without lines, reads the one that is a devis, and says so", async () => {
    await ctx.app.readings.drain();
    const printed = makeDevis(3);
    const photo = { name: "photo-1.jpg", type: "image/jpeg", content: await devisPhoto(printed) };
    const requestId = await upload(
      owner.cookie,
      [await prescriptionPdf(), photo, radioPng()],
      ["other", "photo", "xray"],
    );
    // Being classified: nothing to show yet (not even "Lecture du devis…").
    expect((await readingOf(owner.cookie, requestId)).json()).toEqual({ reading: null });
    expect((await rowsOf(requestId)).map((r) => [r.purpose, r.status])).toEqual([
      ["classify", "pending"],
      ["classify", "pending"],
      ["classify", "pending"],
    ]);

    await ctx.app.readings.drain();
    const reading = await latest(requestId);
    expect(reading).toMatchObject({
      status: "done",
      recognised: true,
      file_name: "photo-1.jpg",
      kind: "image",
    });
    expect(reading.result?.lines.map((l) => l.code)).toEqual(printed.lines.map((l) => l.code));
    expect(READING_MESSAGES.recognised(reading.file_name)).toBe(
      "Nous avons reconnu un devis dans photo-1.jpg",
    );
    // The prescription was classified not a devis (nothing kept of its text); the X-ray, after the
    // devis was recognised, was not looked at.
    expect((await rowsOf(requestId)).map((r) => [r.file_name, r.status, r.text_key])).toEqual([
      ["ordonnance.pdf", "not_quote", null],
      ["photo-1.jpg", "done", expect.any(String)],
      ["radio.png", "not_quote", null],
    ]);
  }, 120_000);

  it("shows nothing, and no error, for a request whose files are not a devis", async () => {
    const requestId = await upload(owner.cookie, [await prescriptionPdf(), radioPng()], ["other", "xray"]);
    await ctx.app.readings.drain();
    expect((await rowsOf(requestId)).map((r) => r.status)).toEqual(["not_quote", "not_quote"]);
    expect((await readingOf(owner.cookie, requestId)).json()).toEqual({ reading: null });
  });

  it("lets the patient who owns the request correct a document's type; typed 'Devis', it is read", async () => {
    const requestId = await upload(owner.cookie, [await prescriptionPdf()], ["photo"]);
    await ctx.app.readings.drain();
    const [doc] = await documentsOf(requestId);
    const url = `/api/patient/requests/${requestId}/documents/${doc?.id}`;

    // Anyone else: the same 404 as a request that does not exist; a dentist is not in the patient area.
    const stranger = await call("PATCH", url, other, { type: "xray" });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.message).toBe(REQUEST_NOT_FOUND);
    expect((await call("PATCH", url, dentistCookie, { type: "xray" })).statusCode).toBe(403);
    const elsewhere = await upload(other.cookie, [radioPng()], ["xray"]);
    const [theirs] = await documentsOf(elsewhere);
    const foreignDoc = await call(
      "PATCH",
      `/api/patient/requests/${requestId}/documents/${theirs?.id}`,
      owner,
      {
        type: "xray",
      },
    );
    expect(foreignDoc.statusCode).toBe(404);
    expect(foreignDoc.json().error.message).toBe(DOCUMENT_MESSAGES.notFound);

    const bad = await call("PATCH", url, owner, { type: "facture" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ type: DOCUMENT_MESSAGES.typeInvalid });
    expect((await documentsOf(requestId))[0]?.document_type).toBe("photo");

    const other_ = await call("PATCH", url, owner, { type: "other" });
    expect(other_.statusCode, other_.body).toBe(200);
    expect(other_.json()).toMatchObject({
      document: { id: doc?.id, document_type: "other", file_name: "ordonnance.pdf" },
      reading: null,
      message: "Type du document enregistré\u202f: Autre.",
    });

    const quote = await call("PATCH", url, owner, { type: "quote" });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      document: { document_type: "quote" },
      reading: { status: "pending", document_id: doc?.id, recognised: false },
      message: DOCUMENT_MESSAGES.typeSavedReading,
    });
    expect((await latest(requestId)).status).toBe("pending");
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("action", "=", "request.document_type_changed")
      .where("subject_id", "=", requestId)
      .orderBy("created_at")
      .execute();
    expect(audit.map((a) => [a.actor_id, (a.details as { to: string }).to])).toEqual([
      [owner.id, "other"],
      [owner.id, "quote"],
    ]);
    await ctx.app.readings.drain();
  });
});
