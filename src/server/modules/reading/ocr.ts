import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createWorker, type Worker as TesseractWorker } from "tesseract.js";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { ReadingError, type Word } from "./types";

/**
 * OCR with tesseract.js and its French data shipped as a package (@tesseract.js-data/fra): never downloaded,
 * never cached outside memory. Recognition runs in tesseract.js's worker threads, off the request path: at
 * most `concurrency` of them (READING_CONCURRENCY, 1 by default, 2 at most on our 2-core machine), created
 * when first needed, reused, and ended after a minute without work. Pages wait their turn in a FIFO queue;
 * a page that takes longer than its time limit ends its worker (a fresh one takes its place) and fails
 * with READING_MESSAGES.timeout.
 */

const require = createRequire(import.meta.url);

/** The French trained data: a directory inside node_modules (gzip). */
export const FRENCH_LANG_PATH: string = (() => {
  const data = require("@tesseract.js-data/fra") as { langPath: string };
  return data.langPath;
})();

/** tesseract.js's worker script behind a silenced console (ocr-worker.cjs). */
const WORKER_PATH = fileURLToPath(new URL("./ocr-worker.cjs", import.meta.url));

export const DEFAULT_PAGE_TIMEOUT_MS = 20_000;
/** A page's wall-clock backstop, as a multiple of its time limit (as the sandbox's, ADR 037). */
const PAGE_STALL_FACTOR = 4;
/** How often a page's time is looked at (ms). */
const PAGE_POLL_MS = 250;

/**
 * Whether a page is out of time: `limitMs` of this process's CPU (all its threads: the OCR workers)
 * since it began, which is at least the page's own, so a page is never given more than its limit of
 * CPU; or PAGE_STALL_FACTOR times the limit of wall clock, for a page that stalls. A loaded machine (a
 * test suite, a backup, a build beside it) slows a page without ending it: a wall-clock limit alone
 * failed honest photos there (the reading then said « Nous n'avons pas pu lire ce devis »).
 */
export function pageOutOfTime(cpuMs: number, wallMs: number, limitMs: number): boolean {
  return cpuMs >= limitMs || wallMs >= PAGE_STALL_FACTOR * limitMs;
}
/** An idle worker is ended after this long. */
export const OCR_IDLE_MS = 60_000;
const MAX_CONCURRENCY = 2;

export interface OcrOptions {
  /** Time limit for this page, in ms of CPU (default 20 000; pageOutOfTime). */
  pageTimeoutMs?: number;
  signal?: AbortSignal;
  /** Let tesseract straighten the page by the angle it finds (default true; image.ts deskews first). */
  rotateAuto?: boolean;
}

interface PoolWorker {
  id: number;
  tesseract: Promise<TesseractWorker>;
  busy: boolean;
  idleTimer: NodeJS.Timeout | null;
  /** Fails the page being read when the thread dies under it. */
  fail: ((error: Error) => void) | null;
}

interface Job {
  /** The work done on a worker: a page, or a page's cells read again. */
  task: (worker: TesseractWorker) => Promise<unknown>;
  timeoutMs: number;
  signal?: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const noop = () => {};

/** Set from the configuration (READING_CONCURRENCY) by the app, through setOcrConcurrency. */
let concurrency = 1;
const workers: PoolWorker[] = [];
const queue: Job[] = [];
let nextWorkerId = 1;
let inFlight = 0;
let peakInFlight = 0;
let recognitions = 0;

interface Thread {
  ref?: () => void;
  unref?: () => void;
  on?: (event: string, listener: (...args: unknown[]) => void) => void;
}

/** The underlying worker thread, to let an idle worker not hold the process open. */
function threadOf(worker: TesseractWorker): Thread | undefined {
  return (worker as unknown as { worker?: Thread }).worker;
}

/** A tesseract.js worker as the pool starts one (exported for tests: the pool's own are not reachable). */
export async function startTesseract(): Promise<TesseractWorker> {
  if (!existsSync(path.join(FRENCH_LANG_PATH, "fra.traineddata.gz"))) {
    // The package is part of our dependencies: never fall back to a download.
    throw new Error("French OCR data missing from node_modules");
  }
  const worker = await createWorker("fra", 1, {
    langPath: FRENCH_LANG_PATH,
    gzip: true,
    cacheMethod: "none",
    workerPath: WORKER_PATH,
    logger: noop,
    errorHandler: noop,
  });
  await worker.setParameters({ preserve_interword_spaces: "1" } as Record<string, string>);
  // An error event from the thread must not stop the server: the thread's exit is handled by the pool.
  threadOf(worker)?.on?.("error", noop);
  return worker;
}

function spawn(): PoolWorker {
  const poolWorker: PoolWorker = {
    id: nextWorkerId++,
    tesseract: startTesseract(),
    busy: false,
    idleTimer: null,
    fail: null,
  };
  poolWorker.tesseract.then(
    (worker) => {
      // A thread that dies (ocr-worker.cjs ends itself on an uncaught error) leaves the pool at once.
      threadOf(worker)?.on?.("exit", () => {
        removeWorker(poolWorker);
        poolWorker.fail?.(new ReadingError(READING_MESSAGES.failed));
      });
    },
    // A worker that fails to start leaves the pool (the job sees the error).
    () => removeWorker(poolWorker),
  );
  workers.push(poolWorker);
  return poolWorker;
}

function removeWorker(poolWorker: PoolWorker): void {
  const index = workers.indexOf(poolWorker);
  if (index >= 0) workers.splice(index, 1);
  if (poolWorker.idleTimer) clearTimeout(poolWorker.idleTimer);
  poolWorker.idleTimer = null;
  poolWorker.tesseract.then((worker) => worker.terminate()).catch(noop);
}

function markIdle(poolWorker: PoolWorker): void {
  poolWorker.busy = false;
  poolWorker.tesseract.then((worker) => threadOf(worker)?.unref?.()).catch(noop);
  poolWorker.idleTimer = setTimeout(() => removeWorker(poolWorker), OCR_IDLE_MS);
  poolWorker.idleTimer.unref();
}

function pump(): void {
  while (queue.length > 0) {
    let poolWorker = workers.find((worker) => !worker.busy);
    if (!poolWorker) {
      if (workers.length >= concurrency) return;
      poolWorker = spawn();
    }
    const job = queue.shift() as Job;
    if (job.signal?.aborted) {
      job.reject(job.signal.reason);
      continue;
    }
    poolWorker.busy = true;
    if (poolWorker.idleTimer) clearTimeout(poolWorker.idleTimer);
    poolWorker.idleTimer = null;
    void run(poolWorker, job);
  }
}

/**
 * The worker as a job's task sees it: once the job is out of time, failed or aborted, the worker is
 * being ended, and each further call fails at once instead of reaching it. tesseract.js posts to a
 * terminated thread otherwise ("Cannot read properties of null"), a rejection outside any job: in the
 * reading's process, that ended the process and the next devis's reading with it (a task whose worker
 * was still starting when its page ran out of time, on a loaded machine).
 */
function untilBroken(worker: TesseractWorker, broken: () => boolean): TesseractWorker {
  return new Proxy(worker, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        broken()
          ? Promise.reject(new ReadingError(READING_MESSAGES.timeout))
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
}

async function run(poolWorker: PoolWorker, job: Job): Promise<void> {
  inFlight += 1;
  peakInFlight = Math.max(peakInFlight, inFlight);
  recognitions += 1;
  let timer: NodeJS.Timeout | null = null;
  let onAbort: (() => void) | null = null;
  let broken = false;
  try {
    const stop = new Promise<never>((_, reject) => {
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      timer = setInterval(
        () => {
          const cpu = process.cpuUsage(cpuStart);
          if (!pageOutOfTime((cpu.user + cpu.system) / 1000, performance.now() - wallStart, job.timeoutMs))
            return;
          broken = true;
          reject(new ReadingError(READING_MESSAGES.timeout));
        },
        Math.max(1, Math.min(PAGE_POLL_MS, job.timeoutMs)),
      );
      poolWorker.fail = (error) => {
        broken = true;
        reject(error);
      };
      if (job.signal) {
        onAbort = () => {
          broken = true;
          reject(job.signal?.reason ?? new Error("aborted"));
        };
        job.signal.addEventListener("abort", onAbort, { once: true });
      }
    });
    const work = (async () => {
      const worker = await poolWorker.tesseract;
      threadOf(worker)?.ref?.();
      return job.task(untilBroken(worker, () => broken));
    })();
    work.catch(noop);
    const value = await Promise.race([work, stop]);
    job.resolve(value);
  } catch (error) {
    // A worker that did not start or did not finish is ended; the next job gets a fresh one.
    broken = true;
    job.reject(
      error instanceof ReadingError || job.signal?.aborted
        ? error
        : new ReadingError(READING_MESSAGES.damaged),
    );
  } finally {
    if (timer) clearInterval(timer);
    poolWorker.fail = null;
    if (onAbort && job.signal) job.signal.removeEventListener("abort", onAbort);
    inFlight -= 1;
    if (broken) removeWorker(poolWorker);
    else markIdle(poolWorker);
    pump();
  }
}

interface TesseractBBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TesseractWord {
  text: string;
  confidence: number;
  bbox: TesseractBBox;
}
interface TesseractPage {
  blocks?: Array<{ paragraphs: Array<{ lines: Array<{ words: TesseractWord[] }> }> }> | null;
}

/**
 * Tesseract's words as our `Word`s. With rotateAuto, tesseract straightens the image by the angle it
 * detects before reading it; measured on photos it turned by 0.7° and 1.6° (issue 34, ADR 041 addendum),
 * the boxes it returns cover the ink of the image as given (same size as the input).
 * A word holding spaces (rare) is split proportionally to its characters.
 */
function wordsOf(page: TesseractPage): Word[] {
  const words: Word[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          const parts = text.split(/[\s\u00a0\u202f]+/);
          const charWidth = (x1 - x0) / Math.max(1, text.length);
          let offset = 0;
          for (const part of parts) {
            const start = text.indexOf(part, offset);
            offset = start + part.length;
            words.push({
              text: part,
              x: x0 + start * charWidth,
              y: y0,
              width: part.length * charWidth,
              height: y1 - y0,
              confidence: word.confidence,
            });
          }
        }
      }
    }
  }
  return words;
}

/** Queues a task for a free worker (FIFO), within the page's time limit. */
function enqueue<T>(task: (worker: TesseractWorker) => Promise<T>, options: OcrOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    options.signal?.throwIfAborted();
    queue.push({
      task,
      timeoutMs: options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
      signal: options.signal,
      resolve: resolve as (value: unknown) => void,
      reject,
    });
    pump();
  });
}

/** A page read by OCR: its words, and the angle tesseract turned it by to read it. */
export interface RecognizedPage {
  words: Word[];
  /** Radians; 0 when tesseract found the page straight (below 0.005 rad it does not turn it). */
  rotateRadians: number;
}

/**
 * Reads an image (PNG or JPEG bytes, already cleaned up) with OCR: waits for a free worker (FIFO), then
 * returns its words in the image's pixels, and the angle tesseract straightened it by. Throws
 * ReadingError(timeout) past the page's time limit.
 */
export function recognizePageDetailed(image: Buffer, options: OcrOptions = {}): Promise<RecognizedPage> {
  return enqueue(async (worker) => {
    const rotateAuto = options.rotateAuto ?? true;
    const result = await worker.recognize(image, { rotateAuto }, { blocks: true, text: true });
    const data = result.data as TesseractPage & { rotateRadians?: number | null };
    return { words: wordsOf(data), rotateRadians: data.rotateRadians ?? 0 };
  }, options);
}

/** Reads an image with OCR: its words in the image's pixels (see recognizePageDetailed). */
export async function recognizePage(image: Buffer, options: OcrOptions = {}): Promise<Word[]> {
  return (await recognizePageDetailed(image, options)).words;
}

/** One small image read as a single line of the given characters. */
export interface CellRead {
  text: string;
  /** 0–100. */
  confidence: number;
}

/**
 * Reads small images (cells of a table, cut out of a page already read) each as one line of text made
 * only of its `characters` (tesseract's whitelist, page segmentation 7), in one job on one worker: the
 * worker's own settings are restored after each. Throws like recognizePage.
 */
export function recognizeCells(
  cells: readonly { image: Buffer; characters: string }[],
  options: OcrOptions = {},
): Promise<CellRead[]> {
  return enqueue(async (worker) => {
    const reads: CellRead[] = [];
    for (const { image, characters } of cells) {
      const params = { tessedit_char_whitelist: characters, tessedit_pageseg_mode: "7" };
      const result = await worker.recognize(
        image,
        // Tesseract's own parameters pass through recognize's options, restored after the call.
        params as unknown as Parameters<TesseractWorker["recognize"]>[1],
        { text: true },
      );
      reads.push({ text: (result.data.text ?? "").trim(), confidence: result.data.confidence ?? 0 });
    }
    return reads;
  }, options);
}

/** The pool's state, for tests and the bench. */
export function ocrPoolState(): {
  concurrency: number;
  workers: number;
  inFlight: number;
  queued: number;
  peakInFlight: number;
  recognitions: number;
} {
  return { concurrency, workers: workers.length, inFlight, queued: queue.length, peakInFlight, recognitions };
}

/** Resets the peak counter (tests, bench). */
export function resetOcrPeak(): void {
  peakInFlight = inFlight;
}

/** Changes the pool's size (1–2), e.g. for the bench; extra idle workers are ended. */
export function setOcrConcurrency(value: number): void {
  concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(value)));
  for (const worker of workers.filter((w) => !w.busy).slice(concurrency)) removeWorker(worker);
  pump();
}

/** Ends every worker now (server shutdown, tests): queued pages fail, the process can exit. */
export async function closeOcr(): Promise<void> {
  for (const job of queue.splice(0)) job.reject(new ReadingError(READING_MESSAGES.failed));
  const ending = workers.splice(0).map(async (poolWorker) => {
    if (poolWorker.idleTimer) clearTimeout(poolWorker.idleTimer);
    try {
      const worker = await poolWorker.tesseract;
      await worker.terminate();
    } catch {
      // Already gone.
    }
  });
  await Promise.all(ending);
}
