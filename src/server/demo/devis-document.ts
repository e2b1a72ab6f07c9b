import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "@cantoo/pdf-lib";
import { termsOn } from "../../shared/domain/acts";
import { AMO_RATE, type Basket } from "../../shared/domain/out-of-pocket";
import { frenchDay, pdfEuros } from "../modules/invoices/invoices.pdf";
import type { DemoLine, DevisAuthor } from "./requests";

/**
 * The demo patient's devis as a practice's software prints one (the « devis pour les traitements et
 * actes bucco-dentaires »): the practitioner and the patient, the date, then one row per act with its
 * tooth, CCAM code, basket, fee, reimbursement base and Assurance Maladie part on the devis's day (the
 * act table's), and the totals. A real document to open and to read (« Lire ce devis »), not a blank
 * page; its foot says it is a demonstration and comes from no practice.
 */
export interface DemoDevis {
  dentist: DevisAuthor;
  patient: string;
  /** The devis's day, 'YYYY-MM-DD' (Paris). */
  day: string;
  lines: readonly DemoLine[];
}

/** What a row of the devis prints: the act table's basket, BR and AMO on the devis's day. */
export interface DevisRow {
  tooth: number | null;
  code: string | null;
  act: string;
  basket: Basket;
  feeCents: number;
  brCents: number;
  amoCents: number;
}

export function devisRows(devis: Pick<DemoDevis, "day" | "lines">): DevisRow[] {
  return devis.lines.map((line) => {
    const terms = line.code ? termsOn(line.code, devis.day, line.tooth) : undefined;
    const brCents = terms?.brCents ?? 0;
    return {
      tooth: line.tooth,
      code: line.code ?? null,
      act: line.act,
      basket: terms?.basket ?? "libre",
      feeCents: line.euros * 100,
      brCents,
      amoCents: Math.round(brCents * AMO_RATE),
    };
  });
}

/** The basket as devis print it (the devis normalisé's words). */
const BASKET_WORDS: Record<Basket, string> = {
  "100_sante": "100 % Santé",
  maitrise: "Maîtrisé",
  libre: "Libre",
};

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.44);
const RULE = rgb(0.6, 0.6, 0.64);
const SIZE = 9;

/** The table's columns: header, width, alignment, and what a row prints there. */
const COLUMNS: Array<{ header: string; width: number; right?: true; cell: (row: DevisRow) => string }> = [
  { header: "Dent", width: 34, cell: (row) => (row.tooth === null ? "" : String(row.tooth)) },
  { header: "Code CCAM", width: 62, cell: (row) => row.code ?? "" },
  { header: "Nature de l'acte", width: 170, cell: (row) => row.act },
  { header: "Panier", width: 64, cell: (row) => BASKET_WORDS[row.basket] },
  { header: "Honoraires", width: 62, right: true, cell: (row) => pdfEuros(row.feeCents) },
  { header: "Base remb.", width: 56, right: true, cell: (row) => pdfEuros(row.brCents) },
  { header: "Remb. AMO", width: 58, right: true, cell: (row) => pdfEuros(row.amoCents) },
];

function text(page: PDFPage, font: PDFFont, value: string, x: number, y: number, size = SIZE, color = INK) {
  page.drawText(value, { x, y, size, font, color });
}

/** The devis as a one-page A4 PDF. */
export async function demoDevisPdf(devis: DemoDevis): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Devis dentaire du ${frenchDay(devis.day)}`);
  pdf.setCreator("Sourio (démonstration)");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595.28, 841.89]);
  const left = 40;

  text(page, bold, devis.dentist.name, left, 790, 11);
  text(page, regular, "Chirurgien-dentiste", left, 776);
  text(page, regular, devis.dentist.street, left, 764);
  text(page, regular, devis.dentist.town, left, 752);
  text(page, regular, `Patient : ${devis.patient}`, 360, 776);
  text(page, regular, `Date du devis : ${frenchDay(devis.day)}`, 360, 764);
  const title = "DEVIS POUR LES TRAITEMENTS ET ACTES BUCCO-DENTAIRES";
  text(page, bold, title, (595.28 - bold.widthOfTextAtSize(title, 11)) / 2, 712, 11);

  const rows = devisRows(devis);
  let y = 680;
  const drawRow = (cells: string[], font: PDFFont) => {
    let x = left;
    COLUMNS.forEach((column, i) => {
      const value = cells[i] ?? "";
      const width = font.widthOfTextAtSize(value, SIZE);
      text(page, font, value, column.right ? x + column.width - 4 - width : x + 3, y);
      x += column.width;
    });
    page.drawLine({
      start: { x: left, y: y - 5 },
      end: { x: x, y: y - 5 },
      thickness: 0.5,
      color: RULE,
    });
    y -= 18;
  };
  drawRow(
    COLUMNS.map((column) => column.header),
    bold,
  );
  for (const row of rows)
    drawRow(
      COLUMNS.map((column) => column.cell(row)),
      regular,
    );
  const sum = (pick: (row: DevisRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  drawRow(
    [
      "",
      "",
      "Total",
      "",
      pdfEuros(sum((r) => r.feeCents)),
      pdfEuros(sum((r) => r.brCents)),
      pdfEuros(sum((r) => r.amoCents)),
    ],
    bold,
  );

  y -= 10;
  for (const line of [
    `Devis valable 6 mois à compter du ${frenchDay(devis.day)}.`,
    "Remboursement AMO calculé sur la base de 60 % du tarif de convention, à titre indicatif.",
    "Signature du praticien",
  ]) {
    text(page, regular, line, left, y);
    y -= 14;
  }
  text(
    page,
    regular,
    "Document de démonstration de Sourio : ce devis n'émane d'aucun cabinet réel.",
    left,
    40,
    8,
    MUTED,
  );
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
