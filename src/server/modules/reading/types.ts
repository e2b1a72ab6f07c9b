import type { ReadingKind, ReadResult } from "../../../shared/schemas/reading";

/**
 * The contract between extracting a page's words (PDF text layer or OCR, `extract.ts`) and
 * understanding the devis (`parse.ts`). Coordinates: origin at the page's top-left corner, y growing
 * downwards, in the page's own unit (PDF points or image pixels); `y` is the top of the word's box.
 */
export interface Word {
  /** One word: never contains whitespace ("1 175,00 €" is three words: "1", "175,00", "€"). */
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–100: OCR's confidence; 100 for a PDF's text layer. */
  confidence: number;
}

export interface PageWords {
  /** 1-based. */
  page: number;
  width: number;
  height: number;
  words: Word[];
  source: "text" | "ocr";
}

/** A page rendered from a PDF, as pixels: RGBA, 8 bits a channel, opaque (drawn on white). */
export interface RenderedPixels {
  pixels: Buffer;
  width: number;
  height: number;
}

/** A prepared page as OCR read it: the PNG its words' boxes stand on, and the angle tesseract turned it by. */
export interface OcrPageImage {
  image: Buffer;
  width: number;
  height: number;
  rotateRadians: number;
}

/** A document read: its kind, its pages' words and raw text (stored encrypted, never logged). */
export interface Extraction {
  kind: ReadingKind;
  pages: PageWords[];
  /** The prepared image of each page read by OCR, by its index in `pages` (cells.ts reads cells again). */
  images?: (OcrPageImage | undefined)[];
  /** The pages' text, line by line, pages separated by a form feed. */
  text: string;
}

/** `parse.ts` exports `parseQuote(pages: PageWords[]): ReadResult`. */
export type ParseQuote = (pages: PageWords[]) => ReadResult;

/**
 * `read.ts` exports `readQuote(input, options): Promise<Reading>`: extraction then parsing.
 * Throws `ReadingError` (message in French, from READING_MESSAGES) when the file cannot be read.
 */
export interface Reading {
  kind: ReadingKind;
  pages: number;
  text: string;
  result: ReadResult;
  /** Milliseconds spent per page (for the bench). */
  msPerPage: number;
  /**
   * With `classify` (issue 34): whether the document was recognised as a devis. When false, nothing
   * was understood from it: `result` has no line and `text` is empty.
   */
  devis?: boolean;
}

export interface ReadOptions {
  mime: "application/pdf" | "image/jpeg" | "image/png";
  /** At most this many pages are read (default 4). */
  maxPages?: number;
  /** Time limit per page in ms (default 20 000); past it the reading fails with READING_MESSAGES.timeout. */
  pageTimeoutMs?: number;
  signal?: AbortSignal;
  /**
   * A document not typed 'Devis' (issue 34): its words are first checked for a devis (classify.ts),
   * and it is understood only if they look like one.
   */
  classify?: boolean;
  /** Read again the doubtful cells of the table of a photo or scan (cells.ts); default true. */
  rereadCells?: boolean;
  /**
   * Read a photo or scan a second time, its image prepared at another size, when the devis does not
   * bear out its first reading in full, and keep the better borne out (support.ts); default true.
   */
  secondReading?: boolean;
}

export class ReadingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReadingError";
  }
}
