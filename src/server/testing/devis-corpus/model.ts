import type { Basket } from "../../../shared/domain/out-of-pocket";

/**
 * The corpus's model: what a generated devis is (content, ground truth, layout), the seeded dice every
 * choice is drawn with, and the French amount format.
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

/** Thousands separator: space, no-break space, narrow no-break space, a point ("1.250,00") or none. */
export type AmountSeparator = " " | "\u00a0" | "\u202f" | "." | "";
export type FontName = "Helvetica" | "Times-Roman" | "Courier";

/** How the devis is drawn (drawn from the seed with the content; `devisPdf` only follows it). */
export interface CorpusLayout {
  font: FontName;
  fontSize: number;
  /** Thousands separator of the amounts; U+202F is drawn as a thin gap (no glyph in WinAnsi). */
  thousands: AmountSeparator;
  euroSign: boolean;
  /**
   * How the basket is printed: "1"/"2"/"3", words ("100 % Santé", "Maîtrisé", "Libre"), abbreviations
   * ("RAC 0", "Mod.", "Libre"), or "RAC 0" / "RAC modéré" / "RAC libre".
   */
  basketStyle: BasketStyle;
  /** How a BR/AMO of zero is printed. */
  zeroStyle: "0,00" | "NR" | "—";
  headers: Record<Column, string> & Partial<Record<ExtraColumn, string>>;
  /** The table's columns in print order: the seven read ones, and columns the reader must leave alone. */
  columns: TableColumn[];
  /** The header row forced on two text lines where a header has two words or more. */
  twoLineHeader: boolean;
  headerAlign: "left" | "center";
  /** Vertical alignment of the header cells (one-line headers centred between two lines). */
  headerVAlign: "top" | "middle";
  headerShade: boolean;
  /**
   * Table borders: none, horizontal rules, a full grid, dashed horizontal rules, or no rules with every
   * other row shaded.
   */
  rules: "none" | "rules" | "grid" | "dashed" | "zebra";
  /** A coloured band behind the table's header (its text then white), or none. */
  headerBand: { r: number; g: number; b: number } | null;
  /** Horizontal scale of every glyph: 1, or less for a condensed face. */
  scaleX: number;
  /** Vertical place of one-line cells in a row whose label wraps: at its top, or its middle. */
  cellVAlign: "top" | "middle";
  /** The act column's width at most (points), so that labels wrap; null: all the width left. */
  actMaxWidth: number | null;
  /** The total as one row under the table, or a boxed block of totals under its right side. */
  totals: "row" | "box";
  /** Lines on page 1 (the rest on page 2), or null for a one-page devis. */
  pageBreak: number | null;
  /** On page 2, the table's header printed again. */
  repeatHeader: boolean;
  basketAlign: "center" | "right";
  toothAlign: "left" | "center";
  /** Inner padding of the cells, in points. */
  pad: number;
  /** The header block: lines, in print order; `right` lines go to a second column beside the left ones. */
  headerLines: {
    text: string;
    bold: boolean;
    column: "left" | "right" | "center";
    /** A line of the patient's block (with the date), which a family may put beside the practice's. */
    patient?: boolean;
  }[];
  totalLabel: string;
  totalColumns: "fee" | "all";
  noise: { text: string; column: "left" | "right" }[];
  marginLeft: number;
  marginTop: number;
  /** Cells drawn row after row, or column after column (the text layer's order differs). */
  drawOrder: "rows" | "columns";
  /** Every glyph drawn on its own (some generators position each character). */
  glyphByGlyph: boolean;
  /** A footer at the bottom of the page ("Page 1/1"), or none; "{page}" and "{pages}" are replaced. */
  footer: string | null;
}

export interface CorpusDevis {
  seed: number;
  /** The layout family (the practice software it imitates), see families.ts. */
  family: FamilyName;
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
/**
 * Columns the reader must not take for a read one: what the AMO leaves ("Montant non remboursé", "Reste
 * à charge": fee − AMO) and the fee above the BR ("Dépassement": fee − BR).
 */
export const EXTRA_COLUMNS = ["unreimbursed", "rest", "excess"] as const;
export type ExtraColumn = (typeof EXTRA_COLUMNS)[number];
export type TableColumn = Column | ExtraColumn;
export type BasketStyle = "digit" | "words" | "abbrev" | "rac";

/** The layout families: each imitates one kind of practice software (families.ts). */
export const FAMILIES = [
  "classique",
  "code-dabord",
  "bandeau",
  "long-deux-pages",
  "grille-serif",
  "condense",
  "machine",
  "releve",
  "points",
  "plan-soins",
] as const;
export type FamilyName = (typeof FAMILIES)[number];

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

export class Dice {
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

const pad2 = (n: number) => String(n).padStart(2, "0");

/** "1 250,00 €" with the given thousands separator, with or without the euro sign. */
export function formatAmount(cents: number, thousands: AmountSeparator, euroSign: boolean): string {
  const euros = Math.floor(cents / 100);
  const rest = pad2(cents % 100);
  const grouped = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${grouped},${rest}${euroSign ? " €" : ""}`;
}
