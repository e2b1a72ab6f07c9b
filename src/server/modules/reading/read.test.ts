import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { devisPdf, devisPhoto, makeDevis, scoreReading } from "../../testing/devis-corpus";
import { ocrPoolState } from "./ocr";
import { closeOcr, readQuote } from "./read";
import { ReadingError } from "./types";

afterAll(async () => {
  await closeOcr();
});

describe("readQuote", () => {
  it("reads a text PDF devis: its kind, its pages, its text and its lines", async () => {
    const devis = makeDevis(4);
    const reading = await readQuote(await devisPdf(devis), { mime: "application/pdf" });
    expect(reading.kind).toBe("text_pdf");
    expect(reading.pages).toBe(1);
    expect(reading.msPerPage).toBeGreaterThanOrEqual(0);
    for (const line of devis.lines) expect(reading.text).toContain(line.code);
    const score = scoreReading(devis, reading.result);
    expect(score.wrong).toEqual([]);
    expect(reading.result.lines).toHaveLength(devis.lines.length);
  });

  it("reads a text PDF whose lines name their own fields, its first act line too, each figure by its name", async () => {
    // No table: one act a line, drawn as one text, as a word processor prints it. Each line names a
    // tooth, a fee and a BR as a header would; the figures stand wherever their names end.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    [
      "Devis pour traitement bucco-dentaire",
      "Dr Anne Leroy - Chirurgien-dentiste - 69003 Lyon",
      "Patient : Marc Petit",
      "Date : 03/02/2026",
      "Dent 17 - HBLD038 - Couronne zircone - Honoraires 1 080,00 EUR - BR 107,50 EUR",
      "Dent 24 - HBLD073 - Couronne transitoire - Honoraires 60,00 EUR - BR 10,00 EUR",
      "Dent 45 - HBLD491 - Onlay - Honoraires 395,00 EUR - BR 100,00 EUR",
      "Dent 26 - HBLD038 - Couronne zircone - Honoraires 1 080,00 EUR - BR 107,50 EUR",
      "Total honoraires : 2 615,00 EUR",
    ].forEach((text, k) => {
      page.drawText(text, { x: 40, y: 790 - k * 14, size: 9, font });
    });
    const reading = await readQuote(await doc.save(), { mime: "application/pdf" });
    expect(reading.result.lines.map((l) => [l.tooth, l.code, l.fee_cents, l.br_cents])).toEqual([
      [17, "HBLD038", 1_080_00, 107_50],
      [24, "HBLD073", 60_00, 10_00],
      [45, "HBLD491", 395_00, 100_00],
      [26, "HBLD038", 1_080_00, 107_50],
    ]);
    expect(reading.result.lines.every((l) => !l.filled?.includes("br_cents"))).toBe(true);
    expect(reading.result.total_matches).toBe(true);
  });

  it("reads a photo of a devis by OCR", async () => {
    const devis = makeDevis(4);
    const reading = await readQuote(await devisPhoto(devis), { mime: "image/jpeg" });
    expect(reading.kind).toBe("image");
    expect(reading.pages).toBe(1);
    const score = scoreReading(devis, reading.result);
    expect(score.linesExact).toBeGreaterThanOrEqual(devis.lines.length - 1);
  });

  it("reads a photo a second time, prepared at another size, when the devis does not bear out its reading", async () => {
    // A photo with no table: nothing to bear out, so it is worth a second look (support.ts).
    const blank = await sharp({ create: { width: 1200, height: 1700, channels: 3, background: "#f4f1ea" } })
      .jpeg()
      .toBuffer();
    const pagesRead = async (secondReading: boolean) => {
      const before = ocrPoolState().recognitions;
      const reading = await readQuote(blank, { mime: "image/jpeg", secondReading });
      expect(reading.result.lines).toEqual([]);
      return ocrPoolState().recognitions - before;
    };
    expect(await pagesRead(false)).toBe(1);
    expect(await pagesRead(true)).toBe(2);
  });

  it("throws ReadingError with the French message for a file it cannot read", async () => {
    const error = await readQuote(Buffer.from("PK\u0003\u0004 a zip, not a devis"), {
      mime: "application/pdf",
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadingError);
    expect((error as Error).message).toBe(READING_MESSAGES.unreadableFile);
  });
});
