import { type ChildProcess, execFile, fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { wasmCodeGcFlags } from "../../wasm-code-gc";
import { type Reading, ReadingError, type ReadOptions } from "./types";

/**
 * Reading a devis (pdf.js, rendering, sharp, OCR) in a child process of its own, never in the server's
 * thread (issue 32, ADR 037): one persistent child, forked when first needed, reused reading after
 * reading and ended after a minute without work, respawned after it died. What bounds it:
 * - a time limit for the whole task, enforced here, in CPU time: the child's own (utime + stime of all
 *   its threads, /proc/<pid>/stat) from the moment it is given the task; past it the child is killed
 *   ('time'). CPU time is what the document costs: a child at nice 19 that waits for a core on a busy
 *   machine is not charged for the wait (ADR 037, addendum);
 * - a wall-clock backstop for a child that no longer progresses without using CPU (a deadlock, a wait
 *   that never ends): stallLimitMs, 4 × the limit and at least the limit + 60 s; past it the child is
 *   killed ('stalled'), with the same French message as the time limit. Where /proc cannot be read
 *   (another OS than Linux), the time limit itself is wall-clock from the task's start, as before;
 * - a memory ceiling: V8's heap limit inside (--max-old-space-size, half the ceiling), and here the
 *   child's resident memory read from /proc/<pid>/status every 100 ms on Linux (with its CPU time),
 *   the child killed above the ceiling (canvas, sharp and the OCR's wasm allocate outside V8's heap);
 * - the lowest CPU priority (nice 19, READING_NICE), so the server keeps answering on a 2-core machine;
 * - one task at a time (the others wait in order); no secret in its environment.
 * A killed or crashed child fails its task with ReadingError(READING_MESSAGES.failed), or timeout when
 * its time was up or it stalled; the next task gets a fresh child. The bytes go both ways by
 * structured clone (serialization: 'advanced').
 */

/**
 * The reading child's allocator (glibc), read when the process starts (ADR 061): two malloc arenas
 * rather than eight per core (sharp's threads and the OCR worker each took one, whose freed pages stay
 * resident), and blocks of 4 MB or more always mapped apart, so that a page's decoded copies (4.75 MB
 * each at 2 500 × 1 900 px in grey) go back to the system when freed instead of staying in the heap.
 * Measured on 4 photos read at once: about 45 MB and 20 MB less resident memory, for the same CPU time.
 * Ignored by other allocators; scripts/bench-reading.ts forks its memory child with it too.
 */
export const READER_CHILD_MALLOC_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "4194304" } as const;

export interface SandboxLimits {
  /**
   * The whole task, in ms of the child's CPU time (all its threads) from the moment a ready child is
   * given it (a start has SANDBOX_START_MS); wall-clock where /proc cannot be read.
   */
  timeMs: number;
  /**
   * The wall-clock backstop for the task, in ms from the same moment, for a child that stalls without
   * using CPU (Linux): stallLimitMs(timeMs) unless set (tests).
   */
  stallMs?: number;
  /** The child's resident memory ceiling, in MB. */
  memoryMb: number;
  /** A child without work for this long is ended (ms). */
  idleMs?: number;
  /** OCR workers inside the child (READING_CONCURRENCY). */
  ocrConcurrency?: number;
  /** The child's CPU priority (nice, READING_NICE): 19, the lowest, unless set. */
  nice?: number;
  /**
   * Told why a child was ended other than by idleness or shutdown ('time' for its CPU time, 'stalled'
   * for the wall-clock backstop, 'memory', 'start', 'send', or 'exit' for a child that died by
   * itself, with its exit code or the signal that ended it, and whether it was still starting), for
   * the logs: never anything of the document.
   */
  onStop?: (reason: string, exit?: ChildExit) => void;
}

/** How a child that died by itself ended: a crash (code 1), a signal from outside (SIGKILL, SIGSEGV). */
export interface ChildExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  starting: boolean;
}

/**
 * The error of a task whose child ended under it, or while starting, without our stopping it
 * (`childExit`: how, and whether it was still starting) — as opposed to one we stopped (time, memory,
 * an abort) or a file the child refused. `endedByItself` tells a crash from a kill from outside.
 */
export type ChildExitedError = ReadingError & { childExit: ChildExit };

const childExited = (exit: ChildExit): ChildExitedError =>
  Object.assign(new ReadingError(READING_MESSAGES.failed), { childExit: exit });

/** The signals a process raises on itself when it crashes (as opposed to SIGKILL, SIGTERM: sent to it). */
const CRASH_SIGNALS: ReadonlySet<string> = new Set([
  "SIGSEGV",
  "SIGABRT",
  "SIGBUS",
  "SIGILL",
  "SIGTRAP",
  "SIGFPE",
]);

/**
 * Whether a task failed with its child ended by itself under it: while starting, with an exit code
 * (an error nobody caught in it), or crashed (a signal it raised on itself) — not stopped by us (time,
 * memory, an abort: those kill it, and say so) nor killed from outside (SIGKILL: the kernel's memory
 * killer, an operator). Such a task may be run once more in a fresh child (ReadingRunner.preview).
 */
export function endedByItself(error: unknown): boolean {
  const exit = (error as Partial<ChildExitedError> | null)?.childExit;
  if (!(error instanceof ReadingError) || exit === undefined) return false;
  return exit.starting || exit.signal === null || CRASH_SIGNALS.has(exit.signal);
}

export type SandboxTask =
  | { kind: "read"; data: Uint8Array; options: Omit<ReadOptions, "signal"> }
  | { kind: "preview"; data: Uint8Array; mime: string; page: number; width?: number }
  /** A profile photo squared and resized to WebP (profiles/avatar.ts), its pixels checked first. */
  | { kind: "avatar"; data: Uint8Array };

type TaskResult<T extends SandboxTask> = T extends { kind: "read" } ? Reading : Buffer;

/** What the child answers (reader-child.ts). */
export type ChildAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; name: string; message: string };

export const SANDBOX_IDLE_MS = 60_000;
/**
 * How long a fresh child may take to load its modules (pdf.js, sharp, tesseract.js) and say it is
 * ready; the task's own time limit starts then (a start is our code's cost, not the document's).
 */
export const SANDBOX_START_MS = 60_000;
/** How often the child's resident memory and CPU time are read (Linux). */
const POLL_MS = 100;
/** The wall-clock backstop's multiple of the time limit, and its least margin above it (ms). */
const STALL_FACTOR = 4;
const STALL_MARGIN_MS = 60_000;

/**
 * The wall-clock backstop of a task whose time limit (CPU) is `timeMs`: 4 × the limit, at least the
 * limit + 60 s (a preview's 15 s: 75 s; a reading's 90 s: 6 min). A child that progresses is never
 * ended by it unless it got less than a quarter of a core on average for its whole task, and a short
 * task is not ended by a starvation of a minute (a machine busy with a backup, a build, a test
 * suite); a child that stalls stays stalled, so the backstop only bounds how long it holds its queue
 * and its patient before the same French message (ADR 037, addendum).
 */
export function stallLimitMs(timeMs: number): number {
  return Math.max(STALL_FACTOR * timeMs, timeMs + STALL_MARGIN_MS);
}
/** Lowest priority (Unix nice 19). */
const LOW_PRIORITY = 19;

const require = createRequire(import.meta.url);

/** The compiled child the server's tests fork instead of reader-child.ts (setCompiledReaderChild). */
let compiledChild: string | null = null;

/**
 * Tests only (src/server/testing/compiled-reader.ts): fork this file, reader-child.js as the server's
 * build emits it from the same sources, with plain node instead of reader-child.ts under tsx, whose
 * module hooks cost about 0.3 CPU-s a start and 1 CPU-s a PDF's reading (ADR 054); null: back to
 * the file beside this one.
 */
export function setCompiledReaderChild(path: string | null): void {
  compiledChild = path;
}

/**
 * The child's entry beside this file: reader-child.ts run by tsx in development, the emitted
 * reader-child.js in the compiled build (scripts/lib/server-build.mjs emits one .js per source), or
 * the tests' compiled one.
 */
function childEntry(): { path: string; execArgv: string[] } {
  if (compiledChild) return { path: compiledChild, execArgv: [] };
  const compiled = import.meta.url.endsWith(".js");
  const path = fileURLToPath(new URL(compiled ? "./reader-child.js" : "./reader-child.ts", import.meta.url));
  return {
    path,
    execArgv: compiled ? [] : ["--import", pathToFileURL(require.resolve("tsx")).href],
  };
}

interface Pending {
  id: number;
  task: SandboxTask;
  signal?: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Clock ticks a second of /proc's CPU times (sysconf(_SC_CLK_TCK), the kernel's USER_HZ): asked of
 * `getconf CLK_TCK` once; 100, Linux's value on every architecture Node runs on, when it cannot tell.
 */
let clockTicks: Promise<number> | null = null;
function clockTicksPerSecond(): Promise<number> {
  clockTicks ??= new Promise<number>((resolve) => {
    execFile("getconf", ["CLK_TCK"], { timeout: 5000 }, (error, stdout) => {
      const ticks = Number(String(stdout).trim());
      resolve(!error && Number.isInteger(ticks) && ticks > 0 ? ticks : 100);
    });
  });
  return clockTicks;
}

/**
 * The child's CPU time in clock ticks (utime + stime of all its threads, fields 14 and 15 of
 * /proc/<pid>/stat, Linux); null elsewhere or when it is gone. The fields are counted after the
 * command's name, which is in parentheses and may hold spaces.
 */
async function cpuTicks(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : null;
  } catch {
    return null;
  }
}

/** The child's resident memory in MB, from /proc (Linux); null elsewhere or when it is gone. */
async function residentMb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "latin1");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export class ReaderSandbox {
  private child: ChildProcess | null = null;
  /** Resolves once the current child has loaded its modules; rejects when it died or hung first. */
  private ready: Promise<void> = Promise.resolve();
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Children forked so far (tests: a crash gets a fresh one). */
  spawned = 0;
  /**
   * Why the last child was ended by us ('time', 'stalled', 'memory', 'abort', 'idle', 'close'), for
   * tests and logs.
   */
  lastKill: string | null = null;
  /** How the last child that ended without our stopping it ended (tests and logs). */
  lastExit: ChildExit | null = null;
  /** The CPU time the last task used as last read (ms); null where it is not measured (tests). */
  lastCpuMs: number | null = null;

  constructor(readonly limits: SandboxLimits) {}

  /** Runs one task in the child; rejects with ReadingError when the child fails, dies or runs out of time. */
  run<T extends SandboxTask>(task: T, signal?: AbortSignal): Promise<TaskResult<T>> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new ReadingError(READING_MESSAGES.failed));
      if (signal?.aborted) return reject(signal.reason);
      this.queue.push({
        id: this.nextId++,
        task,
        signal,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** Forks the child now if none runs, and waits until it is ready (tests, and a start ahead of work). */
  async warm(): Promise<void> {
    if (this.closed) return;
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) {
      this.child = this.spawn();
      if (!this.current) this.idle();
    }
    await this.ready;
  }

  /** The child's pid while one runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ends the child; queued tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ReadingError(READING_MESSAGES.failed));
    await this.kill("close");
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    if (job.signal?.aborted) {
      job.reject(job.signal.reason);
      this.pump();
      return;
    }
    this.current = job;
    void this.execute(job);
  }

  private spawn(): ChildProcess {
    const entry = childEntry();
    const heapMb = Math.max(64, Math.floor(this.limits.memoryMb / 2));
    const nice = this.limits.nice ?? LOW_PRIORITY;
    const child = fork(entry.path, [String(this.limits.ocrConcurrency ?? 1), String(nice)], {
      // The child's WebAssembly (pdf.js, the OCR) on Node 24: wasmCodeGcFlags (ADR 090).
      execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`, ...wasmCodeGcFlags()],
      serialization: "advanced",
      // Nothing the child prints reaches the server's output (it may quote a document); no secret in
      // its environment.
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      env: {
        NODE_ENV: process.env.NODE_ENV ?? "production",
        PATH: process.env.PATH ?? "",
        ...READER_CHILD_MALLOC_ENV,
      },
    });
    this.spawned += 1;
    // Known before the child's first task.
    if (process.platform === "linux") void clockTicksPerSecond();
    try {
      if (child.pid) setPriority(child.pid, nice);
    } catch {
      // Not allowed here: the child lowers its own priority too.
    }
    // The server's process may exit while a child idles.
    child.on("error", () => {});
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        void this.kill("start", child);
        reject(new ReadingError(READING_MESSAGES.failed));
      }, SANDBOX_START_MS);
      const onMessage = (message: { ready?: boolean }) => {
        if (message?.ready !== true) return;
        done();
        resolve();
      };
      const onExit = (exitCode: number | null, signal: NodeJS.Signals | null) => {
        done();
        const exit = { exitCode, signal, starting: true };
        this.lastExit = exit;
        if (!this.closed) this.limits.onStop?.("exit", exit);
        reject(childExited(exit));
      };
      const done = () => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      child.on("message", onMessage);
      child.on("exit", onExit);
    });
    this.ready.catch(() => {});
    return child;
  }

  private async execute(job: Pending): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    let child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      child = this.spawn();
      this.child = child;
    }
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    const running = child;
    try {
      await untilAborted(this.ready, job.signal);
    } catch (error) {
      if (job.signal?.aborted) {
        // Aborted while the child starts (a loaded machine, a server stopping): the task ends now;
        // the child, still starting, stays for the next task or idles out.
        job.reject(job.signal.reason);
        this.current = null;
        if (!this.closed) this.idle();
        this.pump();
        return;
      }
      if (this.child === running) this.child = null;
      job.reject(error);
      this.current = null;
      this.pump();
      return;
    }
    if (job.signal?.aborted || this.closed) {
      job.reject(job.signal?.reason ?? new ReadingError(READING_MESSAGES.failed));
      this.current = null;
      this.pump();
      return;
    }
    let settled = false;
    let timer: NodeJS.Timeout | null = null;
    let poll: NodeJS.Timeout | null = null;
    let pollBusy = false;
    const cleanups: Array<() => void> = [];
    const finish = (outcome: { value: unknown } | { error: unknown }, kill?: string) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (poll) clearInterval(poll);
      for (const cleanup of cleanups) cleanup();
      const settle = () => {
        if ("value" in outcome) job.resolve(outcome.value);
        else job.reject(outcome.error);
        this.current = null;
        if (!this.closed) this.idle();
        this.pump();
      };
      // A child ended by us is gone (reaped) before its task settles.
      if (kill) void this.kill(kill, running).finally(settle);
      else settle();
    };

    const onMessage = (answer: ChildAnswer) => {
      if (answer.id !== job.id) return;
      if (answer.ok) finish({ value: resultOf(job.task, answer.value) });
      else
        finish({
          error:
            answer.name === "ReadingError"
              ? new ReadingError(answer.message)
              : Object.assign(new Error("lecture impossible"), { name: answer.name }),
        });
    };
    const onExit = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (this.child === running) this.child = null;
      const exit = { exitCode, signal, starting: false };
      this.lastExit = exit;
      if (!this.closed) this.limits.onStop?.("exit", exit);
      finish({ error: childExited(exit) });
    };
    running.on("message", onMessage);
    running.on("exit", onExit);
    cleanups.push(() => {
      running.off("message", onMessage);
      running.off("exit", onExit);
    });
    if (job.signal) {
      const signal = job.signal;
      const onAbort = () => finish({ error: signal.reason }, "abort");
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
    const timeout = () => ({ error: new ReadingError(READING_MESSAGES.timeout) });
    const pid = running.pid;
    const { timeMs, memoryMb } = this.limits;
    this.lastCpuMs = null;
    const begin = async () => {
      // The child's CPU time so far (earlier tasks, its start): the task's is counted from here.
      const linux = pid !== undefined && process.platform === "linux";
      const startTicks = linux ? await cpuTicks(pid) : null;
      const hz = startTicks === null ? 0 : await clockTicksPerSecond();
      if (settled) return;
      if (startTicks === null) {
        // No /proc: the time limit is wall-clock.
        timer = setTimeout(() => finish(timeout(), "time"), timeMs);
      } else {
        this.lastCpuMs = 0;
        timer = setTimeout(() => finish(timeout(), "stalled"), this.limits.stallMs ?? stallLimitMs(timeMs));
      }
      if (linux) {
        poll = setInterval(() => {
          if (pollBusy) return;
          pollBusy = true;
          void Promise.all([residentMb(pid), startTicks === null ? null : cpuTicks(pid)])
            .then(([mb, ticks]) => {
              if (mb !== null && mb > memoryMb)
                return finish({ error: new ReadingError(READING_MESSAGES.failed) }, "memory");
              if (ticks === null || startTicks === null || settled) return;
              const cpuMs = ((ticks - startTicks) * 1000) / hz;
              this.lastCpuMs = cpuMs;
              if (cpuMs > timeMs) finish(timeout(), "time");
            })
            .finally(() => {
              pollBusy = false;
            });
        }, POLL_MS);
      }
      try {
        running.send({ id: job.id, task: job.task }, (error) => {
          if (error) finish({ error: new ReadingError(READING_MESSAGES.failed) }, "send");
        });
      } catch {
        finish({ error: new ReadingError(READING_MESSAGES.failed) }, "send");
      }
    };
    void begin();
  }

  /** No work: the child stops holding the process open, and is ended after idleMs. */
  private idle(): void {
    const child = this.child;
    if (!child) return;
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.current && this.queue.length === 0) void this.kill("idle");
    }, this.limits.idleMs ?? SANDBOX_IDLE_MS);
    this.idleTimer.unref();
  }

  /**
   * Kills the child (SIGKILL: a child out of time or memory may not answer anything else; a stopped
   * one is ended too).
   */
  private async kill(reason: string, which: ChildProcess | null = this.child): Promise<void> {
    if (this.idleTimer && which === this.child) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (!which) return;
    if (which === this.child) this.child = null;
    this.lastKill = reason;
    if (reason !== "idle" && reason !== "close" && reason !== "abort") this.limits.onStop?.(reason);
    if (which.exitCode !== null || which.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => which.once("exit", () => resolve()));
    which.kill("SIGKILL");
    await exited;
  }
}

/** `promise`, or its signal's reason as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The child's value as the caller expects it (a preview's or an avatar's bytes arrive as a Uint8Array). */
function resultOf(task: SandboxTask, value: unknown): unknown {
  if (task.kind === "preview" || task.kind === "avatar") {
    const bytes = value as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return value;
}
