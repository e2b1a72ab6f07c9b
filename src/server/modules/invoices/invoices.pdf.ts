import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import fontkit from "@cantoo/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "@cantoo/pdf-lib";
import {
  formatVatRate,
  LATE_PENALTY_TEXT,
  NATURE_TEXT,
  PAYMENT_TERMS_TEXT,
  RECOVERY_FEE_CENTS,
} from "../../../shared/domain/invoices";
import { formatEuros } from "../../../shared/format/money";
import { parisToday } from "../../../shared/format/paris";
import type { InvoiceRow } from "./invoices.repo";

/**
 * The human-readable invoice, one A4 page, every mention the law asks for (Code de commerce L441-9,
 * CGI annexe II art. 242 nonies A): seller's identity, buyer's, date, number, nature and period of
 * the service, the line before tax, VAT rate and amount, total, payment terms, late-payment penalties
 * and the 40 € recovery fee. PDF/A wants every font embedded: Liberation Sans (SIL OFL), shipped by
 * pdfjs-dist, is embedded (subset). invoices.facturx.ts then makes it a PDF/A-3 carrying the XML.
 */

const require = createRequire(import.meta.url);
const FONTS_DIR = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts");
let fontsPromise: Promise<[Uint8Array, Uint8Array]> | null = null;
const fontFiles = () => {
  fontsPromise ??= Promise.all([
    readFile(path.join(FONTS_DIR, "LiberationSans-Regular.ttf")),
    readFile(path.join(FONTS_DIR, "LiberationSans-Bold.ttf")),
  ]);
  return fontsPromise;
};

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export const frenchDay = (day: string) => day.split("-").reverse().join("/");
/** Euros as printed (ordinary spaces: the font's own). */
export const pdfEuros = (cents: number) => formatEuros(cents).replace(/[\u202f\u00a0]/g, " ");

const INK = rgb(0.12, 0.12, 0.14);
const MUTED = rgb(0.38, 0.38, 0.42);
const WARN = rgb(0.7, 0.1, 0.1);

class Writer {
  y = 800;
  constructor(
    readonly page: PDFPage,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {}

  /** Lines of `text` no wider than `width` at `size`. */
  wrap(text: string, width: number, size: number, font = this.regular): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of text.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(line);
    return lines;
  }

  text(
    text: string,
    x: number,
    y: number,
    options: { size?: number; bold?: boolean; color?: typeof INK } = {},
  ) {
    this.page.drawText(text, {
      x,
      y,
      size: options.size ?? 9.5,
      font: options.bold ? this.bold : this.regular,
      color: options.color ?? INK,
    });
  }

  right(text: string, xRight: number, y: number, options: { size?: number; bold?: boolean } = {}) {
    const size = options.size ?? 9.5;
    const font = options.bold ? this.bold : this.regular;
    this.text(text, xRight - font.widthOfTextAtSize(text, size), y, options);
  }

  paragraph(text: string, options: { size?: number; color?: typeof INK; x?: number; width?: number } = {}) {
    const size = options.size ?? 8.5;
    for (const line of this.wrap(text, options.width ?? 495, size)) {
      this.text(line, options.x ?? 50, this.y, { size, color: options.color ?? INK });
      this.y -= size + 3;
    }
  }
}

/** Draws the invoice (or credit note) `row`; `referred` is the invoice a credit note corrects. */
export async function drawInvoicePdf(
  row: InvoiceRow,
  referred?: Pick<InvoiceRow, "number" | "issued_at">,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await fontFiles();
  const regular = await doc.embedFont(regularBytes, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  const page = doc.addPage([595.28, 841.89]);
  const w = new Writer(page, regular, bold);
  const { seller, buyer } = row;
  const creditNote = row.kind === "credit_note";
  const issued = parisToday(row.issued_at);

  if (seller.development) {
    w.text("Document de développement : identité du vendeur non configurée, sans valeur légale.", 50, 815, {
      size: 8.5,
      bold: true,
      color: WARN,
    });
  }
  w.text(creditNote ? "AVOIR" : "FACTURE", 50, 780, { size: 20, bold: true });
  w.right(`N° ${row.number}`, 545, 786, { size: 11, bold: true });
  w.right(`Date : ${frenchDay(issued)}`, 545, 771);

  // Seller (left) and buyer (right).
  let y = 740;
  const sellerLines = [
    seller.name,
    seller.address,
    `${seller.postalCode} ${seller.city}`,
    `${seller.legalForm} au capital de ${seller.capital}`,
    `SIREN ${seller.siren} — ${seller.rcs}`,
    `N° TVA intracommunautaire : ${seller.vatNumber}`,
  ];
  w.text("Vendeur", 50, y, { size: 8, color: MUTED });
  sellerLines.forEach((line, i) => {
    for (const [j, part] of w.wrap(line, 235, 9.5, i === 0 ? bold : regular).entries())
      w.text(part, 50, y - 13 - (i + j) * 12, { bold: i === 0 });
  });
  const buyerLines = [
    buyer.name,
    buyer.address,
    `${buyer.postalCode} ${buyer.city}`.trim(),
    buyer.siren ? `SIREN ${buyer.siren}` : "",
  ].filter(Boolean);
  w.text("Client", 310, y, { size: 8, color: MUTED });
  buyerLines.forEach((line, i) => {
    w.text(line, 310, y - 13 - i * 12, { bold: i === 0 });
  });
  y -= 13 + Math.max(sellerLines.length, buyerLines.length) * 12 + 20;

  // Nature, period, reference.
  w.text(NATURE_TEXT, 50, y, { bold: true });
  y -= 13;
  w.text(`Période : du ${frenchDay(row.period_start)} au ${frenchDay(row.period_end)}`, 50, y);
  if (creditNote && referred) {
    y -= 13;
    w.text(`Avoir sur la facture ${referred.number} du ${frenchDay(parisToday(referred.issued_at))}`, 50, y);
    y -= 13;
    w.y = y;
    w.paragraph(`Motif : ${row.reason ?? ""}`, { size: 9.5 });
    y = w.y + 12.5;
  }
  y -= 28;

  // The line.
  page.drawRectangle({ x: 50, y: y - 4, width: 495, height: 16, color: rgb(0.94, 0.95, 0.97) });
  w.text("Désignation", 56, y, { bold: true, size: 9 });
  w.right("Qté", 340, y, { bold: true, size: 9 });
  w.right("Prix unitaire HT", 450, y, { bold: true, size: 9 });
  w.right("Montant HT", 540, y, { bold: true, size: 9 });
  y -= 20;
  const labelLines = w.wrap(row.label, 250, 9.5);
  labelLines.forEach((line, i) => {
    w.text(line, 56, y - i * 12);
  });
  w.right("1", 340, y);
  w.right(pdfEuros(row.amount_ht_cents), 450, y);
  w.right(pdfEuros(row.amount_ht_cents), 540, y);
  y -= labelLines.length * 12 + 14;
  page.drawLine({ start: { x: 50, y: y + 6 }, end: { x: 545, y: y + 6 }, thickness: 0.5, color: MUTED });

  // Totals.
  const totals: [string, string, boolean][] = [
    ["Total HT", pdfEuros(row.amount_ht_cents), false],
    [`TVA ${formatVatRate(row.vat_rate_bp)}`, pdfEuros(row.vat_cents), false],
    [creditNote ? "Total TTC de l'avoir" : "Total TTC", pdfEuros(row.amount_ttc_cents), true],
  ];
  for (const [label, amount, strong] of totals) {
    y -= 14;
    w.right(label, 440, y, { bold: strong });
    w.right(amount, 540, y, { bold: strong });
  }
  y -= 34;

  // Payment terms and what a late payment costs.
  w.y = y;
  w.text("Conditions de paiement", 50, w.y, { bold: true, size: 9 });
  w.y -= 13;
  w.paragraph(
    creditNote
      ? `Date d'émission de l'avoir : ${frenchDay(issued)}. Le montant est rendu sur le moyen de paiement enregistré.`
      : `Date d'échéance : ${frenchDay(issued)}. ${PAYMENT_TERMS_TEXT}`,
  );
  w.paragraph(`${LATE_PENALTY_TEXT}.`);
  w.paragraph(
    `Indemnité forfaitaire pour frais de recouvrement due en cas de retard de paiement : ${pdfEuros(RECOVERY_FEE_CENTS)} (art. L441-10 et D441-5 du Code de commerce).`,
  );
  w.y -= 10;
  w.paragraph(
    "Facture électronique Factur-X (profil EN 16931) : ses données structurées sont jointes à ce PDF (factur-x.xml).",
    { color: MUTED, size: 8 },
  );

  return doc.save({ useObjectStreams: false });
}
