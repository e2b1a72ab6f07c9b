import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import {
  closeOcr,
  FRENCH_LANG_PATH,
  ocrPoolState,
  pageOutOfTime,
  recognizePage,
  resetOcrPeak,
  setOcrConcurrency,
} from "./ocr";
import { ReadingError } from "./types";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** A small image with one line of text (black on white), rendered by sharp from SVG. */
function textImage(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="120"><rect width="100%" height="100%" fill="#fff"/><text x="30" y="78" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" fill="#000">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).greyscale().png().toBuffer();
}

let image: Buffer;

beforeAll(async () => {
  image = await textImage("HBLD634 Couronne 120,00");
});

afterAll(async () => {
  setOcrConcurrency(1);
  await closeOcr();
});

describe("OCR pool", () => {
  it("uses the French data shipped in node_modules, never a download", () => {
    expect(path.isAbsolute(FRENCH_LANG_PATH)).toBe(true);
    expect(FRENCH_LANG_PATH.startsWith(path.join(ROOT, "node_modules"))).toBe(true);
    expect(statSync(path.join(FRENCH_LANG_PATH, "fra.traineddata.gz")).size).toBeGreaterThan(1_000_000);
  });

  it("reads words with their boxes in the image's pixels", async () => {
    const words = await recognizePage(image);
    expect(words.map((w) => w.text)).toEqual(["HBLD634", "Couronne", "120,00"]);
    const [code, act] = words;
    if (!code || !act) throw new Error("no words");
    expect(code.x).toBeGreaterThanOrEqual(20);
    expect(code.x).toBeLessThan(45);
    expect(code.y).toBeGreaterThan(30);
    expect(code.y + code.height).toBeLessThan(100);
    expect(act.x).toBeGreaterThan(code.x + code.width);
    expect(code.confidence).toBeGreaterThan(80);
  });

  it("never runs more recognitions at once than its concurrency, and reuses its workers", async () => {
    setOcrConcurrency(1);
    resetOcrPeak();
    const before = ocrPoolState().recognitions;
    const results = await Promise.all([1, 2, 3].map(() => recognizePage(image)));
    expect(results.every((words) => words.some((w) => w.text === "HBLD634"))).toBe(true);
    let state = ocrPoolState();
    expect(state.recognitions - before).toBe(3);
    expect(state.peakInFlight).toBe(1);
    expect(state.workers).toBe(1);

    setOcrConcurrency(2);
    resetOcrPeak();
    await Promise.all([1, 2, 3, 4].map(() => recognizePage(image)));
    state = ocrPoolState();
    expect(state.peakInFlight).toBe(2);
    expect(state.workers).toBe(2);
    expect(state.inFlight).toBe(0);
    expect(state.queued).toBe(0);

    // Back to one: the extra idle worker is ended.
    setOcrConcurrency(1);
    expect(ocrPoolState().workers).toBe(1);
  });

  it("fails a page past its time limit with the French message, and works again afterwards", async () => {
    const error = await recognizePage(image, { pageTimeoutMs: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadingError);
    expect((error as Error).message).toBe(READING_MESSAGES.timeout);
    // The stuck worker was ended; the next page gets a fresh one.
    expect(ocrPoolState().inFlight).toBe(0);
    const words = await recognizePage(image);
    expect(words.some((w) => w.text === "HBLD634")).toBe(true);
  });

  it("sends nothing more to a worker ended while it started: no rejection outside the page's", async () => {
    // A cold pool: the page runs out of time while its worker is still starting (a loaded machine).
    // Once started, the worker is ended; before, the task still called it and tesseract.js's post to
    // the ended thread was a rejection no one handled, which ends the reading's process.
    await closeOcr();
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on("unhandledRejection", onStray);
    try {
      const error = await recognizePage(image, { pageTimeoutMs: 1 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as Error).message).toBe(READING_MESSAGES.timeout);
      // A fresh worker reads the next page; the ended one had started by then (it started first).
      expect((await recognizePage(image)).some((w) => w.text === "HBLD634")).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(stray).toEqual([]);
    } finally {
      process.off("unhandledRejection", onStray);
    }
  });

  it("ends a page on its CPU time, not on a loaded machine's wall clock; a page that stalls on 4 × its limit", () => {
    // A photo page given 5 s of CPU in 30 s on a machine busy with other work: not ended (it was,
    // with the wall-clock limit alone).
    expect(pageOutOfTime(5_000, 30_000, 20_000)).toBe(false);
    expect(pageOutOfTime(19_999, 79_999, 20_000)).toBe(false);
    expect(pageOutOfTime(20_000, 21_000, 20_000)).toBe(true);
    // A page that stalls without using CPU: ended by the backstop.
    expect(pageOutOfTime(100, 80_000, 20_000)).toBe(true);
  });

  it("fails a page at once when its reading is aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(recognizePage(image, { signal: controller.signal })).rejects.toThrow("stopped");
  });

  it("closeOcr ends every worker", async () => {
    await recognizePage(image);
    expect(ocrPoolState().workers).toBeGreaterThan(0);
    await closeOcr();
    expect(ocrPoolState().workers).toBe(0);
  });

  it("lets a process exit once its pages are read, without closeOcr, and prints nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sourio-ocr-"));
    try {
      const png = path.join(dir, "page.png");
      writeFileSync(png, await textImage("Devis dentaire"));
      const script = path.join(dir, "read.mts");
      const ocr = pathToFileURL(path.join(ROOT, "src/server/modules/reading/ocr.ts")).href;
      writeFileSync(
        script,
        [
          'import { readFileSync } from "node:fs";',
          `import { recognizePage } from ${JSON.stringify(ocr)};`,
          `const words = await recognizePage(readFileSync(${JSON.stringify(png)}));`,
          'if (!words.some((w) => w.text === "dentaire")) process.exitCode = 3;',
        ].join("\n"),
      );
      const child = spawnSync(process.execPath, ["--import", "tsx", script], {
        cwd: ROOT,
        timeout: 25_000,
        encoding: "utf8",
      });
      expect(child.signal).toBeNull();
      expect(child.stderr).toBe("");
      expect(child.stdout).toBe("");
      expect(child.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
