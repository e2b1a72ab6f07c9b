import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { type CorpusDevis, devisScan, familySample } from "../../testing/devis-corpus";
import {
  BLURRED_EDGES,
  edgeSteepness,
  evenBands,
  flattenLight,
  OCR_MAX_SIDE,
  OCR_MIN_SIDE,
  preparationPeak,
  prepareForOcr,
  sharpenEdges,
  skewAngle,
  stretchContrast,
} from "./image";
import { openPdf, renderPagePixels, renderPagePng } from "./pdf";
import { ReadingError } from "./types";

/** A page of black text rows (bars of "words") on white, `width` × `height`, as raw greyscale. */
function textRows(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height, 255);
  for (let top = 60; top + 14 < height - 60; top += 40) {
    for (let left = 60; left < width - 120; left += 90) {
      for (let y = top; y < top + 14; y += 1) {
        for (let x = left; x < left + 70; x += 1) pixels[y * width + x] = 20;
      }
    }
  }
  return pixels;
}

async function raw(image: sharp.Sharp): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await image.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe("image clean-up for OCR", () => {
  it("measures the skew of text rows, clockwise in degrees", async () => {
    const page = textRows(1000, 1400);
    const straight = { raw: { width: 1000, height: 1400, channels: 1 as const } };
    expect(Math.abs(await skewAngle(page, 1000, 1400))).toBeLessThanOrEqual(0.1);
    for (const angle of [2.5, -1.5]) {
      const turned = await raw(sharp(page, straight).rotate(angle, { background: "#ffffff" }));
      const measured = await skewAngle(turned.data, turned.width, turned.height);
      expect(Math.abs(measured - angle)).toBeLessThanOrEqual(0.2);
    }
  });

  it("sharpens a blurred page before it is read, and leaves a page in focus as it is", async () => {
    // At the OCR's size already (long side 2 400 px), so that the resize adds no softness of its own.
    const width = 1800;
    const height = OCR_MIN_SIDE;
    const page = textRows(width, height);
    const blurred = async (sigma: number) =>
      (await raw(sharp(page, { raw: { width, height, channels: 1 } }).blur(sigma))).data;
    const slightly = await blurred(0.6);
    const strongly = await blurred(1.5);
    expect(edgeSteepness(page, width, height)).toBeGreaterThanOrEqual(0.9);
    expect(edgeSteepness(slightly, width, height)).toBeGreaterThan(BLURRED_EDGES);
    expect(edgeSteepness(strongly, width, height)).toBeLessThanOrEqual(BLURRED_EDGES);
    expect(edgeSteepness(Buffer.alloc(width * height, 255), width, height)).toBe(1);

    const sharpened = await sharpenEdges(strongly, width, height);
    // Down the top edge of a word's bar (rows 54–69, the bar from row 60): the steepest step grows by
    // a fifth at least; the paper above and the bar's inside stay as they were.
    const steepest = (pixels: Buffer) => {
      let most = 0;
      for (let y = 54; y < 69; y += 1)
        most = Math.max(most, (pixels[y * width + 95] as number) - (pixels[(y + 1) * width + 95] as number));
      return most;
    };
    expect(steepest(sharpened)).toBeGreaterThanOrEqual(1.2 * steepest(strongly));
    expect(sharpened[30 * width + 30]).toBe(strongly[30 * width + 30]);
    expect(sharpened[67 * width + 95]).toBe(strongly[67 * width + 95]);

    const png = (pixels: Buffer) =>
      sharp(pixels, { raw: { width, height, channels: 1 } })
        .png()
        .toBuffer();
    const inFocus = await png(page);
    const soft = await png(strongly);
    expect((await prepareForOcr(inFocus)).image).toEqual(
      (await prepareForOcr(inFocus, { sharpen: false })).image,
    );
    expect((await prepareForOcr(soft)).image).not.toEqual(
      (await prepareForOcr(soft, { sharpen: false })).image,
    );
  });

  it("evens out uneven light: the paper white in the shadow too, the ink still dark", async () => {
    const width = 600;
    const height = 800;
    const page = textRows(width, height);
    // Light falling from 255 at the top to 40 % at the bottom.
    for (let y = 0; y < height; y += 1) {
      const light = 1 - (0.6 * y) / height;
      for (let x = 0; x < width; x += 1)
        page[y * width + x] = Math.round((page[y * width + x] as number) * light);
    }
    const flat = await flattenLight(page, width, height);
    // Paper between the rows near the bottom (was about 110), and ink there (was about 8).
    const paperY = 700 + 30;
    expect(page[paperY * width + 300]).toBeLessThan(130);
    expect(flat[paperY * width + 300]).toBeGreaterThanOrEqual(235);
    const inkRowTop = 60 + 40 * Math.floor((700 - 60) / 40);
    expect(flat[(inkRowTop + 7) * width + 100]).toBeLessThan(80);
  });

  it("straightens a tilted photo and whitens the table's rules", async () => {
    const width = 1200;
    const height = 1600;
    const page = textRows(width, height);
    // A table rule: a 2-pixel line across the page, far from the text rows' pattern.
    for (let y = 1500; y < 1502; y += 1) for (let x = 40; x < width - 40; x += 1) page[y * width + x] = 60;
    const photo = await sharp(page, { raw: { width, height, channels: 1 } })
      .rotate(2, { background: "#ffffff" })
      .jpeg({ quality: 90 })
      .toBuffer();
    const prepared = await prepareForOcr(photo);
    const out = await raw(sharp(prepared.image));
    expect(Math.abs(await skewAngle(out.data, out.width, out.height))).toBeLessThanOrEqual(0.2);
    // No long dark run is left along any row (the rule is gone), but the text rows are still there.
    let longest = 0;
    let inkRows = 0;
    for (let y = 0; y < out.height; y += 1) {
      let run = 0;
      let ink = false;
      for (let x = 0; x < out.width; x += 1) {
        const dark = (out.data[y * out.width + x] as number) < 128;
        run = dark ? run + 1 : 0;
        longest = Math.max(longest, run);
        ink ||= dark;
      }
      if (ink) inkRows += 1;
    }
    expect(longest).toBeLessThan(out.width / 10);
    expect(inkRows).toBeGreaterThan(300);
  });

  it("turns white text on a dark header band dark on white, a tinted band white, and leaves the paper", async () => {
    const width = 900;
    const height = 700;
    const page = Buffer.alloc(width * height, 255);
    const fill = (x0: number, y0: number, x1: number, y1: number, value: number) => {
      for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) page[y * width + x] = value;
    };
    // A dark band (a header in white on dark green), a tinted one (dark text on light grey), and text
    // on the paper just under the dark band and further down: letters as 8 × 20 bars, 16 apart.
    fill(50, 100, 850, 180, 80);
    fill(50, 300, 850, 380, 215);
    // A light tint in a photo's shadow, as dark as a band but with dark text on it: never inverted.
    fill(50, 580, 850, 660, 140);
    for (let x = 70; x < 830; x += 16) {
      fill(x, 125, x + 8, 155, 250);
      fill(x, 325, x + 8, 355, 30);
      fill(x, 196, x + 8, 216, 25);
      fill(x, 500, x + 8, 520, 25);
      fill(x, 605, x + 8, 635, 20);
    }
    const out = await evenBands(page, width, height);
    const at = (x: number, y: number) => out[y * width + x] as number;
    // The dark band: its ground white, its letters dark.
    expect(at(66, 110)).toBeGreaterThanOrEqual(235);
    expect(at(436, 140)).toBeGreaterThanOrEqual(235);
    expect(at(426, 140)).toBeLessThan(60);
    // The tinted band: its ground white, its letters still dark.
    expect(at(436, 340)).toBeGreaterThanOrEqual(235);
    expect(at(426, 340)).toBeLessThan(60);
    // The row just under the dark band and the text further down are untouched, and so is the paper.
    expect(at(426, 206)).toBe(25);
    expect(at(426, 510)).toBe(25);
    expect(at(436, 510)).toBe(255);
    expect(at(436, 620)).toBeGreaterThanOrEqual(235);
    expect(at(426, 620)).toBeLessThan(60);
    expect(at(20, 690)).toBe(255);
  });

  it("stretches the contrast to the byte as sharp's normalise does, on sizes where its percentile lands on white and past it", async () => {
    const sharpStretch = (grey: Buffer, width: number, height: number) =>
      sharp(grey, { raw: { width, height, channels: 1 } })
        .normalise({ lower: 0.5, upper: 99.5 })
        .toColourspace("b-w")
        .extractChannel(0)
        .raw()
        .toBuffer();
    // Pages of text rows with noise (a fixed pseudo-random sequence), their darkest value from 0 to 90,
    // and one without white; sizes 307 × 200 to 307 × 239 (two of which, 215 and 226 rows, land past the top).
    let state = 7;
    const noise = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const outcomes = new Set<boolean>();
    for (let height = 200; height < 240; height += 1) {
      const width = 307;
      const darkest = [0, 24, 90][height % 3] as number;
      const page = textRows(width, height);
      for (let i = 0; i < page.length; i += 1) {
        const value =
          (page[i] as number) === 255 ? 255 - Math.floor(noise() * 40) : 20 + Math.floor(noise() * 80);
        page[i] = Math.max(darkest, value);
      }
      if (height === 239) page.fill(200, 0, page.length);
      page[0] = darkest;
      const before = Buffer.from(page);
      const expected = await sharpStretch(page, width, height);
      expect((await stretchContrast(page, width, height)).equals(expected), `${width} × ${height}`).toBe(
        true,
      );
      expect(page.equals(before)).toBe(true);
      if (page.includes(255)) outcomes.add(expected[page.indexOf(255)] === 255);
    }
    // Both cases met: white kept white, and white a little darker (the percentile one past the top).
    expect([...outcomes].sort()).toEqual([false, true]);
  });

  it("brings the long side within the sizes tesseract reads best, upright", async () => {
    const small = await sharp({ create: { width: 400, height: 600, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const large = await sharp({ create: { width: 5000, height: 3000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const sideways = await sharp({ create: { width: 1800, height: 1200, channels: 3, background: "#fff" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await prepareForOcr(small)).toMatchObject({
      width: Math.round((400 * OCR_MIN_SIDE) / 600),
      height: OCR_MIN_SIDE,
    });
    expect(await prepareForOcr(large)).toMatchObject({ width: OCR_MAX_SIDE, height: 1500 });
    // Orientation 6: 1800 × 1200 stored, 1200 × 1800 upright, then enlarged.
    expect(await prepareForOcr(sideways)).toMatchObject({
      width: (1200 * OCR_MIN_SIDE) / 1800,
      height: OCR_MIN_SIDE,
    });
    const meta = await sharp((await prepareForOcr(small)).image).metadata();
    expect([meta.format, meta.channels]).toEqual(["png", 1]);
  });

  it("prepares documents read at once one after the other, in order, a damaged one failing alone", async () => {
    const page = (width: number) =>
      sharp({ create: { width, height: 900, channels: 3, background: "#fff" } })
        .jpeg()
        .toBuffer();
    const files = [await page(600), Buffer.from("not an image"), await page(700), await page(800)];
    preparationPeak(true);
    const done: number[] = [];
    const results = await Promise.allSettled(
      files.map((file, i) =>
        prepareForOcr(file).then((prepared) => {
          done.push(i);
          return prepared;
        }),
      ),
    );
    // Never two at once (each holds several decoded copies of its page): the peak of the memory.
    expect(preparationPeak()).toBe(1);
    expect(done).toEqual([0, 2, 3]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
  });

  it("prepares a scanned PDF's page from its rendered pixels as from its PNG, to the byte", async () => {
    const [devis] = familySample("bandeau", 1, 4_242, { onePage: true });
    const doc = await openPdf(await devisScan(devis as CorpusDevis));
    try {
      const page = await doc.getPage(1);
      const fromPng = await prepareForOcr(await renderPagePng(page, 200 / 72));
      const fromPixels = await prepareForOcr(await renderPagePixels(page, 200 / 72));
      page.cleanup();
      expect([fromPixels.width, fromPixels.height]).toEqual([fromPng.width, fromPng.height]);
      expect(fromPixels.image.equals(fromPng.image)).toBe(true);
    } finally {
      await doc.destroy();
    }
  });

  it("refuses what sharp cannot decode as damaged", async () => {
    const error = await prepareForOcr(Buffer.from("not an image at all")).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadingError);
    expect((error as Error).message).toBe(READING_MESSAGES.damaged);
  });
});
