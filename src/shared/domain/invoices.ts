/**
 * Sourio's own invoices (issue 35, ADR 045): the figures and the legal wording, in one place for the
 * server (the PDF, the Factur-X XML, the register) and the client (the lists).
 */

/** French standard VAT rate (CGI art. 278), in basis points: 2000 = 20 %. */
export const VAT_RATE_BP = 2000;

/** The fixed recovery fee owed by a business paying late (Code de commerce L441-10, D441-5): 40 €. */
export const RECOVERY_FEE_CENTS = 4000;

/**
 * The late-payment penalty rate printed on every invoice (L441-10: at least three times the legal
 * interest rate; without a stipulation, the ECB's refinancing rate plus 10 points).
 */
export const LATE_PENALTY_TEXT =
  "En cas de retard de paiement, pénalités au taux de refinancement de la Banque centrale européenne majoré de 10 points, exigibles de plein droit dès le lendemain de l'échéance";

/** Payment terms: the subscription is paid when the invoice is issued, by the registered means. */
export const PAYMENT_TERMS_TEXT =
  "Payée à l'émission par le moyen de paiement enregistré (carte bancaire ou prélèvement SEPA). Pas d'escompte pour paiement anticipé.";

/** The nature of what is sold (242 nonies A: services, not goods). */
export const NATURE_TEXT = "Prestation de services";

export type InvoiceKind = "invoice" | "credit_note";

export const INVOICE_KIND_LABELS: Record<InvoiceKind, string> = {
  invoice: "Facture",
  credit_note: "Avoir",
};

/** The printed number of the n-th document of a series: F-000001, AV-000001. */
export function invoiceNumber(kind: InvoiceKind, sequence: number): string {
  return `${kind === "invoice" ? "F" : "AV"}-${String(sequence).padStart(6, "0")}`;
}

export interface InvoiceAmounts {
  htCents: number;
  vatRateBp: number;
  vatCents: number;
  ttcCents: number;
}

/**
 * The VAT and the total of an amount before tax: VAT = HT × rate, rounded to the cent (half away from
 * zero), TTC = HT + VAT (EN 16931 BR-CO-17 and BR-CO-15). 89,00 € HT at 20 % → 17,80 € of VAT, 106,80 € TTC.
 */
export function amountsOf(htCents: number, vatRateBp: number = VAT_RATE_BP): InvoiceAmounts {
  if (!Number.isSafeInteger(htCents) || htCents <= 0) throw new Error("amount before tax: positive cents");
  // Integer arithmetic: cents × basis points / 10 000, rounded half up (amounts are positive).
  const vatCents = Math.floor((htCents * vatRateBp + 5000) / 10_000);
  return { htCents, vatRateBp, vatCents, ttcCents: htCents + vatCents };
}

/**
 * The amounts of a total paid, VAT included (what the payment provider charged): the HT whose VAT, as
 * `amountsOf` rounds it, gives that total — 106,80 € TTC → 89,00 € HT + 17,80 €; 89,00 € TTC → 74,17 € HT
 * + 14,83 €. A few totals no HT reaches (VAT moves by 2 cents between two HT): the nearest HT below, its
 * total a cent short (`exact: false`, for the caller to report).
 */
export function amountsOfTotal(
  ttcCents: number,
  vatRateBp: number = VAT_RATE_BP,
): InvoiceAmounts & { exact: boolean } {
  if (!Number.isSafeInteger(ttcCents) || ttcCents <= 0) throw new Error("total paid: positive cents");
  const guess = Math.round((ttcCents * 10_000) / (10_000 + vatRateBp));
  for (const ht of [guess, guess - 1, guess + 1]) {
    if (ht <= 0) continue;
    const amounts = amountsOf(ht, vatRateBp);
    if (amounts.ttcCents === ttcCents) return { ...amounts, exact: true };
  }
  let ht = Math.max(1, guess + 1);
  while (ht > 1 && amountsOf(ht, vatRateBp).ttcCents > ttcCents) ht -= 1;
  return { ...amountsOf(ht, vatRateBp), exact: false };
}

/** "20 %" for 2000 basis points, "5,5 %" for 550. */
export function formatVatRate(vatRateBp: number): string {
  return `${(vatRateBp / 100).toLocaleString("fr-FR", { maximumFractionDigits: 2 })} %`;
}

/** A SIREN without spaces (people type it in groups of three). */
export function normalizeSiren(value: string): string {
  return value.replace(/[\s\u00a0\u202f.]+/g, "");
}

/** A SIREN: nine digits whose Luhn sum is a multiple of 10 (INSEE). */
export function isValidSiren(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i += 1) {
    let digit = Number(value[8 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The French VAT number of a SIREN: FR, a two-digit key, the SIREN (key = (12 + 3 × (SIREN mod 97)) mod 97). */
export function vatNumberOf(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, "0")}${siren}`;
}

/** Whether a French VAT number is well formed and its key matches its SIREN. */
export function isValidFrenchVatNumber(value: string): boolean {
  const match = /^FR(\d{2})(\d{9})$/.exec(value);
  if (!match) return false;
  return isValidSiren(match[2] as string) && vatNumberOf(match[2] as string) === value;
}

/** The seller's identity as printed on every invoice (from the settings, copied into each invoice). */
export interface SellerIdentity {
  name: string;
  /** Street, then postcode and city. */
  address: string;
  postalCode: string;
  city: string;
  siren: string;
  /** "SAS au capital de 10 000 €". */
  legalForm: string;
  capital: string;
  /** "RCS Paris 123 456 789". */
  rcs: string;
  vatNumber: string;
  /** True when these are the development defaults, not a real identity: the PDF says so. */
  development: boolean;
}

/** The buyer as printed on the invoice (from the dentist's billing profile). */
export interface BuyerIdentity {
  name: string;
  address: string;
  postalCode: string;
  city: string;
  /** Null only when the dentist had not given a billing profile (then the practice's address is used). */
  siren: string | null;
}
