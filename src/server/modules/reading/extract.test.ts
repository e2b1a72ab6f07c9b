import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { pdfOf, pngChunk } from "../../sample-files";
import { expectError } from "../../testing/errors";
import { extractPages, sniffType } from "./extract";
import { closeOcr } from "./ocr";
import { renderPreview } from "./preview";
import { ReadingError, type Word } from "./types";

/** A one-page devis table drawn with pdf-lib: text at known positions (PDF points, bottom-left origin). */
const COLUMNS = [40, 80, 150, 330, 380, 460, 520];
const ROWS = [
  ["Dent", "Code", "Acte", "Panier", "Honoraires", "BR", "AMO"],
  ["16", "HBLD634", "Couronne céramo-métallique", "2", "1 175,00 €", "120,00 €", "72,00 €"],
  // A no-break space (U+00A0) as the thousands separator.
  ["21", "HBLD350", "Inlay-core", "1", "1\u00a0250,00 €", "90,00 €", "54,00 €"],
];
const ROW_BASELINE = (index: number) => 700 - index * 24;

async function devisPdf(options: { size?: number } = {}): Promise<Uint8Array> {
  const size = options.size ?? 10;
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText("Cabinet dentaire du Parc", { x: 40, y: 790, size: 14, font });
  page.drawText("Patient : Jean Dupont", { x: 40, y: 770, size: 12, font });
  ROWS.forEach((row, index) => {
    row.forEach((cell, column) => {
      page.drawText(cell, { x: COLUMNS[column] ?? 0, y: ROW_BASELINE(index), size, font });
    });
  });
  page.drawText("Total 2 425,00 €", { x: 40, y: 600, size, font });
  return doc.save();
}

/** A PDF whose only page is an image (a scan): the text devis rendered to PNG, then embedded. */
async function scannedPdf(png: Buffer): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const image = await doc.embedPng(png);
  page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return doc.save();
}

function find(words: Word[], text: string): Word {
  const word = words.find((w) => w.text === text);
  if (!word) throw new Error(`word not found: ${text} in ${words.map((w) => w.text).join(" ")}`);
  return word;
}

const expectReadingError = (promise: Promise<unknown>, message: string) =>
  expectError(promise, ReadingError, message);

/** A tiny PNG claiming 60 000 × 60 000 pixels (3.6 gigapixels): a decompression bomb's header. */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PDF whose trailer asks for a password (standard security handler, unknown user password). */
function encryptedPdf(): Buffer {
  return pdfOf(
    [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
      `<< /Filter /Standard /V 1 /R 2 /O <${"ab".repeat(32)}> /U <${"cd".repeat(32)}> /P -4 >>`,
    ],
    ` /Encrypt 4 0 R /ID [<${"01".repeat(16)}> <${"01".repeat(16)}>]`,
  );
}

let textPdf: Uint8Array;
/** The text devis as an upright 1240 px wide PNG, as a scanner would give it. */
let pagePng: Buffer;

beforeAll(async () => {
  textPdf = await devisPdf();
  pagePng = await renderPreview(textPdf, "application/pdf", 1, 1240);
});

afterAll(async () => {
  await closeOcr();
});

describe("sniffType", () => {
  it("recognises PDF, JPEG and PNG by their first bytes, not by their name", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    expect(sniffType(textPdf)).toBe("pdf");
    expect(sniffType(pagePng)).toBe("png");
    expect(sniffType(jpeg)).toBe("jpeg");
    expect(sniffType(Buffer.from("MZ\x90\x00 not a document"))).toBeNull();
    expect(sniffType(new Uint8Array())).toBeNull();
  });
});

describe("extractPages: text PDF", () => {
  it("gives each word with its position, top-left origin, and the page's lines as text", async () => {
    const extraction = await extractPages(textPdf, { mime: "application/pdf" });
    expect(extraction.kind).toBe("text_pdf");
    expect(extraction.pages).toHaveLength(1);
    const [page] = extraction.pages;
    if (!page) throw new Error("no page");
    expect(page).toMatchObject({ page: 1, width: 595, height: 842, source: "text" });

    // "HBLD634" drawn at x = 80, baseline y = 676 from the bottom (size 10): top ≈ 842 − 676 − 8.
    const code = find(page.words, "HBLD634");
    expect(code.x).toBeCloseTo(80, 0);
    expect(code.y).toBeCloseTo(842 - ROW_BASELINE(1) - 8, 0);
    expect(code.height).toBeCloseTo(10, 0);
    expect(code.confidence).toBe(100);

    // Words of one drawn string split on spaces, x growing, widths proportional to characters.
    const row = page.words.filter((w) => Math.abs(w.y - code.y) < 1);
    expect(row.map((w) => w.text)).toEqual([
      "16",
      "HBLD634",
      "Couronne",
      "céramo-métallique",
      "2",
      "1",
      "175,00",
      "€",
      "120,00",
      "€",
      "72,00",
      "€",
    ]);
    const [one, amount] = [row[5], row[6]] as [Word, Word];
    expect(one.x).toBeCloseTo(380, 0);
    expect(amount.x).toBeGreaterThan(one.x + one.width);
    expect(amount.x).toBeLessThan(460);

    // The no-break space separates words too.
    const next = page.words.filter((w) => Math.abs(w.y - (842 - ROW_BASELINE(2) - 8)) < 1).map((w) => w.text);
    expect(next).toContain("250,00");
    expect(next).not.toContain("1\u00a0250,00");
    for (const word of page.words) expect(word.text).not.toMatch(/[\s\u00a0\u202f]/);

    expect(extraction.text.split("\n")).toEqual([
      "Cabinet dentaire du Parc",
      "Patient : Jean Dupont",
      "Dent Code Acte Panier Honoraires BR AMO",
      "16 HBLD634 Couronne céramo-métallique 2 1 175,00 € 120,00 € 72,00 €",
      "21 HBLD350 Inlay-core 1 1 250,00 € 90,00 € 54,00 €",
      "Total 2 425,00 €",
    ]);
  });

  it("reads at most maxPages pages", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let index = 1; index <= 3; index += 1) {
      doc
        .addPage([595, 842])
        .drawText(`Page numéro ${index} du devis dentaire`, { x: 40, y: 800, size: 12, font });
    }
    const extraction = await extractPages(await doc.save(), { mime: "application/pdf", maxPages: 2 });
    expect(extraction.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(extraction.text.split("\f")).toEqual([
      "Page numéro 1 du devis dentaire",
      "Page numéro 2 du devis dentaire",
    ]);
  });

  it("refuses a damaged or password-protected PDF with the French message", async () => {
    await expectReadingError(
      extractPages(Buffer.from("%PDF-1.7\n1 0 obj garbage"), { mime: "application/pdf" }),
      READING_MESSAGES.damaged,
    );
    await expectReadingError(
      extractPages(textPdf.slice(0, 200), { mime: "application/pdf" }),
      READING_MESSAGES.damaged,
    );
    await expectReadingError(
      extractPages(encryptedPdf(), { mime: "application/pdf" }),
      READING_MESSAGES.damaged,
    );
  });

  it("refuses what is neither PDF, JPEG nor PNG, whatever the declared type", async () => {
    await expectReadingError(
      extractPages(Buffer.from("GIF89a not really"), { mime: "image/png" }),
      READING_MESSAGES.unreadableFile,
    );
    await expectReadingError(
      extractPages(new Uint8Array(0), { mime: "application/pdf" }),
      READING_MESSAGES.unreadableFile,
    );
  });
});

describe("extractPages: OCR", () => {
  it("reads a PDF page without text (a scan) by OCR", async () => {
    const extraction = await extractPages(await scannedPdf(pagePng), { mime: "application/pdf" });
    expect(extraction.kind).toBe("scanned_pdf");
    const [page] = extraction.pages;
    if (!page) throw new Error("no page");
    expect(page.source).toBe("ocr");
    // Rendered at 200 DPI: an A4 page is about 1654 × 2339 pixels, within the 2500 px of the clean-up.
    expect(Math.max(page.width, page.height)).toBeLessThanOrEqual(2500);
    expect(page.height).toBeGreaterThan(page.width);
    const code = find(page.words, "HBLD634");
    const tooth = find(page.words, "16");
    // Same row, left to right, at the proportion of the page where it was drawn.
    expect(Math.abs(code.y - tooth.y)).toBeLessThan(code.height);
    expect(tooth.x).toBeLessThan(code.x);
    expect(code.x / page.width).toBeCloseTo(80 / 595, 1);
    expect(code.y / page.height).toBeCloseTo((842 - ROW_BASELINE(1) - 8) / 842, 1);
    expect(extraction.text).toContain("HBLD350");
  });

  it("reads a JPEG photo stored sideways with EXIF orientation 6 upright", async () => {
    // Orientation 6: the stored pixels must be turned 90° clockwise to be seen upright.
    const sideways = await sharp(pagePng)
      .rotate(-90)
      .jpeg({ quality: 85 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const stored = await sharp(sideways).metadata();
    expect(stored.width).toBeGreaterThan(stored.height ?? 0);

    // Declared as a PNG: the content decides.
    const extraction = await extractPages(sideways, { mime: "image/png" });
    expect(extraction.kind).toBe("image");
    const [page] = extraction.pages;
    if (!page) throw new Error("no page");
    expect(page.height).toBeGreaterThan(page.width);
    const code = find(page.words, "HBLD634");
    const fee = page.words.find((w) => w.text === "120,00");
    expect(fee).toBeDefined();
    expect(Math.abs((fee?.y ?? 0) - code.y)).toBeLessThan(code.height);
    expect(fee?.x ?? 0).toBeGreaterThan(code.x);
    expect(code.confidence).toBeGreaterThan(50);
  });

  it("refuses a decompression bomb and an undecodable image as damaged", async () => {
    await expectReadingError(extractPages(bombPng(), { mime: "image/png" }), READING_MESSAGES.damaged);
    const truncated = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);
    await expectReadingError(extractPages(truncated, { mime: "image/jpeg" }), READING_MESSAGES.damaged);
  });
});
