/**
 * The date of the devis, as printed ("Date du devis : 15/12/2025", "Fait à Lyon, le 15 décembre 2025",
 * "Devis du 15.12.2025"): it chooses the tariff period the lines are checked and estimated with (a devis
 * dated 2025 is estimated with 2025's baskets and ceilings). A birth date is never taken for it.
 */

const MONTHS = [
  "janvier",
  "fevrier",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "aout",
  "septembre",
  "octobre",
  "novembre",
  "decembre",
];

const NUMERIC = /(?<!\d)(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4})(?!\d)/;
const WORDS = /(?<!\d)(\d{1,2})(?:er)?\s+([a-z]+)\s+(\d{4})(?!\d)/;
/** Lines that name the devis's date, best first. */
const CUES = [/\bdevis\b/, /\bdate\b/, /\bfait\b/, /\ble\b/, /\bedite\b/];
/** Lines whose date is something else: a birth date, a validity end, an appointment. */
const NOT_THE_DEVIS = /\b(?:nee?|naissance|ne\(e\)|valable\s+jusqu|expire|rendez|rdv)\b/;

const plain = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");

const pad = (n: number) => String(n).padStart(2, "0");

/** 'YYYY-MM-DD' of a real calendar day between 2015 and 2099, else null. */
function isoDay(year: number, month: number, day: number): string | null {
  if (year < 2015 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function dateIn(line: string): string | null {
  const numeric = NUMERIC.exec(line);
  if (numeric) return isoDay(Number(numeric[3]), Number(numeric[2]), Number(numeric[1]));
  const words = WORDS.exec(line);
  if (words) {
    const month = MONTHS.indexOf(words[2] ?? "");
    if (month >= 0) return isoDay(Number(words[3]), month + 1, Number(words[1]));
  }
  return null;
}

/** The devis's date found in its text lines ('YYYY-MM-DD'), or null. */
export function findQuoteDate(lines: readonly string[]): string | null {
  const candidates = lines
    .map(plain)
    .filter((line) => !NOT_THE_DEVIS.test(line))
    .map((line) => ({ line, day: dateIn(line) }))
    .filter((c): c is { line: string; day: string } => c.day !== null);
  for (const cue of CUES) {
    const found = candidates.find((c) => cue.test(c.line));
    if (found) return found.day;
  }
  return candidates[0]?.day ?? null;
}
