import { Readable } from "node:stream";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import type { Db } from "../../db/index";
import type { EventBus } from "../../realtime/bus";
import type { Storage } from "../../storage/storage";
import { type ClaimedReading, isReadableMime, readingQueue, readingTextKey } from "./reading.repo";
import { type ChildExit, endedByItself, ReaderSandbox } from "./sandbox";
import type { Reading, ReadOptions } from "./types";

/** How the runner reads a file (read.ts's readQuote in its own process; tests may give another). */
export type ReadFn = (data: Uint8Array, options: ReadOptions) => Promise<Reading>;

/** The reading's bounds (config: READING_TIME_LIMIT_S, READING_MEMORY_MB, READING_CONCURRENCY). */
export interface ReadingLimits {
  /** The whole reading of one devis, in ms of its process's CPU time (sandbox.ts). */
  timeMs: number;
  /** The reading process's memory ceiling, in MB. */
  memoryMb: number;
  /** A page preview or an avatar, in ms of its process's CPU time. */
  previewTimeMs: number;
  ocrConcurrency: number;
  /** The reading processes' CPU priority (nice; READING_NICE). */
  nice?: number;
}

export const DEFAULT_READING_LIMITS: ReadingLimits = {
  timeMs: 90_000,
  memoryMb: 1024,
  previewTimeMs: 15_000,
  ocrConcurrency: 1,
};

export interface RunnerDeps {
  db: Db;
  storage: Storage;
  bus: EventBus;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** Reads in this process instead of the sandbox (tests of the runner itself). */
  read?: ReadFn;
  limits?: ReadingLimits;
  /** How often the queue is looked at when nothing woke the runner (other instances' uploads). */
  pollMs?: number;
  /** Told of each reading this instance finished, read or failed, and its length (the metrics). */
  onRead?: (seconds: number, outcome: "done" | "failed") => void;
}

export const POLL_MS = 5000;

/** The name of an error, for the logs (never its message: it may quote the document). */
const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);

/**
 * Reads the queued devis, one at a time on this instance, off the request path: woken by an upload,
 * and every few seconds for readings queued by another instance. Each reading: the document from
 * storage (at most 10 MB, in memory), readQuote in the reading's own bounded process (sandbox.ts:
 * a CPU-time limit for the whole reading, a memory ceiling, low priority; a killed child fails the
 * reading with its French message and the next one gets a fresh child), the raw text stored (encrypted) under the patient's prefix, the row updated, then a realtime
 * event to the patient (ids only). Logs carry ids and error names, never text, names or amounts.
 *
 * Tests build the app without starting it (NODE_ENV=test) and call `drain()`, which reads every
 * queued reading and resolves when the queue is empty.
 */
export class ReadingRunner {
  private readonly queue;
  private readonly read: ReadFn;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private closed = false;
  private loop: Promise<number> | null = null;
  private again = false;
  private current: AbortController | null = null;
  /** Whether a reading ran in this process (the OCR pool then has workers to stop on close). */
  private used = false;
  /** The process reading the devis, and the one rendering previews (a preview never waits behind a reading). */
  readonly sandbox: ReaderSandbox;
  readonly previewSandbox: ReaderSandbox;

  constructor(private readonly deps: RunnerDeps) {
    this.queue = readingQueue(deps.db);
    const limits = deps.limits ?? DEFAULT_READING_LIMITS;
    // Why a reading process was stopped (its time, its memory, a crash), never what it read.
    const onStop = (task: string) => (reason: string, exit?: ChildExit) =>
      deps.log.warn({ task, reason, ...exit }, "processus de lecture arrêté");
    this.sandbox = new ReaderSandbox({
      timeMs: limits.timeMs,
      memoryMb: limits.memoryMb,
      ocrConcurrency: limits.ocrConcurrency,
      nice: limits.nice,
      onStop: onStop("read"),
    });
    this.previewSandbox = new ReaderSandbox({
      timeMs: limits.previewTimeMs,
      memoryMb: limits.memoryMb,
      nice: limits.nice,
      onStop: onStop("preview"),
    });
    const injected = deps.read;
    this.read = injected
      ? (data, options) => {
          this.used = true;
          return injected(data, options);
        }
      : (data, { signal, ...options }) => this.sandbox.run({ kind: "read", data, options }, signal);
  }

  /**
   * A PNG preview of page `page` of a devis, rendered in the preview's own bounded process; `signal`
   * aborted (nobody waits for it any more), it leaves the queue or its rendering is stopped. A child
   * that ended by itself under it (sandbox.ts `endedByItself`: not stopped for its time or memory,
   * nor killed) is the child's fault, not the page's: the page is rendered once more in a fresh one.
   */
  async preview(data: Uint8Array, mime: string, page: number, signal?: AbortSignal): Promise<Buffer> {
    const task = { kind: "preview", data, mime, page } as const;
    try {
      return await this.previewSandbox.run(task, signal);
    } catch (error) {
      if (!endedByItself(error) || signal?.aborted) throw error;
      return this.previewSandbox.run(task, signal);
    }
  }

  /**
   * A profile photo squared to a 256 px WebP (profiles/avatar.ts), in the preview's process: an image
   * is decoded there, within its time and memory limits, never in the server's (issue 32, ADR 037).
   */
  avatar(data: Uint8Array): Promise<Buffer> {
    return this.previewSandbox.run({ kind: "avatar", data });
  }

  /** The queue's counts and the oldest waiting reading's age, for the metrics. */
  queueGauges() {
    return this.queue.gauges();
  }

  /** Recovers what a stopped instance left running, then reads the queue and polls it. */
  async start(): Promise<void> {
    if (this.started || this.closed) return;
    this.started = true;
    await this.recover().catch((error) =>
      this.deps.log.error({ error: errorName(error) }, "reprise des lectures de devis impossible"),
    );
    this.timer = setInterval(() => this.wake(), this.deps.pollMs ?? POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** A reading was queued: read it soon (a no-op until started). */
  wake(): void {
    if (!this.started || this.closed) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.run().finally(() => {
      this.loop = null;
    });
    this.loop.catch(() => {});
  }

  /** Reads every queued reading, one after the other; resolves with how many were read. */
  async drain(): Promise<number> {
    while (this.loop) await this.loop.catch(() => 0);
    if (this.closed) return 0;
    this.loop = this.run();
    try {
      return await this.loop;
    } finally {
      this.loop = null;
    }
  }

  /** 'running' rows older than 10 minutes back to 'pending' (or failed after 3 attempts). */
  async recover(staleMs?: number): Promise<number> {
    const rows = await this.queue.recover(READING_MESSAGES.failed, staleMs);
    for (const row of rows) {
      if (row.status === "failed") await this.publish(row.request_id, row.id, row.patient_id);
    }
    if (rows.length > 0) this.deps.log.warn({ readings: rows.length }, "lectures de devis reprises");
    return rows.length;
  }

  private async run(): Promise<number> {
    let count = 0;
    do {
      this.again = false;
      while (!this.closed) {
        const job = await this.queue.claim();
        if (!job) break;
        await this.process(job);
        count += 1;
      }
    } while (this.again && !this.closed);
    return count;
  }

  private async process(job: ClaimedReading): Promise<void> {
    const { log, storage } = this.deps;
    const controller = new AbortController();
    this.current = controller;
    const started = Date.now();
    try {
      if (!isReadableMime(job.mime) || job.size > MAX_FILE_SIZE) {
        await this.finishFailed(job, READING_MESSAGES.unreadableFile);
        this.deps.onRead?.((Date.now() - started) / 1000, "failed");
        return;
      }
      const classify = job.purpose === "classify";
      // A photo or PDF not typed 'Devis' (issue 34): not looked at once the request has its devis.
      if (classify && (await this.queue.classificationNeedless(job))) {
        await this.queue.notQuote(job.id);
        return;
      }
      const data = await readAll(storage.read(job.storageKey), MAX_FILE_SIZE);
      const reading = await this.read(data, {
        mime: job.mime,
        signal: controller.signal,
        ...(classify ? { classify: true } : {}),
      });
      if (this.closed) {
        await this.queue.release(job.id);
        return;
      }
      if (classify && reading.devis !== true) {
        // Not a devis: nothing shown, nothing kept of its text.
        await this.queue.notQuote(job.id, { kind: reading.kind, pages: reading.pages });
        log.info({ readingId: job.id, ms: Date.now() - started }, "document classé : pas un devis");
        return;
      }
      const key = readingTextKey(job.patientId, job.id);
      await storage.remove(key).catch(() => {});
      await storage.write(key, Readable.from([Buffer.from(reading.text, "utf8")]));
      const saved = await this.queue.finish(job.id, {
        kind: reading.kind,
        pages: reading.pages,
        result: reading.result,
        textKey: key,
      });
      if (!saved) {
        // The request or the document was deleted meanwhile: nothing may keep its text.
        await storage.remove(key).catch(() => {});
        return;
      }
      log.info({ readingId: job.id, pages: reading.pages, ms: Date.now() - started }, "devis lu");
      this.deps.onRead?.((Date.now() - started) / 1000, "done");
      await this.publish(job.requestId, job.id, job.patientId);
    } catch (error) {
      if (this.closed) {
        await this.queue.release(job.id).catch(() => {});
        return;
      }
      const readingError = error instanceof Error && error.name === "ReadingError";
      if (job.purpose === "classify") {
        // A photo that cannot be read is not a devis to the patient: no error shown (issue 34).
        log.info({ readingId: job.id, error: errorName(error) }, "document non classé : illisible");
        await this.queue
          .notQuote(job.id)
          .catch((failure) =>
            log.error({ readingId: job.id, error: errorName(failure) }, "lecture non enregistrée"),
          );
        return;
      }
      log.warn({ readingId: job.id, error: errorName(error) }, "devis illisible");
      this.deps.onRead?.((Date.now() - started) / 1000, "failed");
      await this.finishFailed(job, readingError ? (error as Error).message : READING_MESSAGES.failed).catch(
        (failure) => log.error({ readingId: job.id, error: errorName(failure) }, "lecture non enregistrée"),
      );
    } finally {
      this.current = null;
    }
  }

  private async finishFailed(job: ClaimedReading, message: string) {
    if (await this.queue.fail(job.id, message)) await this.publish(job.requestId, job.id, job.patientId);
  }

  private async publish(requestId: string, readingId: string, patientId: string) {
    await this.deps.bus
      .publish({ kind: "reading", requestId, readingId, userIds: [patientId] })
      .catch((error) =>
        this.deps.log.error({ readingId, error: errorName(error) }, "événement de lecture non envoyé"),
      );
  }

  /** Stops polling, interrupts the reading in progress (it goes back to the queue), ends the reading processes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.current?.abort();
    // The processes end with the loop, not after it: a reading whose process is still starting (or
    // starved on a loaded machine) ends when its process does, within the server's 10 s to stop.
    await Promise.all([this.loop?.catch(() => {}), this.sandbox.close(), this.previewSandbox.close()]);
    if (this.used) await (await import("./ocr")).closeOcr();
  }
}

/** A stream into one buffer, refused past `limit` bytes. */
export async function readAll(stream: Readable, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      stream.destroy();
      throw new Error("document trop volumineux");
    }
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
