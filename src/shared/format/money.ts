/** Amounts are integer cents; shown in fr-FR euros ("1 234,50 €"). */
const EUROS = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

export function formatEuros(cents: number): string {
  return EUROS.format(cents / 100);
}

/** Spaces of every kind (the thousands of "1 234,50") and the euro sign, left out of an amount. */
const SPACES_AND_EURO = /[\s\u00a0\u202f€]/g;

/**
 * Dots that can only group thousands: groups of exactly three digits before a decimal comma
 * ("1.250,50", "12.500,00"), or several such groups ("1.250.000"). One dot and no comma ("1.250",
 * "1.25", "1250.5") stays a decimal point: "1.250" is then refused (three decimals), never read as
 * 1 250 €.
 */
const DOT_THOUSANDS = /^\d{1,3}(?:\.\d{3})+,\d{1,2}$|^\d{1,3}(?:\.\d{3}){2,}$/;

/**
 * Reads what a person types as an amount in euros, zero included: "1234", "1 234,50", "1234.5",
 * "1 234,50 €", "1.234,50", "1.234.000", "0", "0,00". Returns cents, or null when it is not an
 * amount (a sign, letters, more than two decimals, an ambiguous dot).
 */
export function readEuros(input: string): number | null {
  let text = input.replace(SPACES_AND_EURO, "");
  if (DOT_THOUSANDS.test(text)) text = text.replaceAll(".", "");
  const cleaned = text.replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const cents = Math.round(Number(cleaned) * 100);
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Whether what a person typed is an amount but for its cents: more than two decimals after a comma
 * (« 1 250,505 »), or more than three after a dot (« 1250.5055 »; three may be thousands).
 */
export function hasTooManyDecimals(input: string): boolean {
  const text = input.replace(SPACES_AND_EURO, "");
  return /^\d+,\d{3,}$/.test(text) || /^\d+\.\d{4,}$/.test(text);
}

/**
 * Parses what a person types as an amount in euros (as `readEuros` reads it). Returns cents, or
 * null when it is not a positive amount with at most two decimals: zero is null too (`readEuros`
 * tells zero apart, to say "greater than 0" rather than "not an amount").
 */
export function parseEuros(input: string): number | null {
  const cents = readEuros(input);
  return cents !== null && cents > 0 ? cents : null;
}
