import {
  ACTS,
  type ActTerms,
  actFitsTooth,
  ceilingOn,
  TOOTH_GROUPS,
  termsOn,
} from "../../../shared/domain/acts";
import type { Basket } from "../../../shared/domain/out-of-pocket";
import {
  COLUMNS,
  type Column,
  type CorpusDevis,
  type CorpusLayout,
  type CorpusLine,
  Dice,
  FREE_ACTS,
  formatAmount,
  HEADER_SYNONYMS,
  prng,
} from "./model";

/**
 * The content of a generated devis (acts, fees, people, header and noise lines) and the "classique"
 * family's layout, all drawn from the seed.
 */

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
export const CITIES = [
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
export const TOTAL_LABELS = ["Total", "TOTAL", "Total des honoraires"];

export const pad2 = (n: number) => String(n).padStart(2, "0");
export const frDate = (day: string) => {
  const [y, m, d] = day.split("-");
  return `${d}/${m}/${y}`;
};

// ---------------------------------------------------------------------------------------------------
// Amounts

export const BASKET_DIGITS: Record<Basket, string> = { "100_sante": "1", maitrise: "2", libre: "3" };
export const BASKET_WORDS: Record<Basket, readonly string[]> = {
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

export function drawLines(dice: Dice, day: string, lineCount?: number): CorpusLine[] {
  const drawn = dice.pick([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8]);
  const count = lineCount ?? drawn;
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

/**
 * The "classique" devis for this seed: content, ground truth and layout (the corpus's first family, issue
 * 17). The other families start from it (`lineCount` then sets the number of lines) and redraw the layout.
 */
export function classicDevis(seed: number, lineCount?: number): CorpusDevis {
  const dice = new Dice(prng(seed));
  const year = dice.pick([2024, 2025, 2026, 2026]);
  const month = dice.int(1, year === 2026 ? 11 : 12);
  const day = `${year}-${pad2(month)}-${pad2(dice.int(1, 28))}`;
  const lines = drawLines(dice, day, lineCount);

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
  // The patient's block beside the practice's (two columns) or under it; families.ts may move it.
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
    { text: `${patientStyle} : ${patient_name}`, bold: false, column: right, patient: true },
  ];
  if (dice.chance(0.3))
    patientBlock.push({
      text: `Date de naissance : ${pad2(dice.int(1, 28))}/${pad2(dice.int(1, 12))}/${dice.int(1940, 2005)}`,
      bold: false,
      column: right,
      patient: true,
    });
  const dateLine = {
    text: dice.pick([`Date du devis : ${frDate(day)}`, `Le ${frDate(day)}`, `Devis du ${frDate(day)}`]),
    bold: false,
    column: right,
    patient: true,
  };
  if (dice.chance(0.3))
    patientBlock.push({
      text: `Devis n° ${year}-${String(dice.int(1, 9999)).padStart(4, "0")}`,
      bold: false,
      column: right,
      patient: true,
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
    columns: [...COLUMNS],
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
    headerBand: null,
    scaleX: 1,
    cellVAlign: "top",
    actMaxWidth: null,
    totals: "row",
    pageBreak: null,
    repeatHeader: false,
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
    family: "classique",
    day,
    lines,
    total_cents: lines.reduce((sum, line) => sum + line.fee_cents, 0),
    patient_name,
    practitioner_name: `${drFirst} ${drLast}`,
    practitioner_number,
    layout,
  };
}
