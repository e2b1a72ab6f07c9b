// Image-preparation variants measured by scripts/eval-ocr.ts (ADR 041) and not kept in the reader: a
// perspective correction from the sheet's corners (OpenCV's WebAssembly build, @techstark/opencv-js,
// Apache-2.0, a devDependency) run before the reader's own preparation (image.ts), and a binarisation
// after it. Neither read more fields on the held-out photos (ADR 041's table).
import { createRequire } from "node:module";
import sharp from "sharp";
import {
  type ImageInput,
  openImage,
  type PreparedImage,
  prepareForOcr,
} from "../../src/server/modules/reading/image";
import { MAX_RENDER_SIDE } from "../../src/server/modules/reading/limits";

type OpenCv = typeof import("@techstark/opencv-js");
const require = createRequire(import.meta.url);
let openCv: Promise<{ cv: OpenCv }> | null = null;

/**
 * OpenCV's WebAssembly build (@techstark/opencv-js, Apache-2.0), loaded once when first needed (~0.7 s).
 * Wrapped in an object: the Emscripten module is itself a thenable that resolves to itself, which a
 * promise resolved with it would follow for ever.
 */
function loadOpenCv(): Promise<{ cv: OpenCv }> {
  openCv ??= new Promise<{ cv: OpenCv }>((resolve) => {
    const cv = require("@techstark/opencv-js") as OpenCv & { onRuntimeInitialized?: () => void };
    if ((cv as { Mat?: unknown }).Mat) resolve({ cv });
    else cv.onRuntimeInitialized = () => resolve({ cv });
  });
  return openCv;
}

/** Width of the copy on which the page's corners are looked for. */
const CORNER_WIDTH = 700;

type Point = { x: number; y: number };

/**
 * The four corners of the sheet of paper in a photo (top-left, top-right, bottom-right, bottom-left, in
 * the image's pixels), or null when no sheet stands out: the edges (Canny) of a reduced copy, their
 * outer contours, the largest one whose convex hull is a quadrilateral covering at least a quarter of
 * the picture and not the whole of it. A sheet on a background of its own colour has no visible edge:
 * null, and the deskew does the rest.
 */
export async function pageCorners(grey: Buffer, width: number, height: number): Promise<Point[] | null> {
  const { cv } = await loadOpenCv();
  const scale = Math.min(1, CORNER_WIDTH / width);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const small = await sharp(grey, { raw: { width, height, channels: 1 } })
    .resize(w, h, { fit: "fill" })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const mats: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(mat: T): T => {
    mats.push(mat);
    return mat;
  };
  try {
    const src = keep(new cv.Mat(h, w, cv.CV_8UC1));
    src.data.set(small);
    const edges = keep(new cv.Mat());
    cv.GaussianBlur(src, edges, new cv.Size(5, 5), 0);
    cv.Canny(edges, edges, 40, 120);
    const kernel = keep(cv.Mat.ones(3, 3, cv.CV_8U));
    cv.dilate(edges, edges, kernel);
    const contours = keep(new cv.MatVector());
    const hierarchy = keep(new cv.Mat());
    cv.findContours(edges, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    let best: Point[] | null = null;
    let bestArea = 0;
    for (let i = 0; i < contours.size(); i += 1) {
      const contour = keep(contours.get(i));
      const hull = keep(new cv.Mat());
      cv.convexHull(contour, hull);
      const area = cv.contourArea(hull);
      if (area < 0.25 * w * h || area > 0.97 * w * h || area <= bestArea) continue;
      const poly = keep(new cv.Mat());
      cv.approxPolyDP(hull, poly, 0.02 * cv.arcLength(hull, true), true);
      if (poly.rows !== 4) continue;
      const points: Point[] = [];
      for (let k = 0; k < 4; k += 1) {
        points.push({
          x: (poly.data32S[k * 2] as number) / scale,
          y: (poly.data32S[k * 2 + 1] as number) / scale,
        });
      }
      best = orderCorners(points);
      bestArea = area;
    }
    return best;
  } finally {
    for (const mat of mats) mat.delete();
  }
}

/** Corners in order: top-left, top-right, bottom-right, bottom-left. */
function orderCorners(points: Point[]): Point[] {
  const bySum = [...points].sort((a, b) => a.x + a.y - (b.x + b.y));
  const byDiff = [...points].sort((a, b) => a.y - a.x - (b.y - b.x));
  return [bySum[0], byDiff[0], bySum[3], byDiff[3]] as Point[];
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Undoes the camera's perspective: the sheet's corners mapped to a rectangle of the sheet's own size,
 * the whole picture warped with them (nothing is cut off: a quadrilateral found on the table's border
 * rather than the sheet's keeps the header around it). Returns null when no sheet was found, the sheet
 * is already square to the camera, or the warped picture would be larger than 1.5 times the input.
 */
export async function correctPerspective(
  grey: Buffer,
  width: number,
  height: number,
): Promise<{ data: Buffer; width: number; height: number } | null> {
  const corners = await pageCorners(grey, width, height);
  if (!corners) return null;
  const [tl, tr, br, bl] = corners as [Point, Point, Point, Point];
  const rectWidth = Math.max(distance(tl, tr), distance(bl, br));
  const rectHeight = Math.max(distance(tl, bl), distance(tr, br));
  const target = [
    { x: tl.x, y: tl.y },
    { x: tl.x + rectWidth, y: tl.y },
    { x: tl.x + rectWidth, y: tl.y + rectHeight },
    { x: tl.x, y: tl.y + rectHeight },
  ];
  // Already a rectangle (within 2 px at each corner): nothing to undo beyond the deskew.
  if (corners.every((corner, i) => distance(corner, target[i] as Point) <= 2)) return null;
  const { cv } = await loadOpenCv();
  const mats: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(mat: T): T => {
    mats.push(mat);
    return mat;
  };
  try {
    const from = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        corners.flatMap((p) => [p.x, p.y]),
      ),
    );
    const to = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        target.flatMap((p) => [p.x, p.y]),
      ),
    );
    const homography = keep(cv.getPerspectiveTransform(from, to));
    // Where the picture's own corners land: the output covers all of them.
    const m = homography.data64F;
    const project = (x: number, y: number) => {
      const z = (m[6] as number) * x + (m[7] as number) * y + (m[8] as number);
      return {
        x: ((m[0] as number) * x + (m[1] as number) * y + (m[2] as number)) / z,
        y: ((m[3] as number) * x + (m[4] as number) * y + (m[5] as number)) / z,
      };
    };
    const landed = [project(0, 0), project(width, 0), project(width, height), project(0, height)];
    const minX = Math.min(...landed.map((p) => p.x));
    const minY = Math.min(...landed.map((p) => p.y));
    const outWidth = Math.round(Math.max(...landed.map((p) => p.x)) - minX);
    const outHeight = Math.round(Math.max(...landed.map((p) => p.y)) - minY);
    if (
      !Number.isFinite(outWidth) ||
      !Number.isFinite(outHeight) ||
      outWidth < 1 ||
      outHeight < 1 ||
      outWidth > MAX_RENDER_SIDE ||
      outHeight > MAX_RENDER_SIDE ||
      outWidth * outHeight > 1.5 * width * height
    ) {
      return null;
    }
    const shifted = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        target.flatMap((p) => [p.x - minX, p.y - minY]),
      ),
    );
    const transform = keep(cv.getPerspectiveTransform(from, shifted));
    const src = keep(new cv.Mat(height, width, cv.CV_8UC1));
    src.data.set(grey);
    const dst = keep(new cv.Mat());
    cv.warpPerspective(
      src,
      dst,
      transform,
      new cv.Size(outWidth, outHeight),
      cv.INTER_LINEAR,
      cv.BORDER_REPLICATE,
      new cv.Scalar(),
    );
    return { data: Buffer.from(dst.data), width: outWidth, height: outHeight };
  } finally {
    for (const mat of mats) mat.delete();
  }
}

/** With `binarize`, a pixel darker than this (after the reader's preparation) is ink. */
const BINARY_THRESHOLD = 170;

/**
 * The reader's preparation (image.ts prepareForOcr), after an optional perspective correction of the
 * upright greyscale photo, and optionally thresholded to black and white at the end.
 */
export async function prepareVariant(
  data: ImageInput,
  options: {
    perspective?: boolean;
    binarize?: boolean;
    rules?: boolean;
    /** The reader's preparation steps and sizes, to measure what each costs (prepareForOcr's options). */
    minSide?: number;
    maxSide?: number;
    flatten?: boolean;
    deskew?: boolean;
    bands?: boolean;
  },
): Promise<PreparedImage> {
  let input: ImageInput = data;
  if (options.perspective) {
    const { data: grey, info } = await openImage(data)
      .rotate()
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const warped = await correctPerspective(grey, info.width, info.height);
    if (warped) {
      input = await sharp(warped.data, { raw: { width: warped.width, height: warped.height, channels: 1 } })
        .png({ compressionLevel: 1 })
        .toBuffer();
    }
  }
  const { perspective: _p, binarize: _b, ...reader } = options;
  const prepared = await prepareForOcr(input, reader);
  if (!options.binarize) return prepared;
  const image = await sharp(prepared.image)
    .threshold(BINARY_THRESHOLD)
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { ...prepared, image };
}
