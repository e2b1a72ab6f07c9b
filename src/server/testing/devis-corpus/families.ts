import { classicDevis } from "./content";
import {
  type BasketStyle,
  type Column,
  type CorpusDevis,
  type CorpusLayout,
  Dice,
  type ExtraColumn,
  type FamilyName,
  prng,
  type TableColumn,
} from "./model";

/**
 * The layout families of the corpus (issue 34). Each imitates one kind of practice software: its column
 * order and set (columns the reader must leave alone among them: "Montant non remboursé", "Reste à
 * charge", "Dépassement"), header wordings and abbreviations, basket notation, font (pdf-lib's standard
 * faces; a condensed face is a horizontal scale), borders, header band, totals block, thousands
 * separator, one or two pages, and where the patient's block stands. Within a family every choice is
 * still drawn from the seed; across families they differ in kind.
 *
 * The split (ADR 042): the reader may be tuned by looking at its failures on TUNED_FAMILIES only; on
 * HELD_OUT_FAMILIES it is only measured. Fixed here before any reader change of issue 34.
 */

export const TUNED_FAMILIES = [
  "classique",
  "code-dabord",
  "bandeau",
  "long-deux-pages",
  "grille-serif",
  // Held out at first, measured once (text PDFs: 96.0 % of fields, 306/309 lines found on seeds 1–60)
  // then looked at and tuned on: it counts as tuned since (ADR 042). "points" replaced it.
  "machine",
  // Likewise (text PDFs: 99.5 %, 207/208 lines found on seeds 1–60), replaced by "plan-soins".
  "releve",
] as const satisfies readonly FamilyName[];
export const HELD_OUT_FAMILIES = [
  "condense",
  "points",
  "plan-soins",
] as const satisfies readonly FamilyName[];

type Headers = Record<Column, string> & Partial<Record<ExtraColumn, string>>;

interface FamilyDraw {
  /** How many lines the devis has (null: the classic draw, 1–8). */
  lineCount: (dice: Dice) => number | null;
  layout: (dice: Dice, base: CorpusDevis) => CorpusLayout;
}

const pickHeaders = (dice: Dice, columns: TableColumn[], words: Record<TableColumn, readonly string[]>) =>
  Object.fromEntries(columns.map((c) => [c, dice.pick(words[c])])) as Headers;

/** The patient's block (with the date) beside the practice's, or under it. */
function placePatient(layout: CorpusLayout, beside: boolean): CorpusLayout["headerLines"] {
  return layout.headerLines.map((line) =>
    line.patient ? { ...line, column: beside ? "right" : "left" } : line,
  );
}

const FOOTERS = ["Page {page}/{pages}", "Page {page} sur {pages}", "{page}/{pages}"];

const FAMILY: Record<FamilyName, FamilyDraw> = {
  classique: { lineCount: () => null, layout: (_dice, base) => base.layout },

  /** Code first, the teeth after it, the basket at the end, what the AMO leaves in the last column. */
  "code-dabord": {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["code", "tooth", "act", "fee", "br", "amo", "unreimbursed", "basket"];
      if (dice.chance(0.4)) {
        columns.splice(columns.indexOf("basket"), 1);
        columns.splice(3, 0, "basket");
      }
      return {
        ...base.layout,
        font: "Helvetica",
        fontSize: dice.pick([8, 8.5, 9]),
        columns,
        headers: pickHeaders(dice, columns, {
          code: ["Code", "Code CCAM", "CCAM"],
          tooth: ["Dents", "Localisation", "Dent(s)"],
          act: ["Libellé", "Désignation de l'acte", "Libellé de l'acte"],
          basket: ["Panier", "Panier de soins", "Type de panier"],
          fee: ["Honoraires", "Montant", "Honoraires TTC"],
          br: ["Base remb.", "BRSS", "Base de remb."],
          amo: ["Part AMO", "Remb. AMO", "Remb. Sécu"],
          unreimbursed: ["Montant non remboursé", "Non remboursé", "Non remb. AMO"],
          rest: [],
          excess: [],
        }),
        basketStyle: dice.pick(["words", "abbrev"] as const),
        rules: dice.pick(["rules", "none"] as const),
        thousands: dice.pick([" ", "\u00a0"] as const),
        headerShade: false,
        headerLines: placePatient(base.layout, dice.chance(0.5)),
        totals: "row",
      };
    },
  },

  /** A coloured header band, shaded rows, the remainder at the end, a boxed block of totals. */
  bandeau: {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "act", "code", "basket", "fee", "br", "amo", "rest"];
      return {
        ...base.layout,
        font: dice.pick(["Times-Roman", "Helvetica"] as const),
        fontSize: dice.pick([8.5, 9, 9.5]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Dent", "N° dent", "Localisation"],
          act: ["Acte", "Nature de l'acte", "Acte réalisé"],
          code: ["Code", "Code acte"],
          basket: ["Panier", "Panier RAC"],
          fee: ["Honoraires", "Prix de vente"],
          br: ["Base de remboursement", "Base SS"],
          amo: ["Remboursement AMO", "Montant AMO"],
          rest: ["Reste à charge", "Reste à votre charge"],
          unreimbursed: [],
          excess: [],
        }),
        basketStyle: "rac",
        headerBand: dice.pick([
          { r: 0.12, g: 0.27, b: 0.52 },
          { r: 0.1, g: 0.45, b: 0.42 },
          { r: 0.42, g: 0.16, b: 0.3 },
        ]),
        headerShade: false,
        rules: "zebra",
        twoLineHeader: dice.chance(0.5),
        thousands: "\u00a0",
        totals: "box",
        headerLines: placePatient(base.layout, dice.chance(0.5)),
      };
    },
  },

  /** Long treatment plans: 9 to 16 lines over two pages, the header repeated or not, totals at the end. */
  "long-deux-pages": {
    lineCount: (dice) => dice.int(9, 16),
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "act", "basket", "fee", "br", "amo", "excess"];
      const n = base.lines.length;
      return {
        ...base.layout,
        font: "Helvetica",
        fontSize: dice.pick([8.5, 9, 9.5]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Dent", "N° dent"],
          code: ["Code", "Code CCAM"],
          act: ["Acte", "Description"],
          basket: ["Panier", "Panier de soins"],
          fee: ["Honoraires", "Honoraires (€)"],
          br: ["BR", "Base remb."],
          amo: ["AMO", "Montant AMO"],
          excess: ["Dépassement", "Dépassement d'honoraires"],
          unreimbursed: [],
          rest: [],
        }),
        rules: dice.pick(["dashed", "rules"] as const),
        thousands: dice.pick(["", " "] as const),
        pageBreak: n > 9 || dice.chance(0.7) ? dice.int(Math.ceil(n / 2), n - 1) : null,
        repeatHeader: dice.chance(0.5),
        pad: n > 9 ? dice.pick([4, 5, 6]) : 4,
        footer: dice.pick(FOOTERS),
        headerLines: placePatient(base.layout, dice.chance(0.5)),
      };
    },
  },

  /** Full grid, serif, abbreviated headers, the basket after the fee, labels wrapping in narrow rows. */
  "grille-serif": {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "act", "fee", "basket", "br", "amo"];
      return {
        ...base.layout,
        font: "Times-Roman",
        fontSize: dice.pick([8.5, 9, 9.5, 10]),
        scaleX: dice.pick([1, 0.88]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Dt", "Dent", "N° de dent"],
          code: ["Cot.", "Cotation", "Code"],
          act: ["Nature de l'acte", "Désignation"],
          fee: ["Hon.", "Honoraires", "Tarif"],
          basket: ["Panier", "Pan."],
          br: ["B.R.", "BR", "Base remb."],
          amo: ["R. AMO", "Remb. AMO", "AMO"],
          unreimbursed: [],
          rest: [],
          excess: [],
        }),
        basketStyle: dice.pick(["digit", "words"] as const),
        rules: "grid",
        thousands: "\u202f",
        cellVAlign: "middle",
        actMaxWidth: dice.int(110, 150),
        totals: dice.pick(["box", "row"] as const),
        headerLines: placePatient(base.layout, true),
      };
    },
  },

  /** Condensed sans: dashed rules, abbreviated baskets at the end, no thousands separator. */
  condense: {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "act", "fee", "br", "amo", "unreimbursed", "basket"];
      return {
        ...base.layout,
        font: "Helvetica",
        fontSize: dice.pick([8.5, 9, 9.5]),
        scaleX: dice.pick([0.78, 0.82, 0.85]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["N° dent", "Dent"],
          code: ["Code acte", "Code"],
          act: ["Désignation", "Acte"],
          fee: ["Honoraires", "Montant honoraires"],
          br: ["Base SS", "BR"],
          amo: ["AMO", "Remb. AMO"],
          unreimbursed: ["Montant non remboursé", "Non remboursé"],
          basket: ["Panier", "Type"],
          rest: [],
          excess: [],
        }),
        basketStyle: "abbrev" satisfies BasketStyle,
        rules: "dashed",
        headerBand: { r: 0.85, g: 0.86, b: 0.88 },
        headerShade: false,
        thousands: "",
        totals: "row",
        headerLines: placePatient(base.layout, dice.chance(0.5)),
      };
    },
  },

  /** Monospace, upper case, no borders, code before the tooth, one or two pages. */
  machine: {
    lineCount: (dice) => (dice.chance(0.3) ? dice.int(9, 12) : null),
    layout: (dice, base) => {
      const columns: TableColumn[] = ["code", "tooth", "act", "basket", "fee", "br", "amo", "rest"];
      const n = base.lines.length;
      return {
        ...base.layout,
        font: "Courier",
        fontSize: dice.pick([8, 8.5]),
        columns,
        headers: pickHeaders(dice, columns, {
          code: ["CODE", "CCAM"],
          tooth: ["DENT", "DENTS"],
          act: ["LIBELLE", "ACTE"],
          basket: ["PANIER"],
          fee: ["HONORAIRES", "HONOR."],
          br: ["BASE SS", "BR"],
          amo: ["REMB. AMO", "AMO"],
          rest: ["RESTE A CHARGE", "RESTE DU"],
          unreimbursed: [],
          excess: [],
        }),
        basketStyle: "digit",
        rules: "none",
        headerShade: false,
        thousands: "",
        euroSign: false,
        pageBreak: n >= 9 && dice.chance(0.7) ? dice.int(5, n - 1) : null,
        repeatHeader: true,
        footer: n >= 9 ? "Page {page}/{pages}" : base.layout.footer,
        totals: "row",
        headerLines: placePatient(base.layout, false),
      };
    },
  },

  /** A statement: localisation, the excess before the BR, long header wordings, a band and a boxed total. */
  releve: {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "act", "basket", "fee", "excess", "br", "amo"];
      return {
        ...base.layout,
        font: dice.pick(["Helvetica", "Times-Roman"] as const),
        fontSize: dice.pick([8, 8.5, 9]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Localisation", "Dents"],
          code: ["Code CCAM", "Acte CCAM"],
          act: ["Libellé de l'acte", "Nature de l'acte"],
          basket: ["Panier de soins", "Panier"],
          fee: ["Montant des honoraires", "Honoraires"],
          excess: ["Dépassement", "Dont dépassement"],
          br: ["Base de remb.", "Base de remboursement"],
          amo: ["Montant remboursé AMO", "Remboursement AMO"],
          unreimbursed: [],
          rest: [],
        }),
        basketStyle: dice.pick(["words", "rac"] as const),
        rules: "rules",
        headerBand: { r: 0.18, g: 0.42, b: 0.3 },
        headerShade: false,
        thousands: dice.pick([" ", "\u00a0"] as const),
        cellVAlign: "middle",
        twoLineHeader: true,
        totals: "box",
        headerLines: placePatient(base.layout, dice.chance(0.5)),
      };
    },
  },

  /** Points as thousands separators, the basket before the label, units in the headers, a full grid. */
  points: {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "basket", "act", "fee", "br", "amo"];
      return {
        ...base.layout,
        font: dice.pick(["Helvetica", "Times-Roman"] as const),
        fontSize: dice.pick([8.5, 9, 9.5]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Dent n°", "Dent"],
          code: ["Code", "Acte (CCAM)"],
          basket: ["Panier", "Panier 100 % Santé"],
          act: ["Libellé", "Soins proposés"],
          fee: ["Honoraires (€)", "Prix (€)"],
          br: ["BR (€)", "Base (€)"],
          amo: ["AMO (€)", "Remb. AMO (€)"],
          unreimbursed: [],
          rest: [],
          excess: [],
        }),
        basketStyle: dice.pick(["digit", "words"] as const),
        euroSign: false,
        thousands: ".",
        rules: "grid",
        headerShade: true,
        headerBand: null,
        totals: "row",
        totalColumns: "all",
        headerLines: placePatient(base.layout, true),
      };
    },
  },

  /** A treatment plan: wordings of its own, a light band, what the AMO leaves last, a boxed total. */
  "plan-soins": {
    lineCount: () => null,
    layout: (dice, base) => {
      const columns: TableColumn[] = ["tooth", "code", "act", "basket", "fee", "br", "amo", "unreimbursed"];
      return {
        ...base.layout,
        font: dice.pick(["Times-Roman", "Helvetica"] as const),
        fontSize: dice.pick([8.5, 9, 9.5, 10]),
        columns,
        headers: pickHeaders(dice, columns, {
          tooth: ["Dent", "Site"],
          code: ["Code", "Cotation CCAM"],
          act: ["Traitement", "Acte prévu"],
          basket: ["Panier", "Catégorie"],
          fee: ["Honoraires", "Tarif"],
          br: ["BR", "Base remb."],
          amo: ["AMO", "Remb. AMO"],
          unreimbursed: ["Non remboursé", "Montant non remboursé"],
          rest: [],
          excess: [],
        }),
        basketStyle: "words",
        thousands: " ",
        rules: "rules",
        headerBand: { r: 0.82, g: 0.87, b: 0.93 },
        headerShade: false,
        totals: "box",
        headerLines: placePatient(base.layout, true),
      };
    },
  },
};

/** The family's number in the seed of its content: two families never share a devis. */
const familySalt = (family: FamilyName) =>
  [...family].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** A deterministic devis of this family for this seed: content, ground truth and layout. */
export function makeFamilyDevis(seed: number, family: FamilyName): CorpusDevis {
  if (family === "classique") return classicDevis(seed);
  const draw = FAMILY[family];
  const dice = new Dice(prng((seed * 2_654_435_761 + familySalt(family)) >>> 0));
  const base = classicDevis((seed * 1_000_003 + familySalt(family)) >>> 0, draw.lineCount(dice) ?? undefined);
  return { ...base, family, layout: draw.layout(dice, base) };
}
