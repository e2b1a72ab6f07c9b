import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ACTS, actByCode, actFitsTooth, ceilingOn, termsOn } from "../../shared/domain/acts";
import type { ReadResult } from "../../shared/schemas/reading";
import {
  type CorpusDevis,
  devisPdf,
  devisPhoto,
  devisScan,
  FREE_ACTS,
  formatAmount,
  makeDevis,
  scoreReading,
  sumScores,
} from "./devis-corpus";

const require = createRequire(import.meta.url);
const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);
const corpus = SEEDS.map(makeDevis);

/** The text of a PDF's first page through pdf.js, items joined by spaces. */
async function pdfText(data: Uint8Array): Promise<string> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  pdfjs.GlobalWorkerOptions.workerSrc ||= require.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs");
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(data),
    verbosity: 0,
    isEvalSupported: false,
    standardFontDataUrl: `${path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts")}/`,
  }).promise;
  try {
    const content = await (await doc.getPage(1)).getTextContent();
    return content.items.map((item) => ("str" in item ? item.str : "")).join(" ");
  } finally {
    await doc.destroy();
  }
}

function perfectResult(d: CorpusDevis): ReadResult {
  return {
    lines: d.lines.map((line) => ({ ...line, uncertain: [] })),
    total_cents: d.total_cents,
    lines_total_cents: d.total_cents,
    total_matches: true,
    patient_name: d.patient_name,
    practitioner_name: d.practitioner_name,
    practitioner_number: d.practitioner_number,
    confidence: 1,
  };
}

describe("devis corpus", () => {
  it("is deterministic: the same seed gives the same devis and the same PDF bytes", async () => {
    expect(makeDevis(42)).toEqual(makeDevis(42));
    expect(makeDevis(42)).not.toEqual(makeDevis(43));
    const [a, b] = await Promise.all([devisPdf(makeDevis(42)), devisPdf(makeDevis(42))]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("draws 1 to 8 lines, each count and each variant somewhere in the seeds", () => {
    const counts = new Set(corpus.map((d) => d.lines.length));
    expect([...counts].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const variants = (pick: (d: CorpusDevis) => unknown) => new Set(corpus.map(pick)).size;
    expect(variants((d) => d.layout.font)).toBe(3);
    expect(variants((d) => d.layout.thousands)).toBe(3);
    expect(variants((d) => d.layout.basketStyle)).toBe(2);
    expect(variants((d) => d.layout.zeroStyle)).toBe(3);
    expect(variants((d) => d.layout.twoLineHeader)).toBe(2);
    expect(variants((d) => d.practitioner_number.kind)).toBe(2);
    expect(variants((d) => d.layout.drawOrder)).toBe(2);
    expect(variants((d) => d.layout.glyphByGlyph)).toBe(2);
    expect(variants((d) => d.layout.rules)).toBe(3);
    for (const column of ["tooth", "code", "act", "basket", "fee", "br", "amo"] as const)
      expect(variants((d) => d.layout.headers[column])).toBeGreaterThan(1);
    // Free lines (codes outside the table), arch acts and implants with no BR all occur.
    const lines = corpus.flatMap((d) => d.lines);
    expect(lines.some((l) => !actByCode(l.code))).toBe(true);
    expect(lines.some((l) => l.tooth === null)).toBe(true);
    expect(lines.some((l) => l.br_cents === 0)).toBe(true);
    expect(lines.some((l) => l.fee_cents % 100 !== 0)).toBe(true);
    expect(lines.some((l) => l.fee_cents >= 1000_00)).toBe(true);
  });

  it("keeps fees at or under the ceiling of the day for 100 % Santé and maîtrisé acts, libre ones 300–2 500 €", () => {
    for (const d of corpus)
      for (const line of d.lines) {
        expect(line.fee_cents).toBeGreaterThan(0);
        const act = actByCode(line.code);
        if (!act) {
          expect(FREE_ACTS.map((a) => a.code)).toContain(line.code);
          expect(line.basket).toBe("libre");
          continue;
        }
        const terms = termsOn(act.code, d.day, line.tooth);
        expect(line.basket).toBe(terms?.basket);
        expect(line.br_cents).toBe(terms?.brCents);
        expect(line.act).toBe(act.label);
        expect(actFitsTooth(act, line.tooth)).toBe(true);
        if (act.teeth === "arch") expect(line.tooth).toBeNull();
        else expect(line.tooth).not.toBeNull();
        if (terms?.basket === "libre") {
          expect(line.fee_cents).toBeGreaterThanOrEqual(300_00);
          expect(line.fee_cents).toBeLessThanOrEqual(2500_99);
        } else {
          const ceiling = ceilingOn(act.code, d.day, line.tooth);
          expect(ceiling).not.toBeNull();
          expect(line.fee_cents).toBeLessThanOrEqual(ceiling as number);
        }
      }
    // Every act of the table shows up.
    const codes = new Set(corpus.flatMap((d) => d.lines.map((l) => l.code)));
    for (const act of ACTS) expect(codes).toContain(act.code);
  });

  it("gives AMO = 60 % of the BR, rounded to the cent, and a total that is the sum of the fees", () => {
    for (const d of corpus) {
      for (const line of d.lines) expect(line.amo_cents).toBe(Math.round(line.br_cents * 0.6));
      expect(d.total_cents).toBe(d.lines.reduce((s, l) => s + l.fee_cents, 0));
    }
  });

  it("fits every devis of the seeds on its A4 page (devisPdf refuses content running off it)", async () => {
    for (const d of corpus.slice(0, 150)) {
      const pdf = await devisPdf(d);
      expect(pdf.length).toBeGreaterThan(1000);
    }
  });

  it("formats amounts the French way", () => {
    expect(formatAmount(125000, " ", true)).toBe("1 250,00 €");
    expect(formatAmount(125000, "\u00a0", false)).toBe("1\u00a0250,00");
    expect(formatAmount(7170, "\u202f", true)).toBe("71,70 €");
    expect(formatAmount(1234567, "\u202f", false)).toBe("12\u202f345,67");
  });

  it("prints every code, fee and the patient in the PDF's text layer", async () => {
    // Seeds with every variant of the text layer (glyph by glyph, column order, thin spaces).
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 18]) {
      const d = makeDevis(seed);
      const text = await pdfText(await devisPdf(d));
      // Some devis draw each glyph on its own: compare without the spaces.
      const compact = text.replace(/[\s\u00a0\u202f]/g, "");
      const squeeze = (s: string) => s.replace(/[\s\u00a0\u202f]/g, "");
      for (const line of d.lines) {
        expect(compact).toContain(line.code);
        expect(compact).toContain(squeeze(formatAmount(line.fee_cents, " ", false)));
      }
      expect(compact).toContain(squeeze(d.patient_name));
      expect(compact).toContain(d.practitioner_number.value);
      for (const header of Object.values(d.layout.headers))
        for (const word of header.split(" ")) expect(compact).toContain(word);
    }
  });

  it("makes a photo-like JPEG and a scanned PDF with no text layer", async () => {
    const d = makeDevis(3);
    const jpeg = await devisPhoto(d, 3);
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe("jpeg");
    // A4 at 150–200 DPI, a little larger once rotated.
    expect(meta.width).toBeGreaterThan(1200);
    expect(meta.width).toBeLessThan(1900);
    expect((meta.height ?? 0) / (meta.width ?? 1)).toBeGreaterThan(1.25);
    // Same seed, same photo (a test can rely on what it read last time).
    expect(jpeg.equals(await devisPhoto(d, 3))).toBe(true);
    const scan = await devisScan(d, 3);
    expect(Buffer.from(scan.slice(0, 5)).toString()).toBe("%PDF-");
    expect((await pdfText(scan)).trim()).toBe("");
  });

  it("scores a perfect reading 100 %", () => {
    for (const d of corpus.slice(0, 20)) {
      const score = scoreReading(d, perfectResult(d));
      expect(score).toEqual({
        expectedLines: d.lines.length,
        linesExact: d.lines.length,
        fieldsRight: d.lines.length * 6,
        fieldsTotal: d.lines.length * 6,
        wrong: [],
      });
    }
  });

  it("scores a broken reading: a wrong field, a missing line and an extra line", () => {
    const d = corpus.find((x) => x.lines.length >= 4) as CorpusDevis;
    const n = d.lines.length;
    const result = perfectResult(d);
    const [first, second, ...rest] = result.lines;
    if (!first || !second) throw new Error("unreachable");
    // Line 1: fee wrong, basket unread. Line 2: missing. One extra line at the end.
    const broken: ReadResult = {
      ...result,
      lines: [
        { ...first, fee_cents: (first.fee_cents ?? 0) + 100, basket: null },
        ...rest,
        { ...first, code: "HBLD999", tooth: 11 },
      ],
    };
    const score = scoreReading(d, broken);
    expect(score.expectedLines).toBe(n);
    expect(score.linesExact).toBe(n - 2);
    expect(score.fieldsRight).toBe((n - 2) * 6 + 4);
    // The extra line counts 6 wrong fields.
    expect(score.fieldsTotal).toBe((n + 1) * 6);
    expect(score.wrong).toHaveLength(4);
    expect(score.wrong.join("\n")).toMatch(/line 1 basket/);
    expect(score.wrong.join("\n")).toMatch(/line 1 fee_cents/);
    expect(score.wrong.join("\n")).toMatch(/line 2 .*missing/);
    expect(score.wrong.join("\n")).toMatch(/extra line/);

    const empty = scoreReading(d, { ...result, lines: [] });
    expect(empty).toMatchObject({ linesExact: 0, fieldsRight: 0, fieldsTotal: n * 6 });
    const total = sumScores([scoreReading(d, result), empty]);
    expect(total.accuracy).toBeCloseTo(0.5);
  });
});
