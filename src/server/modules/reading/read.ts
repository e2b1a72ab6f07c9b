import { extractPages } from "./extract";
import { parseQuote } from "./parse";
import type { Reading, ReadOptions } from "./types";

export { closeOcr } from "./ocr";

/**
 * Reads an uploaded devis: its pages' words (text layer or OCR), then the quote understood from them.
 * Throws ReadingError (French message) when the file cannot be read. Nothing read is logged.
 */
export async function readQuote(data: Uint8Array, options: ReadOptions): Promise<Reading> {
  const started = performance.now();
  const extraction = await extractPages(data, options);
  const result = parseQuote(extraction.pages);
  const pages = extraction.pages.length;
  return {
    kind: extraction.kind,
    pages,
    text: extraction.text,
    result,
    msPerPage: Math.round((performance.now() - started) / Math.max(1, pages)),
  };
}
