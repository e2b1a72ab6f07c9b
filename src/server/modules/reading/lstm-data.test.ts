import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH_LANG_PATH, startTesseract } from "./ocr";

/**
 * The OCR worker keeps only the LSTM engine's part of the French trained data (lstm-data.cjs, ADR 061):
 * the engine we run reads nothing else, so dropping the legacy engine's entries lowers the reading's
 * memory and changes nothing read.
 */

const require = createRequire(import.meta.url);
const { lstmOnly } = require("./lstm-data.cjs") as { lstmOnly: (data: Uint8Array) => Buffer };

/** A .traineddata's entries by index (null: absent), read as tesseract reads them. */
function entries(data: Buffer): (Buffer | null)[] {
  const count = data.readInt32LE(0);
  const offsets = Array.from({ length: count }, (_, i) => Number(data.readBigInt64LE(4 + 8 * i)));
  return offsets.map((offset, i) => {
    if (offset === -1) return null;
    const next = offsets.slice(i + 1).find((o) => o !== -1) ?? data.length;
    return data.subarray(offset, next);
  });
}

const french = gunzipSync(readFileSync(path.join(FRENCH_LANG_PATH, "fra.traineddata.gz")));

const workers: Awaited<ReturnType<typeof startTesseract>>[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.terminate()));
});

describe("the French data kept for the LSTM engine", () => {
  it("keeps the LSTM engine's entries byte for byte and drops the legacy engine's", () => {
    const before = entries(french);
    const after = entries(lstmOnly(french));
    expect(after).toHaveLength(before.length);
    // The package's data holds both engines' models (legacy: entries 1–16).
    expect(before.slice(1, 17).filter(Boolean).length).toBeGreaterThan(5);
    for (const [i, entry] of after.entries()) {
      if (i === 0 || i >= 17) expect(entry?.equals(before[i] as Buffer) ?? before[i] === null).toBe(true);
      else expect(entry).toBeNull();
    }
    expect(after[17]?.length).toBeGreaterThan(100_000);
    expect(lstmOnly(french).length).toBeLessThan(french.length / 5);
  });

  it("leaves anything that is not a trained data file as it is", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(lstmOnly(png)).toBe(png);
    const short = Buffer.from([1, 2]);
    expect(lstmOnly(short)).toBe(short);
  });

  it("the pool's worker holds the LSTM engine's data only, and reads as before", async () => {
    const worker = await startTesseract();
    workers.push(worker);
    // tesseract.js answers a file-system call with its job's id and the call's result.
    const { data: stat } = (await worker.FS("stat", ["fra.traineddata"])) as { data: { size: number } };
    expect(stat.size).toBe(lstmOnly(french).length);
    expect(stat.size).toBeLessThan(french.length / 5);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="120"><rect width="100%" height="100%" fill="#fff"/><text x="30" y="78" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" fill="#000">HBLD634 Couronne 120,00</text></svg>`;
    const image = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
    const { data } = await worker.recognize(image);
    expect(data.text.trim()).toBe("HBLD634 Couronne 120,00");
  });
});
