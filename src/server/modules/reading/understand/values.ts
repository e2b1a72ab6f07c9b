import { ACTS, actByCode } from "../../../../shared/domain/acts";
import { isFdiTooth } from "../../../../shared/domain/offers";
import { AMO_RATE, type Basket } from "../../../../shared/domain/out-of-pocket";

/**
 * Reading one cell's text into a value: French amounts, CCAM codes (with OCR repairs checked against the
 * reference table), FDI teeth and baskets. Pure functions of strings.
 */

/** Lower-case, accents removed, curly apostrophes straightened: "Désignation" → "designation". */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .replace(/[’‘`´]/g, "'")
    .toLowerCase();
}

/** Every kind of space a devis or OCR may put between digits. */
const SPACES = /[\s\u00a0\u202f\u2009\u2007]/g;

/** BR/AMO written as "not reimbursed": NR, a dash. */
export function isNoAmount(text: string): boolean {
  const t = text.replace(SPACES, "").replace(/€$/, "");
  return /^(?:NR|N\.R\.?|nr|[-—–_]+|0)$/.test(t);
}

/** OCR confusions of digits inside an amount. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: "0",
  o: "0",
  D: "0",
  Q: "0",
  I: "1",
  l: "1",
  "|": "1",
  i: "1",
  B: "8",
  S: "5",
  s: "5",
  Z: "2",
  G: "6",
};

/** Lookalike letters of a text read as the digits they stand for ("O31" → "031"). */
export function digitsRepaired(text: string): string {
  return text.replace(/[OoDQIl|iBSsZG]/g, (c) => DIGIT_LOOKALIKES[c] ?? c);
}

/**
 * An amount in French format, in cents: "1 250,00 €", "1250,00", "1.250,00", "72.00" (OCR), "120 €".
 * null when the text is not an amount.
 */
export function parseAmount(text: string, options: { centsImplied?: boolean } = {}): number | null {
  let t = text.replace(SPACES, "");
  t = t.replace(/(?:€|EUR|euros?|E)\.?$/i, "");
  if (!t) return null;
  if (!/^[\d.,]+$/.test(t)) {
    // Only digits and lookalikes mixed with at least two real digits.
    if ((t.match(/\d/g) ?? []).length < 2) return null;
    t = digitsRepaired(t);
    if (!/^[\d.,]+$/.test(t)) return null;
  }
  let m = /^(\d{1,3}(?:[.,]\d{3})*|\d+)[,.](\d{2})$/.exec(t);
  if (m?.[1] && m[2]) return Number(m[1].replace(/[.,]/g, "")) * 100 + Number(m[2]);
  // OCR loses commas: in a table's amount cell, "194500" is 1 945,00 (every amount there has cents).
  if (options.centsImplied && /^\d{3,}$/.test(t)) return Number(t);
  m = /^(\d{1,3}(?:\.\d{3})+|\d+)$/.exec(t);
  if (m?.[1]) return Number(m[1].replace(/\./g, "")) * 100;
  // "125,0" (a digit lost): tenths.
  m = /^(\d+),(\d)$/.exec(t);
  if (m?.[1] && m[2]) return Number(m[1]) * 100 + Number(m[2]) * 10;
  return null;
}

/** A word that can be a piece of an amount ("1", "250,00", "€", "1.250,00"). */
export function looksNumeric(text: string): boolean {
  const t = text.replace(SPACES, "");
  return /^[\d.,]*\d[\d.,]*€?$/.test(t);
}

const LETTER_FOR: Record<string, string> = { "0": "O", "1": "I", "8": "B", "5": "S", "2": "Z", "6": "G" };

/** A CCAM code read: `repaired` when OCR confusions were fixed to reach a code of the reference table. */
export interface CodeRead {
  code: string;
  repaired: boolean;
  known: boolean;
}

/**
 * A CCAM code (4 letters + 3 digits) from a cell's text. A code of the right shape is kept as read
 * (a free line when it is not in the table); a repair of lookalike characters (0→O… in the letters,
 * O→0… in the digits) is kept when the repaired code is in the reference table, or when only digits
 * were repaired, the letters read as letters, at least one digit read as a digit, and no code of the
 * table is one character away. A missing
 * character is not repaired; an extra one only where OCR doubles a zero ("HBLDO031", "HBLD0O73"), and
 * only when dropping it gives a code of the table.
 */
export function readCode(text: string): CodeRead | null {
  // Punctuation OCR glues to the code ("—HBLDO9O", "HBLD634,") is not a character of it.
  const t = text.replace(/[\s._\-—–|:;,'"“”‘’()[\]]/g, "");
  if (t.length === 8) return doubledZero(t);
  if (t.length !== 7) return null;
  const upper = t.toUpperCase();
  if (/^[A-Za-z]{4}\d{3}$/.test(t)) return { code: upper, repaired: false, known: !!actByCode(upper) };
  const letters = t
    .slice(0, 4)
    .toUpperCase()
    .replace(/[0-9]/g, (c) => LETTER_FOR[c] ?? c);
  const digits = digitsRepaired(t.slice(4));
  const repaired = `${letters}${digits}`;
  if (!/^[A-Z]{4}\d{3}$/.test(repaired)) return null;
  if (actByCode(repaired)) return { code: repaired, repaired: true, known: true };
  // A code outside the table (a free line: "LBMPO01" for the implant abutment LBMP001): its four letters
  // read as capitals (a small letter in a code is a garbled one) and a real digit among the last three — the CCAM shape is then plain, and only the
  // digits' lookalikes are repaired, flagged (`repaired`).
  // Not when a code of the table is one character away ("HBLD4S6": HBLD486 or HBLD456?): OCR garbled
  // that code more likely, and reading its cell again can tell.
  if (/^[A-Z]{4}/.test(t) && /\d/.test(t.slice(4)) && !nearTableCode(repaired))
    return { code: repaired, repaired: true, known: false };
  return null;
}

/**
 * The digits a character read in one of a code's three digit places may stand for: itself when a digit,
 * else the digits OCR mistakes for that letter or sign in the fonts devis use ("HBLDOSO" for HBLD090,
 * "HBLD7SS" or "HBLD78$" for HBLD785: an 8 or a 9 read as an S, as well as a 5).
 */
const DIGITS_FOR: Record<string, string> = {
  O: "0689",
  o: "0689",
  D: "0",
  Q: "09",
  U: "0",
  C: "06",
  S: "3589",
  s: "3589",
  $: "58",
  B: "368",
  G: "069",
  g: "69",
  q: "9",
  Z: "27",
  z: "27",
  I: "17",
  l: "17",
  i: "1",
  L: "1",
  J: "1",
  T: "17",
  A: "4",
  E: "38",
  b: "6",
};

/**
 * Whether `text` (a word of 7 characters once glued punctuation is dropped) may be `code` garbled by OCR
 * in its digits: its four letters read as the code's (digits read for lookalike letters, "H8LD",
 * allowed), each of its last three a digit of the code's, or a letter or sign OCR reads for that digit
 * — but for `misread` of them, read as another digit ("HBLD931" for HBLD031).
 * What decides between the codes it may be is the row's own figures (parse.ts resolveCode).
 */
export function mayBeCode(text: string, code: string, misread = 0): boolean {
  const t = text.replace(/[\s._\-—–|:;,'"“”‘’()[\]]/g, "");
  if (t.length !== 7) return false;
  const letters = t
    .slice(0, 4)
    .toUpperCase()
    .replace(/[0-9]/g, (c) => LETTER_FOR[c] ?? c);
  if (letters !== code.slice(0, 4)) return false;
  const wrong = [...t.slice(4)].filter((c, i) => {
    const digit = code[4 + i] as string;
    return c !== digit && !(DIGITS_FOR[c] ?? "").includes(digit);
  });
  return wrong.length <= misread;
}

/** A code of the act table one character away from `code`. */
function nearTableCode(code: string): boolean {
  return ACTS.some((act) => [...act.code].filter((c, i) => c !== code[i]).length === 1);
}

function doubledZero(t: string): CodeRead | null {
  for (let i = 4; i < 7; i += 1) {
    if (!/[0Oo]/.test(t[i] ?? "") || !/[0Oo]/.test(t[i + 1] ?? "")) continue;
    const read = readCode(t.slice(0, i) + t.slice(i + 1));
    if (read?.known) return { ...read, repaired: true };
  }
  return null;
}

/** Whether a word has the shape of a code, possibly with OCR confusions (for finding a misplaced code). */
export function codeShaped(text: string): boolean {
  return readCode(text) !== null;
}

/** An FDI tooth number (11–48) from a cell, with digit lookalikes repaired; null otherwise. */
export function readTooth(text: string): { tooth: number; repaired: boolean } | null {
  const t = text.replace(SPACES, "").replace(/^[[\]“”"'‘’(){}|_—–-]+|[[\]“”"'‘’(){}|_—–.,:;-]+$/g, "");
  if (!t) return null;
  let repaired = false;
  let digits = t;
  if (!/^\d{2}$/.test(t)) {
    digits = digitsRepaired(t);
    repaired = true;
  }
  if (!/^\d{2}$/.test(digits)) return null;
  const n = Number(digits);
  return isFdiTooth(n) ? { tooth: n, repaired } : null;
}

/**
 * A basket cell: "1"/"2"/"3" or its words (100 % Santé, RAC 0, maîtrisé, libre), or as practice software
 * abbreviates them ("RAC modéré", "Mod.", "RAC libre").
 */
export function readBasket(text: string): Basket | null {
  const t = fold(text).replace(SPACES, "");
  if (!t) return null;
  if (/^[1il|]$/.test(t)) return "100_sante";
  if (t === "2" || t === "z") return "maitrise";
  if (t === "3") return "libre";
  if (/100%?sante|rac[0o]|^100%?$|sante/.test(t)) return "100_sante";
  if (/maitris|moder|^(?:rac)?mod\.?$/.test(t)) return "maitrise";
  if (/libre|^[l1|i]?[iu]?bres?$/.test(t)) return "libre";
  return null;
}

/** The basket words of a row's text, when they appear spelled out. */
export function basketWord(text: string): boolean {
  const t = fold(text);
  return /^(?:100|%|100%|sante|rac|rac[0o]|maitrises?|moderes?|mod\.?|libres?|[l1|i]?[iu]?bres?|tarifs?)$/.test(
    t,
  );
}

/** The AMO of a BR (60 %, to the cent): what the reading checks a read AMO against. */
export const amoOf = (br: number) => Math.round(br * AMO_RATE);

/** An AMO is 60 % of its BR, give or take a cent of rounding. */
export const amoFits = (amo: number, br: number) => Math.abs(amo - amoOf(br)) <= 1;
