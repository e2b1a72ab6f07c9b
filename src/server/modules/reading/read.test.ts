import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { devisPdf, devisPhoto, makeDevis, scoreReading } from "../../testing/devis-corpus";
import { ocrPoolState } from "./ocr";
import { closeOcr, readQuote } from "./read";
import { ReadingError } from "./types";

afterAll(async () => {
  await closeOcr();
});

describe("readQuote", () => {
  it("reads a text PDF devis: its kind, its pages, its text and its lines", async () => {
    const devis = makeDevis(4);
    const reading = await readQuote(await devisPdf(devis), { mime: "application/pdf" });
    expect(reading.kind).toBe("text_pdf");
    expect(reading.pages).toBe(1);
    expect(reading.msPerPage).toBeGreaterThanOrEqual(0);
    for (const line of devis.lines) expect(reading.text).toContain(line.code);
    const score = scoreReading(devis, reading.result);
    expect(score.wrong).toEqual([]);
    expect(reading.result.lines).toHaveLength(devis.lines.length);
  });

  it("reads a photo of a devis by OCR", async () => {
    const devis = makeDevis(4);
    const reading = await readQuote(await devisPhoto(devis), { mime: "image/jpeg" });
    expect(reading.kind).toBe("image");
    expect(reading.pages).toBe(1);
    const score = scoreReading(devis, reading.result);
    expect(score.linesExact).toBeGreaterThanOrEqual(devis.lines.length - 1);
  });

  it("reads a photo a second time, prepared at another size, when the devis does not bear out its reading", async () => {
    // A photo with no table: nothing to bear out, so it is worth a second look (support.ts).
    const blank = await sharp({ create: { width: 1200, height: 1700, channels: 3, background: "#f4f1ea" } })
      .jpeg()
      .toBuffer();
    const pagesRead = async (secondReading: boolean) => {
      const before = ocrPoolState().recognitions;
      const reading = await readQuote(blank, { mime: "image/jpeg", secondReading });
      expect(reading.result.lines).toEqual([]);
      return ocrPoolState().recognitions - before;
    };
    expect(await pagesRead(false)).toBe(1);
    expect(await pagesRead(true)).toBe(2);
  });

  it("throws ReadingError with the French message for a file it cannot read", async () => {
    const error = await readQuote(Buffer.from("PK\u0003\u0004 a zip, not a devis"), {
      mime: "application/pdf",
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadingError);
    expect((error as Error).message).toBe(READING_MESSAGES.unreadableFile);
  });
});
