import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { devisPdf, makeDevis } from "../../testing/devis-corpus";
import { expectError } from "../../testing/errors";
import { flateBomb, operators } from "../../testing/hostile-files";
import { ReaderSandbox } from "./sandbox";
import { ReadingError } from "./types";

/**
 * The reading's own process (sandbox.ts, issue 32): the real child, forked as in production. A reading
 * that outlives its time limit or its memory ceiling, or whose child dies, fails with its French message
 * (never anything else), and the next reading gets a fresh child.
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
}, 60_000);

const sandboxes: ReaderSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  stops.length = 0;
});

/** Why children were stopped, as the runner's log is told. */
const stops: string[] = [];

function sandbox(timeMs: number, memoryMb = 1024): ReaderSandbox {
  const made = new ReaderSandbox({ timeMs, memoryMb, onStop: (reason) => stops.push(reason) });
  sandboxes.push(made);
  return made;
}

const read = (box: ReaderSandbox, data: Uint8Array) =>
  box.run({ kind: "read", data, options: { mime: "application/pdf" } });

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
  }, 60_000);

  it("a child that dies mid-reading fails it with the French message; the next reading gets a fresh child", async () => {
    const box = sandbox(60_000);
    await read(box, devis);
    const pid = box.pid as number;
    const dying = read(box, slow);
    setTimeout(() => {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }, 300);
    await expectError(dying, ReadingError, READING_MESSAGES.failed);
    const next = await read(box, devis);
    expect(next.pages).toBe(1);
    expect(box.spawned).toBe(2);
    expect(box.pid).not.toBe(pid);
    expect(stops).toEqual(["exit"]);
  }, 60_000);

  it("past the whole reading's time limit the child is killed and the reading fails as too long", async () => {
    const box = sandbox(4000);
    await box.warm();
    const started = performance.now();
    const reading = read(box, slow);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pid = box.pid as number;
    await expectError(reading, ReadingError, READING_MESSAGES.timeout);
    expect(performance.now() - started).toBeLessThan(6000);
    expect(box.lastKill).toBe("time");
    expect(stops).toEqual(["time"]);
    expect(alive(pid)).toBe(false);
  }, 30_000);

  it("above its memory ceiling the child is killed and the reading fails with the French message", async () => {
    const box = sandbox(60_000, 320);
    await expectError(read(box, bomb), ReadingError, READING_MESSAGES.failed);
    // Killed here above the resident-memory ceiling, or ended first by V8's heap limit inside the child
    // (half the ceiling): which bound acts first depends on Node's version (Node 22: the heap limit).
    if (box.lastKill === "memory") expect(stops).toEqual(["memory"]);
    else expect(stops).toEqual(["exit"]);
  }, 90_000);

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
  }, 60_000);
});
