import { rereadCells } from "./cells";
import { classifyDevis, notADevis } from "./classify";
import { extractPages } from "./extract";
import { OCR_SECOND_SIZE } from "./image";
import { parseQuote, type RowLayout } from "./parse";
import { fullySupported, readingSupport } from "./support";
import type { Extraction, Reading, ReadOptions } from "./types";

export { closeOcr } from "./ocr";

/**
 * Reads an uploaded devis: its pages' words (text layer or OCR), then the quote understood from them.
 * Throws ReadingError (French message) when the file cannot be read. Nothing read is logged.
 */
export async function readQuote(data: Uint8Array, options: ReadOptions): Promise<Reading> {
  const started = performance.now();
  const extraction = await extractPages(data, options);
  const pages = extraction.pages.length;
  // A photo or a PDF not typed 'Devis' (issue 34): understood only if its words are a devis's.
  if (options.classify && !classifyDevis(extraction.pages).devis)
    return {
      kind: extraction.kind,
      pages,
      text: "",
      result: notADevis(),
      msPerPage: Math.round((performance.now() - started) / Math.max(1, pages)),
      devis: false,
    };
  let result = await understand(extraction, options);
  let read = { kind: extraction.kind, text: extraction.text };
  const ocr = extraction.images?.some(Boolean) ?? false;
  // The prepared images are no longer needed once understood: let them go before a second reading.
  extraction.images = undefined;
  // A photo or a scan that the devis does not bear out in full: read again, its images prepared at
  // another size, and the better borne out reading kept (support.ts; ADR 041, addendum of 29 November).
  if (options.secondReading !== false && ocr && !fullySupported(result)) {
    const again = await extractPages(data, options, OCR_SECOND_SIZE);
    const second = await understand(again, options);
    if (readingSupport(second) > readingSupport(result)) {
      read = { kind: again.kind, text: again.text };
      result = second;
    }
  }
  return {
    kind: read.kind,
    pages,
    text: read.text,
    result,
    ...(options.classify ? { devis: true } : {}),
    msPerPage: Math.round((performance.now() - started) / Math.max(1, pages)),
  };
}

/** The quote understood from the pages' words; on a photo or a scan, its doubtful cells read again (cells.ts). */
async function understand(extraction: Extraction, options: ReadOptions) {
  const layout: RowLayout[] = [];
  const first = parseQuote(extraction.pages, { layout });
  return options.rereadCells !== false && extraction.images?.some(Boolean)
    ? await rereadCells(extraction.pages, extraction.images, first, layout, {
        pageTimeoutMs: options.pageTimeoutMs,
        signal: options.signal,
      })
    : first;
}
