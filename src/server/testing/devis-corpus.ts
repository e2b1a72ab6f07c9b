import { createRequire } from "node:module";
import path from "node:path";
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import {
  ACTS,
  type ActTerms,
  actFitsTooth,
  ceilingOn,
  TOOTH_GROUPS,
  termsOn,
} from "../../shared/domain/acts";
import type { Basket } from "../../shared/domain/out-of-pocket";
import type { ReadResult } from "../../shared/schemas/reading";

/**
 * A corpus of generated devis for the reading tests and the bench (issue 17). Each devis imitates the
 * French "devis normalisé" for prosthetic care as practice software prints it: a header block in any
 * order (practice, practitioner, RPPS/ADELI, patient, date, address, phone…), the table of acts (tooth,
 * code, act, basket, fee, BR, AMO, with the basket and fee columns adjacent), a total row, then noise
 * (signatures, validity sentence). `makeDevis(seed)` draws everything from a seeded PRNG; the ground truth
 * is in the returned object, the layout choices too, so `devisPdf` draws the same bytes for the same seed.
 *
 * Test support only (vitest, the bench through tsx, Playwright specs): no test-runner imports here.
 */

export interface CorpusLine {
  /** FDI tooth, null for an act on a whole arch. */
  tooth: number | null;
  /** The printed CCAM code (a code of ACTS, or occasionally one outside the table). */
  code: string;
  /** The printed label. */
  act: string;
  basket: Basket;
  fee_cents: number;
  /** 0 for an implant, whether printed "0,00 €", "NR" or "—". */
  br_cents: number;
  amo_cents: number;
}

export type AmountSeparator = " " | "\u00a0" | "\u202f";
export type FontName = "Helvetica" | "Times-Roman" | "Courier";

/** How the devis is drawn (drawn from the seed with the content; `devisPdf` only follows it). */
export interface CorpusLayout {
  font: FontName;
  fontSize: number;
  /** Thousands separator of the amounts; U+202F is drawn as a thin gap (no glyph in WinAnsi). */
  thousands: AmountSeparator;
  euroSign: boolean;
  basketStyle: "digit" | "words";
  /** How a BR/AMO of zero is printed. */
  zeroStyle: "0,00" | "NR" | "—";
  headers: Record<Column, string>;
  /** The header row forced on two text lines where a header has two words or more. */
  twoLineHeader: boolean;
  headerAlign: "left" | "center";
  /** Vertical alignment of the header cells (one-line headers centred between two lines). */
  headerVAlign: "top" | "middle";
  headerShade: boolean;
  rules: "none" | "rules" | "grid";
  basketAlign: "center" | "right";
  toothAlign: "left" | "center";
  /** Inner padding of the cells, in points. */
  pad: number;
  /** The header block: lines, in print order; `right` lines go to a second column beside the left ones. */
  headerLines: { text: string; bold: boolean; column: "left" | "right" | "center" }[];
  totalLabel: string;
  totalColumns: "fee" | "all";
  noise: { text: string; column: "left" | "right" }[];
  marginLeft: number;
  marginTop: number;
  /** Cells drawn row after row, or column after column (the text layer's order differs). */
  drawOrder: "rows" | "columns";
  /** Every glyph drawn on its own (some generators position each character). */
  glyphByGlyph: boolean;
  /** A footer at the bottom of the page ("Page 1/1"), or none. */
  footer: string | null;
}

export interface CorpusDevis {
  seed: number;
  /** Paris calendar day of the devis ('YYYY-MM-DD'); the ceilings are those of that day. */
  day: string;
  lines: CorpusLine[];
  /** The sum of the fees, printed on the total row. */
  total_cents: number;
  /** As printed after its label ("Jean Dupont" or "DUPONT Jean"). */
  patient_name: string;
  /** Without title ("Claire Martin"). */
  practitioner_name: string;
  practitioner_number: { kind: "RPPS" | "ADELI"; value: string };
  layout: CorpusLayout;
}

/** Another name for a generated devis. */
export type Devis = CorpusDevis;

export const COLUMNS = ["tooth", "code", "act", "basket", "fee", "br", "amo"] as const;
export type Column = (typeof COLUMNS)[number];

/** Header synonyms per column, as the layout in the brief lists them. */
export const HEADER_SYNONYMS: Record<Column, readonly string[]> = {
  tooth: ["Dent", "N° dent", "Numéro de dent", "Localisation"],
  code: ["Code", "Code CCAM", "Code acte", "Cotation"],
  act: ["Acte", "Nature de l'acte", "Description", "Désignation"],
  basket: ["Panier", "Panier de soins"],
  fee: ["Honoraires", "Honoraires (€)", "Prix", "Montant des honoraires"],
  br: ["BR", "Base de remboursement", "Base SS", "Base remb."],
  amo: ["AMO", "Remb. AMO", "Montant AMO", "Montant remboursé AMO"],
};

/** Acts outside the reference table that practices also print (free lines). */
export const FREE_ACTS: readonly { code: string; label: string; brCents: number; anyTooth: boolean }[] = [
  { code: "HBMD460", label: "Onlay en céramique collé", brCents: 100_00, anyTooth: true },
  { code: "HBMD058", label: "Restauration par inlay composite, 2 faces", brCents: 100_00, anyTooth: true },
  { code: "HBLD132", label: "Facette céramique (non remboursable)", brCents: 0, anyTooth: true },
  { code: "HBGD036", label: "Avulsion d'une dent permanente sur arcade", brCents: 33_44, anyTooth: true },
  { code: "LBMP001", label: "Pilier implantaire personnalisé", brCents: 0, anyTooth: true },
];

// ---------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = (seed >>> 0) ^ 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  real(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------
// Names and places

const FIRST_NAMES = [
  "Jean",
  "Hélène",
  "Jérôme",
  "Clémence",
  "Frédéric",
  "Noémie",
  "Loïc",
  "Gaël",
  "Agnès",
  "Benoît",
  "Céline",
  "Anaïs",
  "Raphaël",
  "Chloé",
  "Zoé",
  "Éric",
  "Émilie",
  "François",
  "Thérèse",
  "Marie-Hélène",
  "Jean-Noël",
  "Maëlle",
  "Paul",
  "Claire",
];
const LAST_NAMES = [
  "Dupont",
  "Lefèvre",
  "Martin",
  "Bérard",
  "Lemaître",
  "Géraud",
  "Rousseau",
  "Fabre",
  "Mercier",
  "Chevalier",
  "Garnier",
  "Lacroix",
  "Périer",
  "Desprès",
  "Noël",
  "Brûlé",
  "Lebœuf",
  "Nguyen",
  "Da Silva",
  "Le Goff",
  "Hébert",
];
const CITIES = [
  { zip: "69002", name: "Lyon", phone: "04 78" },
  { zip: "13006", name: "Marseille", phone: "04 91" },
  { zip: "75011", name: "Paris", phone: "01 43" },
  { zip: "31000", name: "Toulouse", phone: "05 61" },
  { zip: "44000", name: "Nantes", phone: "02 40" },
  { zip: "59800", name: "Lille", phone: "03 20" },
  { zip: "67000", name: "Strasbourg", phone: "03 88" },
  { zip: "06000", name: "Nice", phone: "04 93" },
];
const STREETS = [
  "rue de la République",
  "avenue Jean-Jaurès",
  "boulevard Gambetta",
  "place Bellecour",
  "rue Émile-Zola",
  "cours Lafayette",
  "rue du Général-de-Gaulle",
  "allée des Tilleuls",
];
const PRACTICES = [
  "Cabinet dentaire du Parc",
  "Centre dentaire des Lilas",
  "Cabinet d'odontologie Saint-Éloi",
  "Cabinet dentaire de la Gare",
  "Centre de santé dentaire Bellecour",
  "SELARL Dentaire des Tilleuls",
  "Cabinet dentaire Lafayette",
];
const TITLES = [
  "DEVIS POUR LES TRAITEMENTS ET ACTES BUCCO-DENTAIRES",
  "Devis dentaire",
  "DEVIS POUR LES TRAITEMENTS ET ACTES BUCCO-DENTAIRES FAISANT L'OBJET D'UNE ENTENTE DIRECTE",
  "Devis dentaire - plan de traitement",
];
const TOTAL_LABELS = ["Total", "TOTAL", "Total des honoraires"];

const pad2 = (n: number) => String(n).padStart(2, "0");
const frDate = (day: string) => {
  const [y, m, d] = day.split("-");
  return `${d}/${m}/${y}`;
};

// ---------------------------------------------------------------------------------------------------
// Amounts

/** "1 250,00 €" with the given thousands separator, with or without the euro sign. */
export function formatAmount(cents: number, thousands: AmountSeparator, euroSign: boolean): string {
  const euros = Math.floor(cents / 100);
  const rest = pad2(cents % 100);
  const grouped = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${grouped},${rest}${euroSign ? " €" : ""}`;
}

const BASKET_DIGITS: Record<Basket, string> = { "100_sante": "1", maitrise: "2", libre: "3" };
const BASKET_WORDS: Record<Basket, readonly string[]> = {
  "100_sante": ["100 % Santé", "RAC 0"],
  maitrise: ["Maîtrisé"],
  libre: ["Libre"],
};

function feeFor(dice: Dice, code: string, basket: Basket, day: string, tooth: number | null): number {
  const ceiling = basket === "libre" ? null : ceilingOn(code, day, tooth);
  if (ceiling === null) {
    // Tarifs libres: anything from 300 to 2 500 €, mostly round, sometimes with cents.
    const euros = dice.chance(0.7) ? dice.int(60, 500) * 5 : dice.int(300, 2500);
    const cents = dice.chance(0.2) ? dice.pick([10, 50, 90, 99, 45]) : 0;
    return euros * 100 + cents;
  }
  if (basket === "100_sante" && dice.chance(0.6)) return ceiling;
  if (basket === "maitrise" && dice.chance(0.4)) return ceiling;
  const low = Math.round(ceiling * 0.65);
  let fee = dice.int(low, ceiling);
  fee = dice.chance(0.75) ? Math.floor(fee / 500) * 500 : fee; // round to 5 € mostly
  return Math.max(100, Math.min(fee, ceiling));
}

function toothFor(dice: Dice, group: keyof typeof TOOTH_GROUPS): number {
  const quadrant = dice.int(1, 4);
  return quadrant * 10 + dice.pick(TOOTH_GROUPS[group]);
}

function drawLines(dice: Dice, day: string): CorpusLine[] {
  const count = dice.pick([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8]);
  const lines: CorpusLine[] = [];
  const withBasket = (code: string, act: string, basket: Basket, tooth: number | null, br: number) => {
    const fee = feeFor(dice, code, basket, day, tooth);
    lines.push({
      tooth,
      code,
      act,
      basket,
      fee_cents: fee,
      br_cents: br,
      amo_cents: Math.round(br * 0.6),
    });
  };
  const free = dice.chance(0.25) ? dice.int(0, count - 1) : -1;
  while (lines.length < count) {
    if (lines.length === free) {
      const act = dice.pick(FREE_ACTS);
      withBasket(act.code, act.label, "libre", toothFor(dice, "any"), act.brCents);
      continue;
    }
    const act = dice.pick(ACTS);
    // The basket and BR of the devis's day and tooth, as the table gives them.
    const printed = (code: string, label: string, tooth: number | null) => {
      const terms = termsOn(code, day, tooth) as ActTerms;
      withBasket(code, label, terms.basket, tooth, terms.brCents);
    };
    if (act.teeth === "arch") {
      printed(act.code, act.label, null);
      continue;
    }
    const tooth = toothFor(dice, act.teeth);
    if (!actFitsTooth(act, tooth)) continue;
    // A crown often comes with its inlay-core on the same tooth, printed first.
    if (act.category === "crown" && lines.length + 1 < count && dice.chance(0.35)) {
      const core = dice.pick(ACTS.filter((a) => a.category === "inlayCore"));
      printed(core.code, core.label, tooth);
    }
    printed(act.code, act.label, tooth);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------
// The devis

/** A deterministic devis for this seed: content, ground truth and layout. */
export function makeDevis(seed: number): CorpusDevis {
  const dice = new Dice(prng(seed));
  const year = dice.pick([2024, 2025, 2026, 2026]);
  const month = dice.int(1, year === 2026 ? 11 : 12);
  const day = `${year}-${pad2(month)}-${pad2(dice.int(1, 28))}`;
  const lines = drawLines(dice, day);

  const patientFirst = dice.pick(FIRST_NAMES);
  const patientLast = dice.pick(LAST_NAMES);
  const drFirst = dice.pick(FIRST_NAMES);
  const drLast = dice.pick(LAST_NAMES);
  const city = dice.pick(CITIES);
  const rpps = dice.chance(0.65);
  const numberValue = rpps
    ? `10${String(dice.int(0, 999_999_999)).padStart(9, "0")}`
    : `${city.zip.slice(0, 2)}${String(dice.int(1_000_000, 9_999_999))}`;
  const practitioner_number = { kind: rpps ? ("RPPS" as const) : ("ADELI" as const), value: numberValue };

  const patientStyle = dice.pick(["Patient", "Nom et prénom du patient", "Bénéficiaire"] as const);
  const patient_name =
    patientStyle === "Nom et prénom du patient"
      ? `${patientLast.toUpperCase()} ${patientFirst}`
      : `${patientFirst} ${patientLast}`;
  const numberText = rpps
    ? dice.pick([`N° RPPS : ${numberValue}`, `RPPS ${numberValue}`, `RPPS : ${numberValue}`])
    : dice.pick([`N° ADELI : ${numberValue}`, `ADELI ${numberValue}`]);

  const twoColumns = dice.chance(0.5);
  const left = "left" as const;
  const right = twoColumns ? ("right" as const) : ("left" as const);
  const practitionerBlock: CorpusLayout["headerLines"] = [];
  if (dice.chance(0.8)) practitionerBlock.push({ text: dice.pick(PRACTICES), bold: true, column: left });
  practitionerBlock.push({
    text: dice.chance(0.7) ? `Dr ${drFirst} ${drLast}` : `Docteur ${drFirst} ${drLast}`,
    bold: practitionerBlock.length === 0,
    column: left,
  });
  if (dice.chance(0.7)) practitionerBlock.push({ text: "Chirurgien-dentiste", bold: false, column: left });
  const address = [
    {
      text: `${dice.int(1, 140)}${dice.chance(0.15) ? " bis" : ""} ${dice.pick(STREETS)}`,
      bold: false,
      column: left,
    },
    { text: `${city.zip} ${city.name}`, bold: false, column: left },
  ];
  const phone = {
    text: `Tél. : ${city.phone} ${pad2(dice.int(10, 99))} ${pad2(dice.int(10, 99))} ${pad2(dice.int(10, 99))}`,
    bold: false,
    column: left,
  };
  const numberLine = { text: numberText, bold: false, column: left };
  const leftBlock = dice
    .shuffle([...(dice.chance(0.85) ? [address] : []), ...(dice.chance(0.5) ? [[phone]] : []), [numberLine]])
    .flat();
  const patientBlock: CorpusLayout["headerLines"] = [
    { text: `${patientStyle} : ${patient_name}`, bold: false, column: right },
  ];
  if (dice.chance(0.3))
    patientBlock.push({
      text: `Date de naissance : ${pad2(dice.int(1, 28))}/${pad2(dice.int(1, 12))}/${dice.int(1940, 2005)}`,
      bold: false,
      column: right,
    });
  const dateLine = {
    text: dice.pick([`Date du devis : ${frDate(day)}`, `Le ${frDate(day)}`, `Devis du ${frDate(day)}`]),
    bold: false,
    column: right,
  };
  if (dice.chance(0.3))
    patientBlock.push({
      text: `Devis n° ${year}-${String(dice.int(1, 9999)).padStart(4, "0")}`,
      bold: false,
      column: right,
    });
  const title = { text: dice.pick(TITLES), bold: true, column: "center" as const };
  const blocks = dice.shuffle([
    [...practitionerBlock, ...leftBlock],
    [...patientBlock, dateLine],
  ]);
  const headerLines = dice.chance(0.5)
    ? [...(blocks[0] ?? []), ...(blocks[1] ?? []), title]
    : [title, ...(blocks[0] ?? []), ...(blocks[1] ?? [])];

  const font = dice.pick(["Helvetica", "Helvetica", "Times-Roman", "Courier"] as const);
  const fontSize = font === "Courier" ? dice.pick([8, 8.5, 9]) : dice.pick([8, 8.5, 9, 9.5, 10]);
  const headers = Object.fromEntries(COLUMNS.map((c) => [c, dice.pick(HEADER_SYNONYMS[c])])) as Record<
    Column,
    string
  >;
  const validity = dice.pick([3, 6, 6, 6]);
  const noise: CorpusLayout["noise"] = dice
    .shuffle([
      { text: `Devis valable ${validity} mois à compter du ${frDate(day)}.`, column: "left" as const },
      { text: "Devis établi en deux exemplaires, dont un remis au patient.", column: "left" as const },
      {
        text: "Remboursement AMO calculé sur la base de 60 % du tarif de convention, à titre indicatif.",
        column: "left" as const,
      },
    ])
    .slice(0, dice.int(1, 3));
  noise.push(
    { text: "Signature du praticien", column: "left" },
    { text: "Date et signature du patient", column: dice.chance(0.6) ? "right" : "left" },
  );
  if (dice.chance(0.4)) noise.push({ text: `Fait à ${city.name}, le ${frDate(day)}`, column: "left" });

  const layout: CorpusLayout = {
    font,
    fontSize,
    thousands: dice.pick([" ", "\u00a0", "\u202f"] as const),
    euroSign: dice.chance(0.6),
    basketStyle: dice.chance(0.6) ? "digit" : "words",
    zeroStyle: dice.pick(["0,00", "NR", "—"] as const),
    headers,
    twoLineHeader: dice.chance(0.35),
    headerAlign: dice.pick(["left", "center"] as const),
    headerVAlign: dice.chance(0.25) ? "middle" : "top",
    headerShade: dice.chance(0.3),
    rules: dice.pick(["none", "rules", "rules", "grid"] as const),
    basketAlign: dice.pick(["center", "right"] as const),
    toothAlign: dice.pick(["left", "center"] as const),
    pad: Math.round(dice.real(2.5, 5) * 2) / 2,
    headerLines,
    totalLabel: dice.pick(TOTAL_LABELS),
    totalColumns: dice.chance(0.5) ? "fee" : "all",
    noise,
    marginLeft: dice.int(34, 48),
    marginTop: dice.int(36, 60),
    // Drawn last, so that adding them kept the content of every seed.
    drawOrder: dice.chance(0.3) ? "columns" : "rows",
    glyphByGlyph: dice.chance(0.15),
    footer: dice.chance(0.4)
      ? dice.pick(["Page 1/1", "Page 1 sur 1", `Édité le ${frDate(day)} - page 1`])
      : null,
  };
  if (dice.chance(0.3))
    noise.unshift({
      text: `Montant total des honoraires : ${formatAmount(
        lines.reduce((sum, line) => sum + line.fee_cents, 0),
        layout.thousands === "\u202f" ? " " : layout.thousands,
        true,
      )}`,
      column: "left",
    });
  return {
    seed,
    day,
    lines,
    total_cents: lines.reduce((sum, line) => sum + line.fee_cents, 0),
    patient_name,
    practitioner_name: `${drFirst} ${drLast}`,
    practitioner_number,
    layout,
  };
}

// ---------------------------------------------------------------------------------------------------
// The text PDF

const A4 = { width: 595.28, height: 841.89 };
const THIN_GAP_EM = 0.18;

/** Cell texts: the amount columns are the only ones with U+202F (drawn as a thin gap). */
function cellTexts(d: CorpusDevis, line: CorpusLine): Record<Column, string> {
  const { layout } = d;
  const amount = (cents: number, canBeZeroStyled: boolean) =>
    cents === 0 && canBeZeroStyled && layout.zeroStyle !== "0,00"
      ? layout.zeroStyle
      : formatAmount(cents, layout.thousands, layout.euroSign);
  const words = BASKET_WORDS[line.basket];
  return {
    tooth: line.tooth === null ? "" : String(line.tooth),
    code: line.code,
    act: line.act,
    basket:
      layout.basketStyle === "digit"
        ? BASKET_DIGITS[line.basket]
        : (words[(d.seed + line.fee_cents) % words.length] as string),
    fee: amount(line.fee_cents, false),
    br: amount(line.br_cents, true),
    amo: amount(line.amo_cents, true),
  };
}

function widthOf(text: string, font: PDFFont, size: number): number {
  const parts = text.split("\u202f");
  return (
    parts.reduce((sum, part) => sum + font.widthOfTextAtSize(part, size), 0) +
    (parts.length - 1) * THIN_GAP_EM * size
  );
}

/** Draws text whose top is at `top` (from the page's top edge); U+202F becomes a thin gap. */
function drawAt(
  page: PDFPage,
  text: string,
  x: number,
  top: number,
  font: PDFFont,
  size: number,
  glyphByGlyph: boolean,
) {
  const baseline = page.getHeight() - top - size * 0.78;
  const color = rgb(0.08, 0.08, 0.1);
  let cursor = x;
  for (const [i, part] of text.split("\u202f").entries()) {
    if (i > 0) cursor += THIN_GAP_EM * size;
    if (!glyphByGlyph) {
      if (part) page.drawText(part, { x: cursor, y: baseline, size, font, color });
      cursor += font.widthOfTextAtSize(part, size);
      continue;
    }
    for (const char of part) {
      if (char.trim()) page.drawText(char, { x: cursor, y: baseline, size, font, color });
      cursor += font.widthOfTextAtSize(char, size);
    }
  }
}

/** Greedy word wrap within `width`. */
function wrap(text: string, width: number, font: PDFFont, size: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const next = current ? `${current} ${word}` : word;
    if (current && widthOf(next, font, size) > width) {
      out.push(current);
      current = word;
    } else current = next;
  }
  if (current) out.push(current);
  return out;
}

/** Splits a header in two balanced lines (at a space). */
function splitInTwo(text: string, font: PDFFont, size: number): string[] {
  const words = text.split(" ");
  if (words.length < 2) return [text];
  let best: string[] = [text];
  let bestWidth = Number.POSITIVE_INFINITY;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" ");
    const b = words.slice(i).join(" ");
    const w = Math.max(widthOf(a, font, size), widthOf(b, font, size));
    if (w < bestWidth) {
      bestWidth = w;
      best = [a, b];
    }
  }
  return best;
}

interface ColumnBox {
  x0: number;
  x1: number;
  header: string[];
}

function tableColumns(
  d: CorpusDevis,
  cells: Record<Column, string>[],
  totals: Partial<Record<Column, string>>,
  font: PDFFont,
  bold: PDFFont,
  size: number,
  contentWidth: number,
): Record<Column, ColumnBox> | null {
  const { layout } = d;
  const pad = layout.pad;
  const widths = {} as Record<Column, number>;
  const headers = {} as Record<Column, string[]>;
  let fixed = 0;
  for (const column of COLUMNS) {
    if (column === "act") continue;
    const cellMax = Math.max(
      ...cells.map((c) => widthOf(c[column], font, size)),
      totals[column] ? widthOf(totals[column], bold, size) : 0,
      column === "basket" && layout.basketStyle === "digit" ? widthOf("2", font, size) : 0,
    );
    const header = layout.headers[column];
    let lines = layout.twoLineHeader ? splitInTwo(header, bold, size) : [header];
    let inner = Math.max(cellMax, ...lines.map((l) => widthOf(l, bold, size)));
    // A header much wider than its cells wraps (at most two lines), like practice software does.
    if (!layout.twoLineHeader && widthOf(header, bold, size) > cellMax * 1.25 && header.includes(" ")) {
      const two = splitInTwo(header, bold, size);
      lines = two;
      inner = Math.max(cellMax, ...two.map((l) => widthOf(l, bold, size)));
    }
    widths[column] = inner + 2 * pad;
    headers[column] = lines;
    fixed += widths[column];
  }
  const actWidth = contentWidth - fixed;
  if (actWidth < 90) return null;
  widths.act = actWidth;
  const actHeader = layout.twoLineHeader ? splitInTwo(layout.headers.act, bold, size) : [layout.headers.act];
  headers.act = actHeader;
  const boxes = {} as Record<Column, ColumnBox>;
  let x = layout.marginLeft;
  for (const column of COLUMNS) {
    boxes[column] = { x0: x, x1: x + widths[column], header: headers[column] };
    x += widths[column];
  }
  return boxes;
}

const FONT_OF: Record<FontName, { regular: StandardFonts; bold: StandardFonts }> = {
  Helvetica: { regular: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold },
  "Times-Roman": { regular: StandardFonts.TimesRoman, bold: StandardFonts.TimesRomanBold },
  Courier: { regular: StandardFonts.Courier, bold: StandardFonts.CourierBold },
};

/** The devis as a one-page A4 PDF with a text layer, each cell drawn on its own like practice software. */
export async function devisPdf(d: CorpusDevis): Promise<Uint8Array> {
  const { layout } = d;
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(FONT_OF[layout.font].regular);
  const bold = await doc.embedFont(FONT_OF[layout.font].bold);
  const page = doc.addPage([A4.width, A4.height]);
  const draw = (text: string, x: number, top: number, f: PDFFont, size: number) =>
    drawAt(page, text, x, top, f, size, layout.glyphByGlyph);
  const contentWidth = A4.width - 2 * layout.marginLeft;

  // The table's font shrinks until the table fits the page width (as software does with long headers).
  let size = layout.fontSize;
  const totals: Partial<Record<Column, string>> = {
    fee: formatAmount(d.total_cents, layout.thousands, layout.euroSign),
  };
  if (layout.totalColumns === "all") {
    const br = d.lines.reduce((s, l) => s + l.br_cents, 0);
    const amo = d.lines.reduce((s, l) => s + l.amo_cents, 0);
    totals.br = formatAmount(br, layout.thousands, layout.euroSign);
    totals.amo = formatAmount(amo, layout.thousands, layout.euroSign);
  }
  const cells = d.lines.map((line) => cellTexts(d, line));
  let columns = tableColumns(d, cells, totals, font, bold, size, contentWidth);
  while (!columns && size > 6) {
    size -= 0.5;
    columns = tableColumns(d, cells, totals, font, bold, size, contentWidth);
  }
  if (!columns) throw new Error(`devis ${d.seed}: the table does not fit`);
  const lineHeight = size * 1.25;

  // Header block.
  let top = layout.marginTop;
  const headerSize = layout.fontSize + 0.5;
  const rightX = layout.marginLeft + contentWidth * 0.56;
  let leftTop = top;
  let rightTop = top;
  let lastColumn: "left" | "right" | "center" | null = null;
  for (const line of layout.headerLines) {
    const f = line.bold ? bold : font;
    if (line.column === "center") {
      const titleSize = headerSize + 2;
      const lines = wrap(line.text, contentWidth, f, titleSize);
      top = Math.max(leftTop, rightTop) + (lastColumn ? lineHeight : 0);
      for (const text of lines) {
        const x = layout.marginLeft + (contentWidth - widthOf(text, f, titleSize)) / 2;
        draw(text, x, top, f, titleSize);
        top += titleSize * 1.3;
      }
      top += lineHeight * 0.5;
      leftTop = top;
      rightTop = top;
    } else if (line.column === "left") {
      draw(line.text, layout.marginLeft, leftTop, f, headerSize);
      leftTop += headerSize * 1.3;
    } else {
      draw(line.text, rightX, rightTop, f, headerSize);
      rightTop += headerSize * 1.3;
    }
    lastColumn = line.column;
  }
  top = Math.max(leftTop, rightTop) + lineHeight * 1.5;

  // Table header.
  const grey = rgb(0.55, 0.55, 0.58);
  const headerLineCount = Math.max(...COLUMNS.map((c) => columns[c].header.length));
  const headerHeight = headerLineCount * lineHeight + 2 * layout.pad;
  const tableLeft = columns.tooth.x0;
  const tableRight = columns.amo.x1;
  const hLine = (y: number, thickness = 0.6) =>
    page.drawLine({
      start: { x: tableLeft, y: A4.height - y },
      end: { x: tableRight, y: A4.height - y },
      thickness,
      color: grey,
    });
  if (layout.headerShade)
    page.drawRectangle({
      x: tableLeft,
      y: A4.height - top - headerHeight,
      width: tableRight - tableLeft,
      height: headerHeight,
      color: rgb(0.88, 0.89, 0.9),
    });
  const tableTop = top;
  for (const column of COLUMNS) {
    const box = columns[column];
    const lines = box.header;
    const offset = layout.headerVAlign === "middle" ? ((headerLineCount - lines.length) * lineHeight) / 2 : 0;
    lines.forEach((text, i) => {
      const w = widthOf(text, bold, size);
      const x = layout.headerAlign === "center" ? box.x0 + (box.x1 - box.x0 - w) / 2 : box.x0 + layout.pad;
      draw(text, x, top + layout.pad + offset + i * lineHeight, bold, size);
    });
  }
  top += headerHeight;
  if (layout.rules !== "none") {
    hLine(tableTop, 0.8);
    hLine(top, 0.8);
  }

  // Rows.
  const numeric: Column[] = ["fee", "br", "amo"];
  const cellDraws: { column: number; row: number; run: () => void }[] = [];
  for (const [i, line] of d.lines.entries()) {
    const cell = cells[i] as Record<Column, string>;
    const actLines = wrap(line.act, columns.act.x1 - columns.act.x0 - 2 * layout.pad, font, size);
    const rowTop = top + layout.pad;
    for (const column of COLUMNS) {
      const box = columns[column];
      if (column === "act") {
        actLines.forEach((text, k) => {
          cellDraws.push({
            column: 2,
            row: i,
            run: () => draw(text, box.x0 + layout.pad, rowTop + k * lineHeight, font, size),
          });
        });
        continue;
      }
      const text = cell[column];
      if (!text) continue;
      const w = widthOf(text, font, size);
      let x = box.x0 + layout.pad;
      if (numeric.includes(column)) x = box.x1 - layout.pad - w;
      else if (column === "basket")
        x = layout.basketAlign === "right" ? box.x1 - layout.pad - w : box.x0 + (box.x1 - box.x0 - w) / 2;
      else if (column === "tooth" && layout.toothAlign === "center") x = box.x0 + (box.x1 - box.x0 - w) / 2;
      cellDraws.push({
        column: COLUMNS.indexOf(column),
        row: i,
        run: () => draw(text, x, rowTop, font, size),
      });
    }
    top += actLines.length * lineHeight + 2 * layout.pad;
    if (layout.rules !== "none") hLine(top, 0.4);
  }

  if (layout.drawOrder === "columns") cellDraws.sort((a, b) => a.column - b.column || a.row - b.row);
  for (const cellDraw of cellDraws) cellDraw.run();

  // Total row.
  const totalTop = top + layout.pad;
  const labelBox = layout.totalLabel === "Total des honoraires" ? columns.act : columns.code;
  const labelW = widthOf(layout.totalLabel, bold, size);
  draw(layout.totalLabel, labelBox.x1 - layout.pad - labelW, totalTop, bold, size);
  for (const column of ["fee", "br", "amo"] as const) {
    const text = totals[column];
    if (!text) continue;
    draw(text, columns[column].x1 - layout.pad - widthOf(text, bold, size), totalTop, bold, size);
  }
  top += lineHeight + 2 * layout.pad;
  if (layout.rules !== "none") hLine(top, 0.8);
  if (layout.rules === "grid")
    for (const column of COLUMNS) {
      for (const x of column === "tooth" ? [columns[column].x0, columns[column].x1] : [columns[column].x1])
        page.drawLine({
          start: { x, y: A4.height - tableTop },
          end: { x, y: A4.height - top },
          thickness: 0.5,
          color: grey,
        });
    }

  // Noise after the table.
  top += lineHeight * 2;
  let noiseTop = top;
  for (const item of layout.noise) {
    const x = item.column === "right" ? rightX : layout.marginLeft;
    if (item.column === "right") draw(item.text, x, noiseTop - headerSize * 1.6, font, headerSize);
    else {
      draw(item.text, x, noiseTop, font, headerSize);
      noiseTop += headerSize * 1.6;
    }
  }
  const bottom = A4.height - 30;
  if (layout.footer) {
    const footerSize = layout.fontSize - 1;
    const w = widthOf(layout.footer, font, footerSize);
    draw(layout.footer, layout.marginLeft + contentWidth - w, bottom, font, footerSize);
  }
  if (noiseTop > bottom) throw new Error(`devis ${d.seed}: the content runs off the page`);
  return doc.save({ useObjectStreams: false });
}

// ---------------------------------------------------------------------------------------------------
// Photos and scans

const require = createRequire(import.meta.url);

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | null = null;
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs").then((mod) => {
    mod.GlobalWorkerOptions.workerSrc ||= require.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs");
    return mod;
  });
  return pdfjs;
}
const PDFJS_DIR = path.dirname(require.resolve("pdfjs-dist/package.json"));

/** The first page of a PDF rendered on white at `dpi`, as raw RGBA. */
async function renderPage(pdf: Uint8Array, dpi: number) {
  const lib = await loadPdfJs();
  // The canvas copy pdf.js itself loads: it draws glyphs with that copy's Path2D.
  const { createCanvas } = createRequire(require.resolve("pdfjs-dist/legacy/build/pdf.mjs"))(
    "@napi-rs/canvas",
  ) as typeof import("@napi-rs/canvas");
  const doc = await lib.getDocument({
    data: new Uint8Array(pdf),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: `${path.join(PDFJS_DIR, "standard_fonts")}${path.sep}`,
  }).promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.round(viewport.width);
    const height = Math.round(viewport.height);
    const canvas = createCanvas(width, height);
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    await page.render({
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
      canvas: canvas as unknown as HTMLCanvasElement,
    }).promise;
    const data = context.getImageData(0, 0, width, height).data;
    return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height };
  } finally {
    await doc.destroy();
  }
}

export interface PhotoSettings {
  dpi: number;
  angle: number;
  background: string;
  blur: number;
  light: "radial" | "linear";
  /** Darkest light level at the edge (0–1, multiply). */
  shadow: number;
  noise: number;
  quality: number;
}

/** The camera and paper settings of a photo, drawn from its own seed. */
export function photoSettings(seed: number): PhotoSettings {
  const dice = new Dice(prng(seed * 7919 + 17));
  return {
    dpi: dice.int(150, 200),
    angle: Math.round(dice.real(-3, 3) * 10) / 10,
    background: dice.chance(0.5) ? "#ffffff" : dice.pick(["#8a8a8a", "#6f6a64", "#a3a39c"]),
    blur: Math.round(dice.real(0.5, 1.2) * 100) / 100,
    light: dice.chance(0.5) ? "radial" : "linear",
    shadow: Math.round(dice.real(0.62, 0.85) * 100) / 100,
    noise: dice.int(6, 16),
    quality: dice.int(45, 70),
  };
}

async function photo(d: CorpusDevis, seed: number): Promise<{ jpeg: Buffer; dpi: number }> {
  const s = photoSettings(seed);
  const dice = new Dice(prng(seed * 104729 + 3));
  const pdf = await devisPdf(d);
  const page = await renderPage(pdf, s.dpi);
  const { width, height } = page;

  // Uneven light on the paper: a gradient multiplied in.
  const shade = Math.round(255 * s.shadow);
  const light = `rgb(${shade},${shade},${Math.max(0, shade - 8)})`;
  const cx = dice.int(20, 80);
  const cy = dice.int(15, 85);
  const gradient =
    s.light === "radial"
      ? `<radialGradient id="g" cx="${cx}%" cy="${cy}%" r="85%"><stop offset="0" stop-color="#fffffa"/><stop offset="1" stop-color="${light}"/></radialGradient>`
      : `<linearGradient id="g" x1="${dice.real(0, 1).toFixed(2)}" y1="0" x2="${dice.real(0, 1).toFixed(2)}" y2="1"><stop offset="0" stop-color="#fffffa"/><stop offset="1" stop-color="${light}"/></linearGradient>`;
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>${gradient}</defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const lit = await sharp(page.data, { raw: { width, height, channels: 4 } })
    .composite([{ input: svg, blend: "multiply" }])
    .removeAlpha()
    .rotate(s.angle, { background: s.background })
    .blur(s.blur)
    .raw()
    .toBuffer({ resolveWithObject: true });

  // Sensor noise: a grey image around mid-grey blended in soft light.
  const { width: w, height: h } = lit.info;
  const noise = Buffer.alloc(w * h);
  const next = prng(seed * 31 + 5);
  for (let i = 0; i < noise.length; i++) {
    const n = (next() + next() + next() - 1.5) * 2 * s.noise;
    noise[i] = Math.max(0, Math.min(255, Math.round(128 + n)));
  }
  const noiseImage = await sharp(noise, { raw: { width: w, height: h, channels: 1 } })
    .toColourspace("srgb")
    .png({ compressionLevel: 0 })
    .toBuffer();
  const jpeg = await sharp(lit.data, { raw: { width: w, height: h, channels: lit.info.channels } })
    .composite([{ input: noiseImage, blend: "soft-light" }])
    .jpeg({ quality: s.quality, mozjpeg: false })
    .toBuffer();
  return { jpeg, dpi: s.dpi };
}

/** The devis as a phone photo: rendered at 150–200 DPI, lit unevenly, rotated ±3°, blurred, noisy, JPEG. */
export async function devisPhoto(d: CorpusDevis, seed = d.seed): Promise<Buffer> {
  return (await photo(d, seed)).jpeg;
}

/** The devis as a scanned PDF: one page that is the photo-like image, no text layer. */
export async function devisScan(d: CorpusDevis, seed = d.seed): Promise<Uint8Array> {
  const { jpeg, dpi } = await photo(d, seed);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const image = await doc.embedJpg(jpeg);
  const width = (image.width * 72) / dpi;
  const height = (image.height * 72) / dpi;
  const page = doc.addPage([width, height]);
  page.drawImage(image, { x: 0, y: 0, width, height });
  return doc.save({ useObjectStreams: false });
}

// ---------------------------------------------------------------------------------------------------
// Scoring

export const SCORED_FIELDS = ["tooth", "code", "basket", "fee_cents", "br_cents", "amo_cents"] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];

export interface ReadingScore {
  expectedLines: number;
  /** Lines read whose six fields are all right. */
  linesExact: number;
  fieldsRight: number;
  /** 6 × (expected lines + lines read that match no expected line). */
  fieldsTotal: number;
  /** What went wrong, for failure messages: "line 2 fee_cents: 118000 ≠ 117500", "line 3 missing"… */
  wrong: string[];
}

function fieldsOf(expected: CorpusLine, read: ReadResult["lines"][number]): ScoredField[] {
  const wrong: ScoredField[] = [];
  if (expected.tooth !== read.tooth) wrong.push("tooth");
  if (expected.code.toUpperCase() !== (read.code ?? "").toUpperCase()) wrong.push("code");
  if (expected.basket !== read.basket) wrong.push("basket");
  if (expected.fee_cents !== read.fee_cents) wrong.push("fee_cents");
  if (expected.br_cents !== read.br_cents) wrong.push("br_cents");
  if (expected.amo_cents !== read.amo_cents) wrong.push("amo_cents");
  return wrong;
}

/**
 * Scores a reading against the devis' ground truth: lines are matched in order (the alignment that keeps
 * the order and gets the most fields right, so one missed line does not shift all the others), each
 * expected line counts 6 fields, a missing line 6 wrong ones, an extra line read 6 wrong ones.
 */
export function scoreReading(expected: CorpusDevis, result: ReadResult): ReadingScore {
  const want = expected.lines;
  const got = result.lines;
  const n = want.length;
  const m = got.length;
  const right = (i: number, j: number) =>
    SCORED_FIELDS.length - fieldsOf(want[i] as CorpusLine, got[j] as ReadResult["lines"][number]).length;
  // best[i][j]: most fields right aligning want[i..] with got[j..].
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = best[i] as number[];
      const below = best[i + 1] as number[];
      row[j] = Math.max(below[j] as number, row[j + 1] as number, right(i, j) + (below[j + 1] as number));
    }
  let i = 0;
  let j = 0;
  let linesExact = 0;
  let fieldsRight = 0;
  let extra = 0;
  const wrong: string[] = [];
  while (i < n && j < m) {
    const here = (best[i] as number[])[j] as number;
    const matched = right(i, j);
    if (matched > 0 && here === matched + ((best[i + 1] as number[])[j + 1] as number)) {
      fieldsRight += matched;
      if (matched === SCORED_FIELDS.length) linesExact++;
      const line = want[i] as CorpusLine;
      const read = got[j] as ReadResult["lines"][number];
      for (const field of fieldsOf(line, read))
        wrong.push(`line ${i + 1} ${field}: read ${String(read[field])}, expected ${String(line[field])}`);
      i++;
      j++;
    } else if (here === ((best[i + 1] as number[])[j] as number)) {
      wrong.push(`line ${i + 1} (${(want[i] as CorpusLine).code}) missing`);
      i++;
    } else {
      wrong.push(`extra line read (${got[j]?.code ?? "no code"})`);
      extra++;
      j++;
    }
  }
  for (; i < n; i++) wrong.push(`line ${i + 1} (${(want[i] as CorpusLine).code}) missing`);
  for (; j < m; j++) {
    wrong.push(`extra line read (${got[j]?.code ?? "no code"})`);
    extra++;
  }
  return {
    expectedLines: n,
    linesExact,
    fieldsRight,
    fieldsTotal: SCORED_FIELDS.length * (n + extra),
    wrong,
  };
}

/** Sums scores (for a kind of document): accuracy = fieldsRight / fieldsTotal. */
export function sumScores(scores: readonly ReadingScore[]) {
  const sum = { expectedLines: 0, linesExact: 0, fieldsRight: 0, fieldsTotal: 0 };
  for (const s of scores) {
    sum.expectedLines += s.expectedLines;
    sum.linesExact += s.linesExact;
    sum.fieldsRight += s.fieldsRight;
    sum.fieldsTotal += s.fieldsTotal;
  }
  return { ...sum, accuracy: sum.fieldsTotal === 0 ? 1 : sum.fieldsRight / sum.fieldsTotal };
}
