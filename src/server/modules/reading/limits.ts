/**
 * What a devis may cost to read, decided before anything is allocated (issue 32): a page larger than
 * MAX_PAGE_POINTS on a side is refused as illisible; every render (the OCR of a scanned page, the
 * preview) is scaled down to fit MAX_RENDER_SIDE and MAX_RENDER_PIXELS; an image whose header
 * declares more than MAX_IMAGE_PIXELS is refused before it is decoded; at most MAX_READ_PAGES pages
 * are read. The time and memory of the whole reading are the sandbox's (sandbox.ts, config).
 */

/**
 * Largest page side in PDF points (72 a inch): 3 000 pt ≈ 106 cm, beyond A1 (2 384 pt). A devis is
 * A4 or Letter; PDF itself allows 14 400 pt.
 */
export const MAX_PAGE_POINTS = 3000;
/** Largest side of a rendered page, in pixels (an A4 page 2 000 px wide is 2 828 px tall). */
export const MAX_RENDER_SIDE = 5000;
/** Most pixels of one render: 10 M (40 MB of RGBA); an A3 page at 200 DPI is 7.7 M. */
export const MAX_RENDER_PIXELS = 10_000_000;
/**
 * Most pixels of an uploaded photo, read from its header: 60 M (a 48 MP phone photo is 8 064 × 6 048).
 * sharp's own default is 268 M.
 */
export const MAX_IMAGE_PIXELS = 60_000_000;
/** Pages read per devis. */
export const MAX_READ_PAGES = 4;

/**
 * The scale (≤ `wanted`) at which a `width` × `height` page (points, or pixels) is rendered: the wanted
 * one, reduced so that neither side exceeds MAX_RENDER_SIDE nor the area MAX_RENDER_PIXELS.
 */
export function fitScale(width: number, height: number, wanted: number): number {
  const w = Math.max(1e-6, width);
  const h = Math.max(1e-6, height);
  return Math.min(wanted, MAX_RENDER_SIDE / w, MAX_RENDER_SIDE / h, Math.sqrt(MAX_RENDER_PIXELS / (w * h)));
}

/** Whether a page box (in points) may be read at all. */
export function pageSizeAllowed(width: number, height: number): boolean {
  return (
    Number.isFinite(width) &&
    Number.isFinite(height) &&
    width > 0 &&
    height > 0 &&
    width <= MAX_PAGE_POINTS &&
    height <= MAX_PAGE_POINTS
  );
}
