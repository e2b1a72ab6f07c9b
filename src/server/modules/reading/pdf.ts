import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { fitScale, MAX_RENDER_SIDE, pageSizeAllowed } from "./limits";
import { type OcrOptions, recognizePageDetailed } from "./ocr";
import { createPdfjsCanvas, loadPdfJs, type PdfJs, pdfjsFolder } from "./pdfjs";
import { type OcrPageImage, type PageWords, ReadingError, type RenderedPixels, type Word } from "./types";

/**
 * Reading a PDF with pdf.js (legacy build, the one meant for Node): its text layer as positioned words, or,
 * for a page without text (a scan), the page rendered to an image and read by OCR. pdf.js runs in this
 * process ("fake worker"), never fetches anything (fonts, CMaps and wasm come from node_modules) and
 * prints nothing (verbosity 0).
 */

type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;
export type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;

/** A page with fewer text characters than this is a scan: it is rendered and read by OCR. */
export const SCANNED_PAGE_MAX_CHARS = 20;
/** Rendering resolution for OCR of a scanned page (72 points an inch). */
const SCAN_DPI = 200;

/** Opens a PDF; a damaged or password-protected file throws ReadingError(damaged). */
export async function openPdf(data: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: pdfjsFolder("standard_fonts"),
    cMapUrl: pdfjsFolder("cmaps"),
    cMapPacked: true,
    wasmUrl: pdfjsFolder("wasm"),
    iccUrl: pdfjsFolder("iccs"),
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch {
    await task.destroy().catch(() => {});
    throw new ReadingError(READING_MESSAGES.damaged);
  }
}

/**
 * Page `pageNumber`, refused as illisible when its box (UserUnit included) is larger than
 * MAX_PAGE_POINTS on a side: nothing of it is drawn or rendered then.
 */
async function getPage(doc: PdfDocument, pageNumber: number): Promise<PdfPage> {
  let page: PdfPage;
  try {
    page = await doc.getPage(pageNumber);
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
  const { width, height } = page.getViewport({ scale: 1 });
  if (!pageSizeAllowed(width, height)) {
    page.cleanup();
    throw new ReadingError(READING_MESSAGES.damaged);
  }
  return page;
}

const SPACE = /[\s\u00a0\u202f\u2007\u2009]/;

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

function isTextItem(item: unknown): item is TextItemLike {
  return typeof (item as TextItemLike).str === "string" && Array.isArray((item as TextItemLike).transform);
}

/** The words of a page's text layer, in points with the origin at the page's top-left corner. */
export async function pageTextWords(
  page: PdfPage,
): Promise<{ words: Word[]; width: number; height: number }> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: Word[] = [];
  for (const item of content.items) {
    if (!isTextItem(item) || item.str.length === 0) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
    const fontSize = Math.hypot(c, d) || Math.hypot(a, b) || item.height || 10;
    const chars = [...item.str];
    const charWidth = item.width / Math.max(1, chars.length);
    // Direction of the text run (unit vector along the baseline), for the rare rotated item.
    const runLength = Math.hypot(a, b) || 1;
    const ux = a / runLength;
    const uy = b / runLength;
    let index = 0;
    while (index < chars.length) {
      if (SPACE.test(chars[index] ?? "")) {
        index += 1;
        continue;
      }
      const start = index;
      while (index < chars.length && !SPACE.test(chars[index] ?? "")) index += 1;
      const text = chars.slice(start, index).join("");
      // Start and end of the word on the baseline, in PDF space, then in the viewport (top-left origin).
      const [x0, y0] = viewport.convertToViewportPoint(
        e + ux * charWidth * start,
        f + uy * charWidth * start,
      );
      const [x1, y1] = viewport.convertToViewportPoint(
        e + ux * charWidth * index,
        f + uy * charWidth * index,
      );
      const left = Math.min(x0 ?? 0, x1 ?? 0);
      const baseline = Math.max(y0 ?? 0, y1 ?? 0);
      const width = Math.max(Math.abs((x1 ?? 0) - (x0 ?? 0)), charWidth * 0.5);
      words.push({
        text,
        x: left,
        // Ascent ≈ 0.8 of the font size above the baseline, descent ≈ 0.2 below.
        y: baseline - fontSize * 0.8,
        width,
        height: fontSize,
        confidence: 100,
      });
    }
  }
  return { words, width: viewport.width, height: viewport.height };
}

/**
 * Draws a page on a white canvas at `scale` (1 = 72 DPI), or smaller: the canvas fits MAX_RENDER_SIDE
 * and MAX_RENDER_PIXELS (limits.ts), decided from the page box before the canvas is made.
 */
async function drawPage(page: PdfPage, scale: number) {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: fitScale(base.width, base.height, scale) });
  const width = Math.min(MAX_RENDER_SIDE, Math.max(1, Math.round(viewport.width)));
  const height = Math.min(MAX_RENDER_SIDE, Math.max(1, Math.round(viewport.height)));
  const canvas = createPdfjsCanvas(width, height);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, width, height);
  try {
    await page.render({
      canvasContext: context as unknown as CanvasRenderingContext2D,
      canvas: canvas as unknown as HTMLCanvasElement,
      viewport,
    }).promise;
  } catch {
    throw new ReadingError(READING_MESSAGES.damaged);
  }
  return { canvas, context, width, height };
}

/** Renders a page to a PNG (drawPage): the previews. */
export async function renderPagePng(page: PdfPage, scale: number): Promise<Buffer> {
  const { canvas } = await drawPage(page, scale);
  return canvas.encode("png");
}

/**
 * Renders a page to its pixels (drawPage), for OCR: the image is prepared from them directly, without
 * a PNG encoded and decoded again on the way (~0.2 s of CPU a page at SCAN_DPI; the same pixels).
 */
export async function renderPagePixels(page: PdfPage, scale: number): Promise<RenderedPixels> {
  const { context, width, height } = await drawPage(page, scale);
  const { data } = context.getImageData(0, 0, width, height);
  return { pixels: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height };
}

export interface PdfReadOptions extends OcrOptions {
  maxPages: number;
  /** Cleans up a rendered scan before OCR (image.ts), injected to keep pdf.ts free of sharp. */
  prepareScan: (page: RenderedPixels) => Promise<{ image: Buffer; width: number; height: number }>;
}

/**
 * Reads up to `maxPages` pages of a PDF. A page with a text layer gives its words; a page with (almost) no
 * text is rendered at SCAN_DPI and read by OCR. The kind is 'scanned_pdf' when any page needed OCR.
 */
export async function readPdf(
  data: Uint8Array,
  options: PdfReadOptions,
): Promise<{ kind: "text_pdf" | "scanned_pdf"; pages: PageWords[]; images: (OcrPageImage | undefined)[] }> {
  const doc = await openPdf(data);
  try {
    const count = Math.min(doc.numPages, Math.max(1, options.maxPages));
    const pages: PageWords[] = [];
    /** The prepared image of each page read by OCR (by the page's index in `pages`). */
    const images: (OcrPageImage | undefined)[] = [];
    let scanned = false;
    for (let pageNumber = 1; pageNumber <= count; pageNumber += 1) {
      options.signal?.throwIfAborted();
      const page = await getPage(doc, pageNumber);
      try {
        const text = await pageTextWords(page).catch(() => {
          throw new ReadingError(READING_MESSAGES.damaged);
        });
        const chars = text.words.reduce((sum, word) => sum + word.text.length, 0);
        if (chars >= SCANNED_PAGE_MAX_CHARS) {
          pages.push({
            page: pageNumber,
            width: text.width,
            height: text.height,
            words: text.words,
            source: "text",
          });
          continue;
        }
        scanned = true;
        const prepared = await options.prepareScan(await renderPagePixels(page, SCAN_DPI / 72));
        const { words, rotateRadians } = await recognizePageDetailed(prepared.image, options);
        images[pages.length] = { ...prepared, rotateRadians };
        pages.push({
          page: pageNumber,
          width: prepared.width,
          height: prepared.height,
          words,
          source: "ocr",
        });
      } finally {
        page.cleanup();
      }
    }
    return { kind: scanned ? "scanned_pdf" : "text_pdf", pages, images };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** The number of pages of a PDF (damaged → ReadingError). */
export async function pdfPageCount(data: Uint8Array): Promise<number> {
  const doc = await openPdf(data);
  try {
    return doc.numPages;
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** Renders page `pageNumber` (1-based) of a PDF to a PNG `width` pixels wide. */
export async function renderPdfPage(data: Uint8Array, pageNumber: number, width: number): Promise<Buffer> {
  const doc = await openPdf(data);
  try {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
      throw new ReadingError(READING_MESSAGES.readingNotFound);
    }
    const page = await getPage(doc, pageNumber);
    try {
      const base = page.getViewport({ scale: 1 });
      return await renderPagePng(page, width / base.width);
    } finally {
      page.cleanup();
    }
  } finally {
    await doc.destroy().catch(() => {});
  }
}
