import sharp from "sharp";

/**
 * The image work of an avatar, apart from the server (issue 32, ADR 037): `resizeAvatar` runs in the
 * reading's preview process (reading/reader-child.ts), never in the server's; `avatarPixelsOf` only reads
 * an image's header, so the server refuses a too large photo before anything of it is decoded.
 */

/** The side of a stored avatar, in pixels. */
export const AVATAR_PIXELS = 256;

/**
 * Most pixels of an uploaded photo, from its header: 25 M (a 24 MP camera's 6 000 × 4 000; a phone's
 * 12 MP photo is 4 032 × 3 024). A 256 px avatar needs far less, and a photo of more pixels rarely fits
 * in the 5 MB an avatar may weigh; an interlaced PNG of that size still costs its decoder ~100 MB.
 */
export const MAX_AVATAR_PIXELS = 25_000_000;

/** The name of the error thrown for a photo above MAX_AVATAR_PIXELS (it crosses the process boundary). */
export const AVATAR_TOO_LARGE = "AvatarTooLarge";

/** The pixels an image's header declares, or null when it has no readable header. Decodes nothing. */
export async function avatarPixelsOf(input: Uint8Array): Promise<number | null> {
  try {
    // No pixel limit for the header alone (sharp's default one would fail a bomb as unreadable).
    const { width, height } = await sharp(input, { limitInputPixels: false }).metadata();
    return width && height ? width * height : null;
  } catch {
    return null;
  }
}

/**
 * Squares and resizes a photo to AVATAR_PIXELS in WebP (metadata such as a GPS position is dropped).
 * Throws an error named AVATAR_TOO_LARGE above MAX_AVATAR_PIXELS (checked from the header, and by
 * sharp's own limit at the same value), another for an image it cannot decode.
 */
export async function resizeAvatar(input: Uint8Array): Promise<Buffer> {
  const pixels = await avatarPixelsOf(input);
  if (pixels !== null && pixels > MAX_AVATAR_PIXELS)
    throw Object.assign(new Error("image trop grande"), { name: AVATAR_TOO_LARGE });
  return sharp(input, { limitInputPixels: MAX_AVATAR_PIXELS })
    .rotate()
    .resize(AVATAR_PIXELS, AVATAR_PIXELS, { fit: "cover" })
    .webp({ quality: 82 })
    .toBuffer();
}
