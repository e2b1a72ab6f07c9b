import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { sniffType } from "./extract";
import { previewImage } from "./image";
import { renderPdfPage } from "./pdf";
import { ReadingError } from "./types";

/** Widest preview we render (pixels). */
export const MAX_PREVIEW_WIDTH = 2000;

/**
 * A PNG of page `page` (1-based) of the devis, `width` pixels wide, for the review screen: a PDF page
 * rendered by pdf.js, or the photo turned upright and resized (in colour: the patient sees their document).
 * The type is sniffed from the bytes; `mime` is only a fallback hint. A page out of range → ReadingError.
 */
export async function renderPreview(
  data: Uint8Array,
  mime: string,
  page: number,
  width = 1000,
): Promise<Buffer> {
  const size = Math.min(MAX_PREVIEW_WIDTH, Math.max(100, Math.round(width)));
  const type = sniffType(data) ?? (mime === "application/pdf" ? "pdf" : null);
  if (!type) throw new ReadingError(READING_MESSAGES.unreadableFile);
  if (type === "pdf") return renderPdfPage(data, page, size);
  if (page !== 1) throw new ReadingError(READING_MESSAGES.readingNotFound);
  return previewImage(data, size);
}
