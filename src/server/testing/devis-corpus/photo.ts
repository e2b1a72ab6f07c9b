import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { createPdfjsCanvas, loadPdfJs, pdfjsFolder } from "../../modules/reading/pdfjs";
import { type CorpusDevis, Dice, prng } from "./model";
import { devisPdf, pageCount } from "./pdf";

/**
 * A generated devis as a phone photo or a scanned PDF (issue 34): the PDF rendered by pdf.js, then
 * degraded as a phone or a scanner degrades paper — every choice drawn from the seed, so the same seed
 * gives the same bytes. A photo: 150–200 DPI, perspective up to 8° (the camera tilted towards an edge),
 * rotation 1–4°, uneven light and a shadow, a warm cast, sometimes a finger or a fold over a corner, blur,
 * sensor noise, JPEG quality 60–75. A scan: 150 DPI, up to 1.2° skew, a little noise, JPEG 70–85, every
 * page.
 */

/**
 * pdf.js keeps glyph outlines in half-precision floats where the runtime has Float16Array (Node 24),
 * in single precision where it has not (Node 20 and 22): the same devis came out of pdf.js as other
 * pixels on Node 24 (about 470 of a page, at the glyphs' edges), hence other photos and scans, read
 * otherwise (ADR 065). The same seed must give the same bytes on every runtime, so Float16Array is
 * taken from the process before pdf.js first draws a glyph (it decides once per process): when this
 * module loads, and in the server tests' setup (src/server/testing/setup.ts), before any test file of a
 * worker — the reader's previews draw glyphs too. Nothing of the product uses Float16Array.
 */
export function glyphsInSinglePrecision(): void {
  Reflect.deleteProperty(globalThis, "Float16Array");
}
glyphsInSinglePrecision();

interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/** The PDF's pages rendered on white at `dpi`, as raw RGBA. */
async function renderPages(pdf: Uint8Array, dpi: number): Promise<Raster[]> {
  const lib = await loadPdfJs();
  const doc = await lib.getDocument({
    data: new Uint8Array(pdf),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: pdfjsFolder("standard_fonts"),
  }).promise;
  try {
    const out: Raster[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.round(viewport.width);
      const height = Math.round(viewport.height);
      const canvas = createPdfjsCanvas(width, height);
      const context = canvas.getContext("2d");
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, width, height);
      await page.render({
        canvasContext: context as unknown as CanvasRenderingContext2D,
        viewport,
        canvas: canvas as unknown as HTMLCanvasElement,
      }).promise;
      const data = context.getImageData(0, 0, width, height).data;
      out.push({ data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height });
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

export interface PhotoSettings {
  dpi: number;
  /** Rotation in degrees, 1–4 either way. */
  angle: number;
  /** The camera's tilt in degrees (0–8) and the edge it leans towards (that edge comes out shorter). */
  tilt: number;
  tiltEdge: "top" | "bottom" | "left" | "right";
  background: string;
  blur: number;
  light: "radial" | "linear";
  /** Darkest light level at the edge (0–1, multiply). */
  shadow: number;
  /** A soft shadow (the phone's, a hand's) across one side, or none. */
  castShadow: "left" | "right" | "top" | "bottom" | null;
  /** The light's colour multiplied in (warm: blue and green lowered). */
  cast: { r: number; g: number; b: number };
  /** Over one corner: a finger holding the paper, a folded corner, or nothing. */
  mark: "finger" | "fold" | null;
  corner: 0 | 1 | 2 | 3;
  noise: number;
  quality: number;
}

/** The camera and paper settings of a photo, drawn from its own seed. */
export function photoSettings(seed: number): PhotoSettings {
  const dice = new Dice(prng(seed * 7919 + 17));
  const mark = dice.next();
  return {
    dpi: dice.int(150, 200),
    angle: Math.round(dice.real(1, 4) * 10 * (dice.chance(0.5) ? 1 : -1)) / 10,
    tilt: Math.round(dice.real(0, 8) * 10) / 10,
    tiltEdge: dice.pick(["top", "bottom", "left", "right"] as const),
    background: dice.chance(0.4) ? "#ffffff" : dice.pick(["#8a8a8a", "#6f6a64", "#a3a39c", "#4a4540"]),
    blur: Math.round(dice.real(0.5, 1.3) * 100) / 100,
    light: dice.chance(0.5) ? "radial" : "linear",
    shadow: Math.round(dice.real(0.6, 0.85) * 100) / 100,
    castShadow: dice.chance(0.4) ? dice.pick(["left", "right", "top", "bottom"] as const) : null,
    cast: { r: 255, g: dice.int(236, 250), b: dice.int(205, 232) },
    mark: mark < 0.3 ? "finger" : mark < 0.5 ? "fold" : null,
    corner: dice.int(0, 3) as 0 | 1 | 2 | 3,
    noise: dice.int(6, 16),
    quality: dice.int(60, 75),
  };
}

/** Solves the 8 unknowns of the homography taking the 4 points `from` to the 4 points `to`. */
function homography(from: [number, number][], to: [number, number][]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as [number, number];
    const [u, v] = to[i] as [number, number];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gauss–Jordan with partial pivoting on the 8×9 augmented matrix.
  for (let c = 0; c < 8; c++) {
    let pivot = c;
    for (let r = c + 1; r < 8; r++)
      if (Math.abs((a[r] as number[])[c] as number) > Math.abs((a[pivot] as number[])[c] as number))
        pivot = r;
    [a[c], a[pivot]] = [a[pivot] as number[], a[c] as number[]];
    const row = a[c] as number[];
    const p = row[c] as number;
    for (let k = c; k < 9; k++) row[k] = (row[k] as number) / p;
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const other = a[r] as number[];
      const f = other[c] as number;
      for (let k = c; k < 9; k++) other[k] = (other[k] as number) - f * (row[k] as number);
    }
  }
  return [...a.map((row) => row[8] as number), 1];
}

/**
 * The page seen by a camera tilted `tilt`° towards one edge: that edge shorter (keystone), the page on a
 * background a little larger than it. Bilinear resampling through the inverse homography.
 */
function perspective(
  src: Raster & { channels: number },
  tilt: number,
  edge: PhotoSettings["tiltEdge"],
  background: string,
  dice: Dice,
): Raster {
  const { width: w, height: h, channels } = src;
  const margin = Math.round(w * 0.035);
  const W = w + 2 * margin;
  const H = h + 2 * margin;
  const inset = Math.tan((tilt * Math.PI) / 180) * 0.35;
  const jitter = () => dice.real(-0.004, 0.004) * w;
  // Destination corners: top-left, top-right, bottom-right, bottom-left.
  const dst: [number, number][] = [
    [margin, margin],
    [margin + w, margin],
    [margin + w, margin + h],
    [margin, margin + h],
  ].map(([x, y]) => [(x as number) + jitter(), (y as number) + jitter()]);
  const shrink = (i: number, j: number, horizontal: boolean) => {
    const a = dst[i] as [number, number];
    const b = dst[j] as [number, number];
    if (horizontal) {
      const d = w * inset;
      a[0] += d;
      b[0] -= d;
    } else {
      const d = h * inset;
      a[1] += d;
      b[1] -= d;
    }
  };
  if (edge === "top") shrink(0, 1, true);
  if (edge === "bottom") shrink(3, 2, true);
  if (edge === "left") shrink(0, 3, false);
  if (edge === "right") shrink(1, 2, false);
  const srcCorners: [number, number][] = [
    [0, 0],
    [w, 0],
    [w, h],
    [0, h],
  ];
  const m = homography(dst, srcCorners);
  const bg = [1, 3, 5].map((i) => Number.parseInt(background.slice(i, i + 2), 16));
  const out = Buffer.alloc(W * H * 3);
  const [m0, m1, m2, m3, m4, m5, m6, m7] = m as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const z = m6 * x + m7 * y + 1;
      const sx = (m0 * x + m1 * y + m2) / z - 0.5;
      const sy = (m3 * x + m4 * y + m5) / z - 0.5;
      const o = (y * W + x) * 3;
      if (sx < 0 || sy < 0 || sx >= w - 1 || sy >= h - 1) {
        out[o] = bg[0] as number;
        out[o + 1] = bg[1] as number;
        out[o + 2] = bg[2] as number;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * w + x0) * channels;
      const i10 = i00 + channels;
      const i01 = i00 + w * channels;
      const i11 = i01 + channels;
      for (let c = 0; c < 3; c++) {
        const top = (src.data[i00 + c] as number) * (1 - fx) + (src.data[i10 + c] as number) * fx;
        const bottom = (src.data[i01 + c] as number) * (1 - fx) + (src.data[i11 + c] as number) * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, width: W, height: H };
}

/** Sensor noise: a grey image around mid-grey, to blend in soft light. */
async function noiseImage(w: number, h: number, amount: number, seed: number): Promise<Buffer> {
  const noise = Buffer.alloc(w * h);
  const next = prng(seed * 31 + 5);
  for (let i = 0; i < noise.length; i++) {
    const n = (next() + next() + next() - 1.5) * 2 * amount;
    noise[i] = Math.max(0, Math.min(255, Math.round(128 + n)));
  }
  return sharp(noise, { raw: { width: w, height: h, channels: 1 } })
    .toColourspace("srgb")
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * A finger holding the paper or a folded corner, at the page's corner `corner` (0 top-left, then
 * clockwise), as an SVG overlay of the flat page: a fold shows the background where the corner was and
 * the flap lying over the paper.
 */
function markSvg(
  mark: "finger" | "fold",
  corner: number,
  w: number,
  h: number,
  background: string,
  dice: Dice,
): Buffer {
  const cx = corner === 0 || corner === 3 ? 0 : w;
  const cy = corner < 2 ? 0 : h;
  const sx = cx === 0 ? 1 : -1;
  const sy = cy === 0 ? 1 : -1;
  let body: string;
  if (mark === "finger") {
    const rx = w * dice.real(0.04, 0.06);
    const ry = h * dice.real(0.06, 0.09);
    const x = cx + sx * w * dice.real(0.0, 0.03);
    const y = cy + sy * h * dice.real(0.02, 0.05);
    const angle = dice.int(20, 60) * sx * sy;
    body = `<defs><filter id="b"><feGaussianBlur stdDeviation="${(w * 0.004).toFixed(1)}"/></filter></defs><ellipse cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" rx="${rx.toFixed(0)}" ry="${ry.toFixed(0)}" transform="rotate(${angle} ${x.toFixed(0)} ${y.toFixed(0)})" fill="${dice.pick(["#c58f72", "#d9a88a", "#a8735a"])}" filter="url(#b)"/>`;
  } else {
    const a = w * dice.real(0.06, 0.11);
    const b = h * dice.real(0.04, 0.08);
    // The corner reflected across the crease from (cx + sx·a, cy) to (cx, cy + sy·b).
    const ax = cx + sx * a;
    const by = cy + sy * b;
    const dx = cx - ax;
    const dy = by - cy;
    const len2 = dx * dx + dy * dy;
    const t = ((cx - ax) * dx + (cy - cy) * dy) / len2;
    const fx = ax + t * dx;
    const fy = cy + t * dy;
    const px = 2 * fx - cx;
    const py = 2 * fy - cy;
    body = `<polygon points="${cx},${cy} ${ax},${cy} ${cx},${by}" fill="${background}"/><polygon points="${ax},${cy} ${cx},${by} ${px.toFixed(1)},${py.toFixed(1)}" fill="#efece4" stroke="#9a968c" stroke-width="${(w * 0.0012).toFixed(1)}"/>`;
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);
}

async function photoOf(page: Raster, seed: number): Promise<Buffer> {
  const s = photoSettings(seed);
  const dice = new Dice(prng(seed * 104729 + 3));
  const { width, height } = page;

  // Uneven, warm light on the paper, and sometimes a shadow across a side: gradients multiplied in.
  const shade = Math.round(255 * s.shadow);
  const light = `rgb(${shade},${shade},${Math.max(0, shade - 8)})`;
  const cx = dice.int(20, 80);
  const cy = dice.int(15, 85);
  const gradient =
    s.light === "radial"
      ? `<radialGradient id="g" cx="${cx}%" cy="${cy}%" r="85%"><stop offset="0" stop-color="#fffffa"/><stop offset="1" stop-color="${light}"/></radialGradient>`
      : `<linearGradient id="g" x1="${dice.real(0, 1).toFixed(2)}" y1="0" x2="${dice.real(0, 1).toFixed(2)}" y2="1"><stop offset="0" stop-color="#fffffa"/><stop offset="1" stop-color="${light}"/></linearGradient>`;
  const shadowDepth = Math.round(255 * dice.real(0.6, 0.78));
  const shadowSpan = dice.real(0.12, 0.3).toFixed(2);
  const towards = { left: [0, 0, 1, 0], right: [1, 0, 0, 0], top: [0, 0, 0, 1], bottom: [0, 1, 0, 0] };
  const shadowGradient = s.castShadow
    ? `<linearGradient id="s" x1="${towards[s.castShadow][0]}" y1="${towards[s.castShadow][1]}" x2="${towards[s.castShadow][2]}" y2="${towards[s.castShadow][3]}"><stop offset="0" stop-color="rgb(${shadowDepth},${shadowDepth},${shadowDepth})"/><stop offset="${shadowSpan}" stop-color="#ffffff"/></linearGradient>`
    : "";
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>${gradient}${shadowGradient}</defs><rect width="100%" height="100%" fill="url(#g)"/>${s.castShadow ? '<rect width="100%" height="100%" fill="url(#s)"/>' : ""}</svg>`,
  );
  const castSvg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(${s.cast.r},${s.cast.g},${s.cast.b})"/></svg>`,
  );
  const lit = await sharp(page.data, { raw: { width, height, channels: 4 } })
    .composite([
      { input: svg, blend: "multiply" },
      { input: castSvg, blend: "multiply" },
      ...(s.mark
        ? [{ input: markSvg(s.mark, s.corner, width, height, s.background, dice), blend: "over" as const }]
        : []),
    ])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const seen = perspective(
    { data: lit.data, width: lit.info.width, height: lit.info.height, channels: lit.info.channels },
    s.tilt,
    s.tiltEdge,
    s.background,
    dice,
  );
  const turned = await sharp(seen.data, { raw: { width: seen.width, height: seen.height, channels: 3 } })
    .rotate(s.angle, { background: s.background })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = turned.info;
  const marked = await sharp(turned.data, { raw: { width: w, height: h, channels: 3 } })
    .blur(s.blur)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(marked.data, { raw: { width: w, height: h, channels: marked.info.channels } })
    .composite([{ input: await noiseImage(w, h, s.noise, seed), blend: "soft-light" }])
    .jpeg({ quality: s.quality, mozjpeg: false })
    .toBuffer();
}

/** The devis as a phone photo (JPEG). A photo holds one page: a two-page devis is refused. */
export async function devisPhoto(d: CorpusDevis, seed = d.seed): Promise<Buffer> {
  if (pageCount(d) > 1) throw new Error(`devis ${d.seed} (${d.family}) has two pages: no single photo of it`);
  const [page] = await renderPages(await devisPdf(d), photoSettings(seed).dpi);
  return photoOf(page as Raster, seed);
}

export interface ScanSettings {
  dpi: number;
  angle: number;
  noise: number;
  quality: number;
  /** The scanner's paper white (multiply), 0.9–1. */
  white: number;
}

export function scanSettings(seed: number): ScanSettings {
  const dice = new Dice(prng(seed * 6007 + 11));
  return {
    dpi: 150,
    angle: Math.round(dice.real(0.2, 1.2) * 10 * (dice.chance(0.5) ? 1 : -1)) / 10,
    noise: dice.int(3, 8),
    quality: dice.int(70, 85),
    white: Math.round(dice.real(0.9, 1) * 100) / 100,
  };
}

/** The devis as a scanned PDF: every page an image at 150 DPI, slightly skewed, no text layer. */
export async function devisScan(d: CorpusDevis, seed = d.seed): Promise<Uint8Array> {
  const s = scanSettings(seed);
  const pages = await renderPages(await devisPdf(d), s.dpi);
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const [n, page] of pages.entries()) {
    const grey = Math.round(255 * s.white);
    const paper = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}" height="${page.height}"><rect width="100%" height="100%" fill="rgb(${grey},${grey},${grey})"/></svg>`,
    );
    const turned = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 4 } })
      .composite([{ input: paper, blend: "multiply" }])
      .removeAlpha()
      .rotate(s.angle, { background: "#ffffff" })
      .blur(0.4)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: w, height: h } = turned.info;
    const jpeg = await sharp(turned.data, { raw: { width: w, height: h, channels: turned.info.channels } })
      .composite([{ input: await noiseImage(w, h, s.noise, seed + n), blend: "soft-light" }])
      .jpeg({ quality: s.quality, mozjpeg: false })
      .toBuffer();
    const image = await doc.embedJpg(jpeg);
    const width = (image.width * 72) / s.dpi;
    const height = (image.height * 72) / s.dpi;
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save({ useObjectStreams: false });
}

/** The devis's pages rendered clean (no degradation) as PNGs, to look at a layout. */
export async function devisPagePngs(d: CorpusDevis, dpi = 100): Promise<Buffer[]> {
  const pages = await renderPages(await devisPdf(d), dpi);
  return Promise.all(
    pages.map((p) =>
      sharp(p.data, { raw: { width: p.width, height: p.height, channels: 4 } })
        .png()
        .toBuffer(),
    ),
  );
}
