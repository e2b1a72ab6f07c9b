import sharp from "sharp";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { ReadingError } from "./types";

/**
 * Cleaning up a photo or a scan before OCR, with sharp: turned upright by its EXIF orientation, greyscale,
 * contrast stretched, resized so that text is large enough for tesseract (long side 1600–2500 px). sharp's
 * pixel limit stays on: a decompression bomb is refused as damaged.
 */

export const OCR_MAX_SIDE = 2500;
export const OCR_MIN_SIDE = 1600;
/** sharp's default limit (0x3FFF × 0x3FFF pixels); stated here so nobody turns it off. */
export const MAX_INPUT_PIXELS = 268_402_689;

export interface PreparedImage {
  /** PNG bytes, greyscale. */
  image: Buffer;
  width: number;
  height: number;
}

function input(data: Uint8Array): sharp.Sharp {
  return sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true });
}

/** Size of the image once turned upright (EXIF orientations 5–8 swap width and height). */
async function uprightSize(data: Uint8Array): Promise<{ width: number; height: number }> {
  let meta: sharp.Metadata;
  try {
    meta = await input(data).metadata();
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

/** Prepares an image (JPEG or PNG bytes) for OCR. Throws ReadingError(damaged) when it cannot be decoded. */
export async function prepareForOcr(
  data: Uint8Array,
  options: { minSide?: number; maxSide?: number } = {},
): Promise<PreparedImage> {
  const upright = await uprightSize(data);
  const size = targetSize(
    upright.width,
    upright.height,
    options.minSide ?? OCR_MIN_SIDE,
    options.maxSide ?? OCR_MAX_SIDE,
  );
  try {
    const { data: png, info } = await input(data)
      .rotate()
      .greyscale()
      .resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" })
      .normalise({ lower: 1, upper: 99 })
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    return { image: png, width: info.width, height: info.height };
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
}

/**
 * The image as the patient sees it: upright (EXIF), in colour, `width` pixels wide (never enlarged), PNG.
 */
export async function previewImage(data: Uint8Array, width: number): Promise<Buffer> {
  await uprightSize(data);
  try {
    return await input(data).rotate().resize({ width, withoutEnlargement: true }).png().toBuffer();
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
}
