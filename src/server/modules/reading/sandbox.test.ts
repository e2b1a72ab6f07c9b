import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { devisPdf, makeDevis } from "../../testing/devis-corpus";
import { expectError } from "../../testing/errors";
import { flateBomb, operators } from "../../testing/hostile-files";
import { type ChildExit, endedByItself, READER_CHILD_MALLOC_ENV, ReaderSandbox } from "./sandbox";
import { type Reading, ReadingError } from "./types";

/**
 * The reading's own process (sandbox.ts, issue 32): the real child, forked as in production. A reading
 * that outlives its time limit (the child's CPU time) or its memory ceiling, that stalls, or whose child
 * dies, fails with its French message (never anything else), and the next reading gets a fresh child.
 * A child that waits for a core is not charged for the wait (ADR 037, addendum).
 */

let corpus: ReturnType<typeof makeDevis>;
let devis: Uint8Array;
/** A page of two million drawing operators (a 50 KB file that takes pdf.js far beyond a second). */
let slow: Uint8Array;
/** A page whose content is 1 GB of spaces deflated twice (a few KB). */
let bomb: Uint8Array;

beforeAll(async () => {
  corpus = makeDevis(3);
  devis = await devisPdf(corpus);
  slow = await operators();
  bomb = await flateBomb();
});

const sandboxes: ReaderSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  stops.length = 0;
  exits.length = 0;
});

/** Why children were stopped, as the runner's log is told; how those that died by themselves ended. */
const stops: string[] = [];
const exits: ChildExit[] = [];

function sandbox(timeMs: number, memoryMb = 1024, stallMs?: number): ReaderSandbox {
  const made = new ReaderSandbox({
    timeMs,
    memoryMb,
    // The run's setting (scripts/test.mjs), as the harness's apps have it.
    ...(process.env.READING_NICE ? { nice: Number(process.env.READING_NICE) } : {}),
    ...(stallMs === undefined ? {} : { stallMs }),
    onStop: (reason, exit) => {
      stops.push(reason);
      if (exit) exits.push(exit);
    },
  });
  sandboxes.push(made);
  return made;
}

const read = (box: ReaderSandbox, data: Uint8Array) =>
  box.run({ kind: "read", data, options: { mime: "application/pdf" } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process with this pid still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the reading's own process", () => {
  it("reads a devis in a child process, not in this one, and reuses it for the next reading", async () => {
    const box = sandbox(60_000);
    const reading = await read(box, devis);
    expect(reading).toMatchObject({ kind: "text_pdf", pages: 1 });
    expect(reading.result.lines.length).toBe(corpus.lines.length);
    const pid = box.pid;
    expect(pid).toBeDefined();
    expect(pid).not.toBe(process.pid);
    await read(box, devis);
    expect(box.pid).toBe(pid);
    expect(box.spawned).toBe(1);
  });

  it.runIf(process.platform === "linux")(
    "forks the child with glibc's allocator set for its memory (ADR 061): two arenas, blocks of 4 MB mapped apart",
    async () => {
      const box = sandbox(60_000);
      await read(box, devis);
      const environ = readFileSync(`/proc/${box.pid}/environ`, "utf8").split("\0").filter(Boolean);
      expect(READER_CHILD_MALLOC_ENV).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "4194304" });
      expect(environ).toContain("MALLOC_ARENA_MAX=2");
      expect(environ).toContain("MALLOC_MMAP_THRESHOLD_=4194304");
    },
  );

  it("a child that dies mid-reading fails it with the French message; the next reading gets a fresh child", async () => {
    const box = sandbox(60_000);
    await read(box, devis);
    const pid = box.pid as number;
    const dying = read(box, slow);
    setTimeout(() => {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }, 300);
    await expectError(dying, ReadingError, READING_MESSAGES.failed);
    // Killed from outside: not a death « by itself » (a preview is not rendered again for it).
    expect(endedByItself(await dying.catch((reason: unknown) => reason))).toBe(false);
    const next = await read(box, devis);
    expect(next.pages).toBe(1);
    expect(box.spawned).toBe(2);
    expect(box.pid).not.toBe(pid);
    expect(stops).toEqual(["exit"]);
    // The log tells a child killed from outside from a crash (exit code 1).
    expect(exits).toEqual([{ exitCode: null, signal: "SIGKILL", starting: false }]);
  });

  it("a reading aborted while its child is still starting ends at once; the child serves the next one", async () => {
    // A server stopping on a loaded machine (CI, 28/11) waited for a child that had not started yet,
    // past its 10 s to stop. Here the child is frozen before it can say it is ready.
    const box = sandbox(60_000);
    const controller = new AbortController();
    const aborted = box.run(
      { kind: "read", data: devis, options: { mime: "application/pdf" } },
      controller.signal,
    );
    const pid = box.pid as number;
    process.kill(pid, "SIGSTOP");
    const reason = new Error("arrêt du serveur");
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    process.kill(pid, "SIGCONT");
    const next = await read(box, devis);
    expect(next.pages).toBe(1);
    expect(box.pid).toBe(pid);
    expect(box.spawned).toBe(1);
  });

  it("above its memory ceiling the child is killed and the reading fails with the French message", async () => {
    const box = sandbox(60_000, 320);
    await expectError(read(box, bomb), ReadingError, READING_MESSAGES.failed);
    // Killed here above the resident-memory ceiling, or ended first by V8's heap limit inside the child
    // (half the ceiling): which bound acts first depends on Node's version (Node 22: the heap limit).
    if (box.lastKill === "memory") expect(stops).toEqual(["memory"]);
    else expect(stops).toEqual(["exit"]);
  }, 90_000);

  it("runs its child at the lowest CPU priority unless given another (READING_NICE)", async () => {
    const lowest = new ReaderSandbox({ timeMs: 30_000, memoryMb: 1024 });
    const given = new ReaderSandbox({ timeMs: 30_000, memoryMb: 1024, nice: 10 });
    sandboxes.push(lowest, given);
    await Promise.all([lowest.warm(), given.warm()]);
    expect(getPriority(lowest.pid)).toBe(19);
    // Never above the test's own (a process may not raise its priority without the right to).
    expect(getPriority(given.pid)).toBe(Math.max(10, getPriority()));
  });

  it("a child that ends by itself under its task fails it with the French message, and says so (endedByItself)", async () => {
    const box = sandbox(60_000);
    await box.warm();
    const child = (box as unknown as { child: ChildProcess }).child;
    // Right behind its task, a message its listener cannot read: an error nobody catches, and the
    // child exits (code 1) under the task, whatever the machine's load.
    const send = child.send.bind(child) as (...args: unknown[]) => boolean;
    child.send = ((message: unknown, ...rest: unknown[]) => {
      const sent = send(message, ...rest);
      if ((message as { task?: unknown } | null)?.task) send(null);
      return sent;
    }) as typeof child.send;
    const preview = () => box.run({ kind: "preview", data: devis, mime: "application/pdf", page: 1 });
    const failure = (task: Promise<unknown>) =>
      task.then(
        () => null,
        (reason: unknown) => reason,
      );
    const error = await failure(preview());
    expect(error).toBeInstanceOf(ReadingError);
    expect((error as Error).message).toBe(READING_MESSAGES.failed);
    expect(endedByItself(error)).toBe(true);
    expect(box.lastExit).toEqual({ exitCode: 1, signal: null, starting: false });
    expect(stops).toEqual(["exit"]);

    // Killed while starting, whatever the signal: the child's start failed, not the task.
    const starting = preview();
    process.kill(box.pid as number, "SIGKILL");
    expect(endedByItself(await failure(starting))).toBe(true);
    expect(box.lastExit).toEqual({ exitCode: null, signal: "SIGKILL", starting: true });

    // Crashed under its task (a signal it raises on itself): by itself too. (Killed from outside,
    // SIGKILL: not — the test above.)
    await box.warm();
    const crashing = box.run({ kind: "preview", data: slow, mime: "application/pdf", page: 1 });
    await sleep(300);
    process.kill(box.pid as number, "SIGSEGV");
    expect(endedByItself(await failure(crashing))).toBe(true);
    expect(box.lastExit).toEqual({ exitCode: null, signal: "SIGSEGV", starting: false });
  });

  it("renders a preview in the child: bytes back as a PNG", async () => {
    const box = sandbox(30_000);
    const png = await box.run({ kind: "preview", data: devis, mime: "application/pdf", page: 1 });
    expect(Buffer.isBuffer(png)).toBe(true);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    await expectError(
      box.run({ kind: "preview", data: devis, mime: "application/pdf", page: 2 }),
      ReadingError,
      READING_MESSAGES.readingNotFound,
    );
  });
});

// The CPU time is read from /proc (Linux, where the server runs); elsewhere the limit is wall-clock.
describe.runIf(process.platform === "linux")("the reading's time limit, in the child's CPU time", () => {
  it("a child that burns its CPU time past the limit is killed and the reading fails as too long", async () => {
    const box = sandbox(3000);
    await box.warm();
    const pid = box.pid as number;
    await expectError(read(box, slow), ReadingError, READING_MESSAGES.timeout);
    expect(box.lastKill).toBe("time");
    expect(stops).toEqual(["time"]);
    // Ended for the CPU it used (read from /proc), however long the machine made it wait for a core.
    expect(box.lastCpuMs).toBeGreaterThan(3000);
    expect(alive(pid)).toBe(false);
  });

  it("a child that stalls without using CPU is ended by the wall-clock backstop, with the same French message", async () => {
    const box = sandbox(60_000, 1024, 2000);
    await box.warm();
    const pid = box.pid as number;
    const reading = read(box, slow);
    // A stopped process uses no CPU: as a deadlocked child, it would never reach its CPU limit.
    process.kill(pid, "SIGSTOP");
    await expectError(reading, ReadingError, READING_MESSAGES.timeout);
    expect(box.lastKill).toBe("stalled");
    expect(stops).toEqual(["stalled"]);
    // Far below its CPU limit: ended by the wall clock, not for what it used.
    expect(box.lastCpuMs).toBeLessThan(1000);
    expect(alive(pid)).toBe(false);
    // The next task gets a fresh child.
    await box.warm();
    expect(box.spawned).toBe(2);
    expect(box.pid).not.toBe(pid);
  });

  it("a child kept off the CPU for longer than its limit is not charged for the wait: its reading is done", async () => {
    const box = sandbox(4000);
    // A first reading compiles pdf.js in the child (~1.5 s of CPU); the next takes well under 0.1 s.
    await read(box, devis);
    const pid = box.pid as number;
    const reading = read(box, devis).catch((error: unknown) => error);
    // As a low-priority child that gets no core on a busy machine: 6 s without running, then a core.
    process.kill(pid, "SIGSTOP");
    await sleep(6000);
    if (alive(pid)) process.kill(pid, "SIGCONT");
    const done = await reading;
    // A wall-clock limit would have killed it for 'time' while it was stopped.
    expect(box.lastKill).toBeNull();
    expect(stops).toEqual([]);
    expect(done).toMatchObject({ kind: "text_pdf", pages: 1 });
    expect((done as Reading).result.lines.length).toBe(corpus.lines.length);
    expect(box.pid).toBe(pid);
    expect(box.spawned).toBe(1);
  });
});
