import sharp from "sharp";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { MAX_IMAGE_PIXELS, MAX_RENDER_SIDE } from "./limits";
import { ReadingError, type RenderedPixels } from "./types";

/**
 * Cleaning up a photo or a scan before OCR, with sharp and a few loops over the pixels: turned upright by
 * its EXIF orientation, greyscale, resized (long side 2400–2500 px), the light evened out (paper white
 * everywhere), sharpened when its edges are blurred (ADR 065), straightened (skew measured on the text
 * rows), shaded bands evened out (a header in white on a dark band made dark on white: issue 34), the
 * table's rules whitened, contrast stretched. Measured on the photo corpus (20 photos, same parser):
 * field accuracy 45 % with greyscale + normalise only, about 75 % with the light evened out, 96 % once
 * straightened and without rules, 98 % with small photos enlarged to 2400 px (8-point text at 150 DPI
 * is too small for tesseract). An image whose header declares more than MAX_IMAGE_PIXELS (limits.ts) is
 * refused as damaged before it is decoded, and sharp is told the same limit.
 */

export const OCR_MAX_SIDE = 2500;
export const OCR_MIN_SIDE = 2400;
/**
 * The size of a second reading (read.ts): tesseract loses or garbles rows at one size and not at the
 * other, on different pages; a photo or scan whose first reading the devis does not bear out in full is
 * read again at this size (ADR 041, addendum of 29 November).
 */
export const OCR_SECOND_SIZE = { minSide: 1900, maxSide: 2000 } as const;
/** The most pixels an image may declare (limits.ts), below sharp's default (268 M). */
export const MAX_INPUT_PIXELS = MAX_IMAGE_PIXELS;

export interface PreparedImage {
  /** PNG bytes, greyscale. */
  image: Buffer;
  width: number;
  height: number;
}

/** An image to prepare: encoded (JPEG, PNG…) or a PDF page's rendered pixels. */
export type ImageInput = Uint8Array | RenderedPixels;

const isRendered = (data: ImageInput): data is RenderedPixels => "pixels" in data;

/** The image opened by sharp, bounded (MAX_INPUT_PIXELS): encoded bytes, or rendered RGBA pixels. */
export function openImage(data: ImageInput): sharp.Sharp {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true } as const;
  return isRendered(data)
    ? sharp(data.pixels, { ...options, raw: { width: data.width, height: data.height, channels: 4 } })
    : sharp(data, options);
}

/** Size of the image once turned upright (EXIF orientations 5–8 swap width and height). */
async function uprightSize(data: ImageInput): Promise<{ width: number; height: number }> {
  if (isRendered(data)) {
    if (data.width * data.height > MAX_INPUT_PIXELS) throw new ReadingError(READING_MESSAGES.damaged);
    return { width: data.width, height: data.height };
  }
  let meta: sharp.Metadata;
  try {
    meta = await openImage(data).metadata();
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
  const { width, height, orientation } = meta;
  if (!width || !height) throw new ReadingError(READING_MESSAGES.damaged);
  if (width * height > MAX_INPUT_PIXELS) throw new ReadingError(READING_MESSAGES.damaged);
  const swap = orientation !== undefined && orientation >= 5 && orientation <= 8;
  return swap ? { width: height, height: width } : { width, height };
}

/** The target size: the long side brought within [OCR_MIN_SIDE, OCR_MAX_SIDE]. */
function targetSize(width: number, height: number, minSide: number, maxSide: number) {
  const long = Math.max(width, height);
  const scale = long > maxSide ? maxSide / long : long < minSide ? minSide / long : 1;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Side of the square tiles in which the paper's brightness is estimated (pixels). */
const TILE = 32;

/**
 * Evens out the light on a photo of paper: the paper's brightness is estimated per tile (its brightest
 * pixels after a light blur, so text and noise do not count), smoothed, and each pixel divided by it:
 * the paper becomes white everywhere and the ink keeps its contrast, in the shadow as in the light.
 */
export async function flattenLight(grey: Buffer, width: number, height: number): Promise<Buffer> {
  const soft = await sharp(grey, { raw: { width, height, channels: 1 } })
    .blur(1.2)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const cols = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const paper = Buffer.alloc(cols * rows);
  for (let ty = 0; ty < rows; ty += 1) {
    for (let tx = 0; tx < cols; tx += 1) {
      let max = 0;
      const yEnd = Math.min(height, (ty + 1) * TILE);
      const xEnd = Math.min(width, (tx + 1) * TILE);
      for (let y = ty * TILE; y < yEnd; y += 1) {
        const row = y * width;
        for (let x = tx * TILE; x < xEnd; x += 1) {
          const value = soft[row + x] as number;
          if (value > max) max = value;
        }
      }
      paper[ty * cols + tx] = Math.max(1, max);
    }
  }
  // A tile full of ink takes its brightest neighbour's paper; then smoothed and brought to full size.
  const spread = Buffer.alloc(paper.length);
  for (let ty = 0; ty < rows; ty += 1) {
    for (let tx = 0; tx < cols; tx += 1) {
      let max = 0;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const y = ty + dy;
          const x = tx + dx;
          if (y >= 0 && y < rows && x >= 0 && x < cols) max = Math.max(max, paper[y * cols + x] as number);
        }
      }
      spread[ty * cols + tx] = max;
    }
  }
  const background = await sharp(spread, { raw: { width: cols, height: rows, channels: 1 } })
    .blur(1)
    .resize(width, height, { fit: "fill", kernel: "cubic" })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const out = Buffer.alloc(width * height);
  for (let i = 0; i < out.length; i += 1) {
    const ratio = (grey[i] as number) / Math.max(1, background[i] as number);
    out[i] = ratio >= 1 ? 255 : Math.round(255 * ratio);
  }
  return out;
}

/** Cells in which the local background of shaded bands is estimated: 32 px wide, 8 px tall. */
const BAND_CELL_W = 32;
const BAND_CELL_H = 8;
/** Cells above and below a cell in its window (a window 32 × 40 px: taller than a letter). */
const BAND_WINDOW = 2;
/** The background is this percentile of the window (counted from the dark end): text covers less. */
const BAND_PERCENTILE = 0.6;
/** A local background lighter than this is paper; darker than BAND_DARK, a dark band (light text on it). */
const BAND_PAPER = 235;
const BAND_DARK = 160;
/**
 * A dark band holds light text: its window's 95th percentile is this much above its background. A tint
 * in a photo's shadow is as dark, but its text is darker than it: it is divided, never inverted.
 */
const BAND_BRIGHT_PERCENTILE = 0.95;
const BAND_LIGHT_TEXT = 64;

/** Each cell's background: the percentile of its window's pixels. */
function bandCells(
  grey: Buffer,
  width: number,
  height: number,
): { cells: Buffer; bright: Buffer; cols: number; rows: number } {
  const cols = Math.ceil(width / BAND_CELL_W);
  const rows = Math.ceil(height / BAND_CELL_H);
  // Histograms of 64 levels per cell (4 grey levels a bin: enough for a threshold).
  const histograms = new Uint16Array(cols * rows * 64);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    const cellRow = Math.floor(y / BAND_CELL_H) * cols;
    for (let x = 0; x < width; x += 1) {
      const bin = (cellRow + Math.floor(x / BAND_CELL_W)) * 64 + ((grey[row + x] as number) >> 2);
      histograms[bin] = (histograms[bin] as number) + 1;
    }
  }
  const cells = Buffer.alloc(cols * rows, 255);
  const bright = Buffer.alloc(cols * rows, 255);
  const window = new Uint32Array(64);
  /** The level below which `share` of the window's pixels are. */
  const percentile = (count: number, share: number) => {
    let left = Math.ceil(count * share);
    let v = 0;
    while (v < 63 && left > (window[v] as number)) {
      left -= window[v] as number;
      v += 1;
    }
    return Math.min(255, v * 4 + 2);
  };
  for (let cx = 0; cx < cols; cx += 1) {
    for (let cy = 0; cy < rows; cy += 1) {
      window.fill(0);
      let count = 0;
      for (let r = Math.max(0, cy - BAND_WINDOW); r <= Math.min(rows - 1, cy + BAND_WINDOW); r += 1) {
        const base = (r * cols + cx) * 64;
        for (let v = 0; v < 64; v += 1) {
          const n = histograms[base + v] as number;
          window[v] = (window[v] as number) + n;
          count += n;
        }
      }
      cells[cy * cols + cx] = percentile(count, BAND_PERCENTILE);
      bright[cy * cols + cx] = percentile(count, BAND_BRIGHT_PERCENTILE);
    }
  }
  return { cells, bright, cols, rows };
}

/** The cells' values, each given the darkest of its neighbours beside it (`reach` 0) or also above and below (`reach` 1). */
function darkestAround(cells: Buffer, cols: number, rows: number, reach: number): Buffer {
  const grid = Buffer.alloc(cells.length);
  for (let cy = 0; cy < rows; cy += 1) {
    for (let cx = 0; cx < cols; cx += 1) {
      let min = 255;
      for (let dy = -reach; dy <= reach; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const y = cy + dy;
          const x = cx + dx;
          if (y >= 0 && y < rows && x >= 0 && x < cols) min = Math.min(min, cells[y * cols + x] as number);
        }
      }
      grid[cy * cols + cx] = min;
    }
  }
  return grid;
}

/**
 * Grids of cells brought to full size (linear), in one resize of as many channels: pixel i of grid k is
 * at `i * grids.length + k`.
 */
async function gridsToPixels(
  grids: Buffer[],
  cols: number,
  rows: number,
  width: number,
  height: number,
): Promise<Buffer> {
  const channels = grids.length as 1 | 2 | 3 | 4;
  const joined = Buffer.alloc(cols * rows * channels);
  for (let i = 0; i < cols * rows; i += 1)
    for (let k = 0; k < channels; k += 1) joined[i * channels + k] = (grids[k] as Buffer)[i] as number;
  return sharp(joined, { raw: { width: cols, height: rows, channels } })
    .resize(width, height, { fit: "fill", kernel: "linear" })
    .raw()
    .toBuffer();
}

/**
 * Evens out shaded bands (a table header printed on a tint or in white on a dark band, shaded rows):
 * the local background is a high percentile of the pixels around (a window 32 × 40 px, taller than a
 * letter: text covers less than 40 % of it), and each pixel is divided by it — a tinted band becomes
 * paper white with its text dark — or, on a dark background, inverted against it: the white letters
 * become dark on white. At a dark band's edge (within a cell of it), only the band's own dark pixels are
 * whitened: the text of the row beside it stays. Paper (background near white) is left as it is.
 * Without this, the band's long runs of tint are taken for table rules and whitened along with the
 * letters on them.
 */
export async function evenBands(grey: Buffer, width: number, height: number): Promise<Buffer> {
  const { cells, bright, cols, rows } = bandCells(grey, width, height);
  if (cells.every((value) => value >= BAND_PAPER)) return grey;
  // Dark cells (light text on them) apart from tinted ones (dark text on them).
  const dark = Buffer.alloc(cells.length, 255);
  const tint = Buffer.alloc(cells.length, 255);
  for (let c = 0; c < cells.length; c += 1) {
    const b = cells[c] as number;
    if (b < BAND_DARK && (bright[c] as number) - b >= BAND_LIGHT_TEXT) dark[c] = b;
    else tint[c] = b;
  }
  // Per pixel: the dark cells (core), the same reaching a cell above and below (edge), the tinted cells.
  const full = await gridsToPixels(
    [
      darkestAround(dark, cols, rows, 0),
      darkestAround(dark, cols, rows, 1),
      darkestAround(tint, cols, rows, 0),
    ],
    cols,
    rows,
    width,
    height,
  );
  const out = Buffer.from(grey);
  for (let i = 0; i < out.length; i += 1) {
    const b = full[i * 3] as number;
    const t = full[i * 3 + 2] as number;
    const v = grey[i] as number;
    if (b < BAND_DARK) {
      out[i] = Math.max(0, Math.min(255, Math.round((255 * (255 - v)) / Math.max(1, 255 - b))));
    } else if ((full[i * 3 + 1] as number) < BAND_DARK) {
      if (v < BAND_DARK) out[i] = 255;
    } else if (t < BAND_PAPER) {
      out[i] = Math.min(255, Math.round((255 * v) / Math.max(1, t)));
    }
  }
  return out;
}

/** A pixel darker than this (0–255, after flattening) is the core of a letter: what the skew is measured on. */
const INK = 100;
/** Darker than this, a long thin run is a table rule: rules are thin and blurred on a photo, lighter than text. */
const RULE_INK = 225;

/**
 * The angle (degrees, clockwise) of the text rows: the angle whose projection of the ink pixels onto
 * the vertical axis is the most peaked (rows of text and rules give sharp peaks when aligned). Computed on
 * a reduced copy; good to about 0.1°.
 */
export async function skewAngle(grey: Buffer, width: number, height: number): Promise<number> {
  const scale = Math.min(1, 600 / width);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const small = await sharp(grey, { raw: { width, height, channels: 1 } })
    .resize(w, h, { fit: "fill" })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const xs: number[] = [];
  const ys: number[] = [];
  // The middle of the picture only: a photo's edges hold the table or the margins of the paper.
  for (let y = Math.round(h * 0.1); y < h * 0.9; y += 1) {
    for (let x = Math.round(w * 0.1); x < w * 0.9; x += 1) {
      if ((small[y * w + x] as number) < INK) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  const bins = new Float64Array(h * 2 + w);
  const score = (degrees: number) => {
    const a = (degrees * Math.PI) / 180;
    const sin = Math.sin(a);
    const cos = Math.cos(a);
    bins.fill(0);
    for (let i = 0; i < xs.length; i += 1) {
      const r = Math.round((ys[i] as number) * cos - (xs[i] as number) * sin + w);
      bins[r] = (bins[r] ?? 0) + 1;
    }
    let sum = 0;
    for (const bin of bins) sum += bin * bin;
    return sum;
  };
  let best = 0;
  let bestScore = score(0);
  for (let degrees = -5; degrees <= 5.001; degrees += 0.25) {
    const value = score(degrees);
    if (value > bestScore) [best, bestScore] = [degrees, value];
  }
  const coarse = best;
  for (let degrees = coarse - 0.25; degrees <= coarse + 0.25; degrees += 0.05) {
    const value = score(degrees);
    if (value > bestScore) [best, bestScore] = [degrees, value];
  }
  return best;
}

/** Edges at least this far apart in brightness, across three pixels, are measured by edgeSteepness. */
const EDGE_CONTRAST = 60;

/**
 * How steep the page's edges are (0–1): on each strong edge (rows and columns, every other line), the
 * share of its rise across three pixels that the middle step holds; the 90th percentile of these shares.
 * Printed text photographed in focus gives 0.55–0.8; a phone's blur of σ ≥ ~1.1 px at the OCR's size
 * gives ≤ 0.50 (measured on the tuned photos, issue 34). A page with no strong edge gives 1.
 */
export function edgeSteepness(grey: Buffer, width: number, height: number): number {
  const counts = new Uint32Array(101);
  let total = 0;
  const measure = (i: number, step: number) => {
    const rise = Math.abs((grey[i + 2 * step] as number) - (grey[i - step] as number));
    if (rise < EDGE_CONTRAST) return;
    const middle = Math.abs((grey[i + step] as number) - (grey[i] as number));
    const share = Math.min(100, Math.round((100 * middle) / rise));
    counts[share] = (counts[share] as number) + 1;
    total += 1;
  };
  for (let y = 2; y < height - 2; y += 2) for (let x = 2; x < width - 3; x += 1) measure(y * width + x, 1);
  for (let y = 2; y < height - 3; y += 1)
    for (let x = 2; x < width - 2; x += 2) measure(y * width + x, width);
  if (total === 0) return 1;
  let seen = 0;
  for (let share = 0; share <= 100; share += 1) {
    seen += counts[share] as number;
    if (seen >= 0.9 * total) return share / 100;
  }
  return 1;
}

/** At or below this edgeSteepness, a page is sharpened before it is read (ADR 065). */
export const BLURRED_EDGES = 0.5;

/**
 * An unsharp mask: the page plus twice its difference from a 5 × 5 binomial blur (σ ≈ 1 px), as one
 * integer convolution by sharp on the grey page (sharp's own sharpen works in LAB and costs ~1 s a page).
 */
const UNSHARP = (() => {
  const binomial = [1, 4, 6, 4, 1];
  const amount = 2;
  const kernel = binomial.flatMap((row, y) =>
    binomial.map((column, x) => (x === 2 && y === 2 ? (1 + amount) * 256 : 0) - amount * row * column),
  );
  return { width: 5, height: 5, kernel, scale: 256, offset: 0 };
})();

/**
 * Steepens the edges a phone's blur softened (issue 34, ADR 065): tesseract merges the glyphs of a
 * blurred page, more so in small and condensed faces. Even areas are unchanged.
 */
export async function sharpenEdges(grey: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(grey, { raw: { width, height, channels: 1 } })
    .convolve(UNSHARP)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/**
 * Whitens the table's rules: runs of ink longer than any character, along rows and along columns.
 * tesseract reads rules as strings of dashes and pipes, and they merge with the cells' text.
 */
function removeRules(grey: Buffer, width: number, height: number): void {
  const marks: number[] = [];
  // Rows: runs of at least a tenth of the width; columns: of at least a fortieth of the height.
  markRuns(
    grey,
    { lines: height, length: width, lineStep: width, step: 1 },
    Math.max(60, Math.round(width / 10)),
    marks,
  );
  markRuns(
    grey,
    { lines: width, length: height, lineStep: 1, step: width },
    Math.max(40, Math.round(height / 40)),
    marks,
  );
  for (const index of marks) grey[index] = 255;
}

/**
 * Adds to `marks` the pixels of every dark run at least `min` long along each line: rows (pixels
 * one apart, rows `width` apart) or columns (pixels `width` apart, columns one apart).
 */
function markRuns(
  grey: Buffer,
  along: { lines: number; length: number; lineStep: number; step: number },
  min: number,
  marks: number[],
): void {
  const { lines, length, lineStep, step } = along;
  for (let line = 0; line < lines; line += 1) {
    const first = line * lineStep;
    let start = -1;
    for (let i = 0; i <= length; i += 1) {
      const ink = i < length && (grey[first + i * step] as number) < RULE_INK;
      if (ink && start < 0) start = i;
      if (!ink && start >= 0) {
        if (i - start >= min) for (let j = start; j < i; j += 1) marks.push(first + j * step);
        start = -1;
      }
    }
  }
}

/**
 * The contrast stretch: sharp's `normalise({ lower: 0.5, upper: 99.5 })`. Its native side takes the two
 * as whole numbers (0 and 99): the darkest pixel's lightness (LAB) becomes black, and libvips's 99th
 * percentile of the lightness, which on a page with white paper is its top (100: the percentile's
 * normalised histogram compares truncated values), white.
 */
const STRETCH = { lower: 0.5, upper: 99.5 } as const;

/**
 * Whether libvips's percentile on an image of `pixels` pixels with white in it lands one past the top
 * (101, so white comes out 252): its normalised cumulated histogram is computed in single precision, and
 * 100 / pixels × pixels falls just short of 100 for some sizes.
 */
const pastTheTop = (pixels: number) => Math.fround(Math.fround(100 / pixels) * pixels) < 100;

/**
 * The contrast stretch, then `toColourspace("b-w")`, to the byte, at a fraction of sharp's cost: sharp
 * stretches the lightness in LAB, three float channels over the whole page (~0.3 s of CPU a page), where a
 * grey page needs only a table of 256 values. Each output value depends only on the input value, the
 * page's darkest value and where libvips puts the percentile (above): sharp runs the same operations on a
 * small image with the same darkest value, white, every value from the darkest up, and a size whose
 * percentile lands where the page's does; the table read from it is applied to the page. A page without
 * white (the light evened out gives paper 255) goes through sharp whole. `image.test.ts` compares both
 * on many sizes: a sharp that computes otherwise fails it.
 */
export async function stretchContrast(grey: Buffer, width: number, height: number): Promise<Buffer> {
  let darkest = 255;
  let white = false;
  for (let i = 0; i < grey.length; i += 1) {
    const value = grey[i] as number;
    if (value < darkest) darkest = value;
    else if (value === 255) white = true;
  }
  const stretch = (image: Buffer, w: number, h: number) =>
    sharp(image, { raw: { width: w, height: h, channels: 1 } })
      .normalise(STRETCH)
      .toColourspace("b-w")
      .extractChannel(0)
      .raw()
      .toBuffer();
  if (!white) return stretch(grey, width, height);
  const side = 256;
  let rows = 64;
  while (pastTheTop(side * rows) !== pastTheTop(grey.length)) rows += 1;
  const sample = Buffer.alloc(side * rows, 255);
  for (let value = darkest; value < side; value += 1) sample[value] = value;
  sample.fill(darkest, 0, darkest);
  const table = await stretch(sample, side, rows);
  const out = Buffer.alloc(grey.length);
  for (let i = 0; i < grey.length; i += 1) out[i] = table[grey[i] as number] as number;
  return out;
}

export interface PrepareOptions {
  minSide?: number;
  maxSide?: number;
  flatten?: boolean;
  /** Sharpen the page when its edges are blurred (edgeSteepness ≤ BLURRED_EDGES); false: never. */
  sharpen?: boolean;
  deskew?: boolean;
  bands?: boolean;
  rules?: boolean;
}

/**
 * Preparations run one at a time, in the order asked (issue 34, "memory as today"): each holds a few
 * decoded copies of its page (8–40 MB at 2 400–2 500 px) for most of a second, and documents read at once
 * all started theirs together — the peak of the reading's memory. OCR, one page at a time by default
 * (ocr.ts), is the slower step: a page prepared while another is read waits no longer than it did.
 */
let preparing: Promise<unknown> = Promise.resolve();
let preparationsInFlight = 0;
let preparationsPeak = 0;

/** How many preparations ran at once at most since the last reset (tests). */
export function preparationPeak(reset = false): number {
  const peak = preparationsPeak;
  if (reset) preparationsPeak = preparationsInFlight;
  return peak;
}

/**
 * Prepares an image (JPEG or PNG bytes, or a PDF page's rendered pixels) for OCR. Throws
 * ReadingError(damaged) when it cannot be decoded.
 */
export function prepareForOcr(data: ImageInput, options: PrepareOptions = {}): Promise<PreparedImage> {
  const turn = preparing.then(async () => {
    preparationsInFlight += 1;
    preparationsPeak = Math.max(preparationsPeak, preparationsInFlight);
    try {
      return await prepareNow(data, options);
    } finally {
      preparationsInFlight -= 1;
    }
  });
  preparing = turn.catch(() => {});
  return turn;
}

async function prepareNow(data: ImageInput, options: PrepareOptions): Promise<PreparedImage> {
  const upright = await uprightSize(data);
  const size = targetSize(
    upright.width,
    upright.height,
    options.minSide ?? OCR_MIN_SIDE,
    options.maxSide ?? OCR_MAX_SIDE,
  );
  try {
    const { data: grey, info } = await openImage(data)
      .rotate()
      .greyscale()
      .resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    let width = info.width;
    let height = info.height;
    let flat = options.flatten === false ? grey : await flattenLight(grey, width, height);
    if (options.sharpen !== false && edgeSteepness(flat, width, height) <= BLURRED_EDGES) {
      flat = await sharpenEdges(flat, width, height);
    }
    if (options.deskew !== false) {
      const angle = await skewAngle(flat, width, height);
      if (Math.abs(angle) >= 0.1) {
        const turned = await sharp(flat, { raw: { width, height, channels: 1 } })
          .rotate(-angle, { background: "#ffffff" })
          .extractChannel(0)
          .raw()
          .toBuffer({ resolveWithObject: true });
        flat = turned.data;
        width = turned.info.width;
        height = turned.info.height;
      }
    }
    if (options.bands !== false) flat = await evenBands(flat, width, height);
    if (options.rules !== false) removeRules(flat, width, height);
    const png = await sharp(await stretchContrast(flat, width, height), {
      raw: { width, height, channels: 1 },
    })
      .toColourspace("b-w")
      .png({ compressionLevel: 1 })
      .toBuffer();
    return { image: png, width, height };
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
}

/**
 * The image as the patient sees it: upright (EXIF), in colour, `width` pixels wide (never enlarged, and
 * never taller than MAX_RENDER_SIDE), PNG.
 */
export async function previewImage(data: Uint8Array, width: number): Promise<Buffer> {
  await uprightSize(data);
  try {
    return await openImage(data)
      .rotate()
      .resize({ width, height: MAX_RENDER_SIDE, fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
}
