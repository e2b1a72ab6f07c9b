import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { expectError } from "../../testing/errors";
import { renderPreview } from "./preview";
import { ReadingError } from "./types";

let pdf: Uint8Array;

beforeAll(async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([595, 842]);
  first.drawText("Devis dentaire", { x: 40, y: 780, size: 24, font });
  // A red block in the top-left quarter of page 1.
  first.drawRectangle({ x: 0, y: 421, width: 297, height: 421, color: rgb(1, 0, 0) });
  doc.addPage([842, 595]).drawText("Page 2", { x: 40, y: 500, size: 24, font });
  pdf = await doc.save();
});

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

const expectReadingError = (promise: Promise<unknown>, message: string) =>
  expectError(promise, ReadingError, message);

describe("renderPreview", () => {
  it("renders a PDF page to a PNG of the asked width, in colour", async () => {
    const png = await renderPreview(pdf, "application/pdf", 1);
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(1000);
    expect(meta.height).toBe(Math.round((842 * 1000) / 595));
    expect(await pixel(png, 100, 300)).toEqual([255, 0, 0]);
    expect(await pixel(png, 900, 1300)).toEqual([255, 255, 255]);

    const second = await renderPreview(pdf, "application/pdf", 2, 600);
    const landscape = await sharp(second).metadata();
    expect(landscape.width).toBe(600);
    expect(landscape.height).toBeLessThan(600);
  });

  it("turns a photo upright by its EXIF orientation, in colour, resized to the width", async () => {
    // Upright: 300 × 600, red top half, blue bottom half. Stored turned 90° anticlockwise, orientation 6.
    const upright = await sharp({ create: { width: 300, height: 600, channels: 3, background: "#0000ff" } })
      .composite([
        {
          input: await sharp({ create: { width: 300, height: 300, channels: 3, background: "#ff0000" } })
            .png()
            .toBuffer(),
          top: 0,
          left: 0,
        },
      ])
      .png()
      .toBuffer();
    const stored = await sharp(upright)
      .rotate(-90)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();

    const png = await renderPreview(stored, "image/jpeg", 1, 150);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 150, 300]);
    const [r, g, b] = await pixel(png, 75, 40);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
    const [r2, , b2] = await pixel(png, 75, 260);
    expect(r2).toBeLessThan(60);
    expect(b2).toBeGreaterThan(200);

    // Never enlarged past the photo's own width.
    const large = await renderPreview(stored, "image/jpeg", 1, 1000);
    expect((await sharp(large).metadata()).width).toBe(300);
  });

  it("refuses a page out of range, garbage and a damaged PDF", async () => {
    await expectReadingError(renderPreview(pdf, "application/pdf", 3), READING_MESSAGES.readingNotFound);
    await expectReadingError(renderPreview(pdf, "application/pdf", 0), READING_MESSAGES.readingNotFound);
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    await expectReadingError(renderPreview(png, "image/png", 2), READING_MESSAGES.readingNotFound);
    await expectReadingError(
      renderPreview(Buffer.from("hello"), "image/png", 1),
      READING_MESSAGES.unreadableFile,
    );
    await expectReadingError(
      renderPreview(Buffer.from("%PDF-1.4\nbroken"), "application/pdf", 1),
      READING_MESSAGES.damaged,
    );
  });
});
