/** Amounts are integer cents; shown in fr-FR euros ("1 234,50 €"). */
const EUROS = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

export function formatEuros(cents: number): string {
  return EUROS.format(cents / 100);
}

/**
 * Parses what a person types as an amount in euros: "1234", "1 234,50", "1234.5", "1 234,50 €".
 * Returns cents, or null when it is not a positive amount with at most two decimals.
 */
export function parseEuros(input: string): number | null {
  const cleaned = input.replace(/[\s\u00a0\u202f€]/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const cents = Math.round(Number(cleaned) * 100);
  return Number.isSafeInteger(cents) && cents > 0 ? cents : null;
}
