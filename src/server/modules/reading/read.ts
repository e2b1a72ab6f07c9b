import { rereadCells } from "./cells";
import { classifyDevis, notADevis } from "./classify";
import { extractPages } from "./extract";
import { parseQuote, type RowLayout } from "./parse";
import type { Reading, ReadOptions } from "./types";

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
  const layout: RowLayout[] = [];
  const first = parseQuote(extraction.pages, { layout });
  // A photo or a scan: its doubtful cells read again (cells.ts).
  const result =
    options.rereadCells !== false && extraction.images?.some(Boolean)
      ? await rereadCells(extraction.pages, extraction.images, first, layout, {
          pageTimeoutMs: options.pageTimeoutMs,
          signal: options.signal,
        })
      : first;
  return {
    kind: extraction.kind,
    pages,
    text: extraction.text,
    result,
    ...(options.classify ? { devis: true } : {}),
    msPerPage: Math.round((performance.now() - started) / Math.max(1, pages)),
  };
}
