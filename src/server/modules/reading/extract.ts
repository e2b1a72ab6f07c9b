import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { prepareForOcr } from "./image";
import { MAX_READ_PAGES } from "./limits";
import { recognizePageDetailed } from "./ocr";
import { readPdf } from "./pdf";
import { type Extraction, type PageWords, ReadingError, type ReadOptions, type Word } from "./types";

/**
 * From the uploaded file's bytes to its pages' words: the type is sniffed from the content (the declared
 * mime is not trusted); a PDF is read by pdf.ts (text layer, or OCR for scanned pages); a JPEG or PNG is
 * cleaned up (image.ts) then read by OCR (ocr.ts). Anything else is refused.
 */

export const DEFAULT_MAX_PAGES = MAX_READ_PAGES;

export type SniffedType = "pdf" | "jpeg" | "png";

/** The file's real type from its first bytes, or null. A PDF's header may follow some junk (≤ 1 KB). */
export function sniffType(data: Uint8Array): SniffedType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  if (
    data.length >= 8 &&
    data[0] === 0x89 &&
    data[1] === 0x50 &&
    data[2] === 0x4e &&
    data[3] === 0x47 &&
    data[4] === 0x0d &&
    data[5] === 0x0a &&
    data[6] === 0x1a &&
    data[7] === 0x0a
  ) {
    return "png";
  }
  const head = Buffer.from(data.subarray(0, 1024)).toString("latin1");
  if (head.includes("%PDF-")) return "pdf";
  return null;
}

/** The pages' text, line by line: words grouped into rows by their vertical centre, in reading order. */
export function pagesText(pages: PageWords[]): string {
  return pages.map((page) => linesOf(page.words).join("\n")).join("\f");
}

function linesOf(words: Word[]): string[] {
  const sorted = [...words].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const rows: Word[][] = [];
  for (const word of sorted) {
    const centre = word.y + word.height / 2;
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (
      row &&
      first &&
      Math.abs(first.y + first.height / 2 - centre) <= Math.max(first.height, word.height) * 0.5
    ) {
      row.push(word);
    } else {
      rows.push([word]);
    }
  }
  return rows.map((row) =>
    row
      .sort((a, b) => a.x - b.x)
      .map((word) => word.text)
      .join(" "),
  );
}

export async function extractPages(
  data: Uint8Array,
  options: ReadOptions,
  /** The long side of the images prepared for OCR (image.ts prepareForOcr), when not the default. */
  size: { minSide: number; maxSide: number } | Record<string, never> = {},
): Promise<Extraction> {
  const type = sniffType(data);
  if (!type) throw new ReadingError(READING_MESSAGES.unreadableFile);
  const ocr = { pageTimeoutMs: options.pageTimeoutMs, signal: options.signal };
  if (type === "pdf") {
    const { kind, pages, images } = await readPdf(data, {
      ...ocr,
      maxPages: Math.min(MAX_READ_PAGES, options.maxPages ?? DEFAULT_MAX_PAGES),
      prepareScan: (rendered) => prepareForOcr(rendered, size),
    });
    return { kind, pages, text: pagesText(pages), images };
  }
  const prepared = await prepareForOcr(data, size);
  const { words, rotateRadians } = await recognizePageDetailed(prepared.image, ocr);
  const pages: PageWords[] = [
    { page: 1, width: prepared.width, height: prepared.height, words, source: "ocr" },
  ];
  return { kind: "image", pages, text: pagesText(pages), images: [{ ...prepared, rotateRadians }] };
}
