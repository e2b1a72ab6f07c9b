/**
 * A phone number a person types (dentist sign-up, « Mon profil »): French (06 12 34 56 78,
 * 06.12.34.56.78) or international (+33 6 12 34 56 78, +33 (0)6 12 34 56 78). Kept as typed.
 */

/** Longer than any number written with its spaces and signs: refused before it is read. */
export const PHONE_MAX_LENGTH = 30;
/** A French number has 10 digits; E.164 allows 15 at most. */
export const PHONE_MIN_DIGITS = 10;
export const PHONE_MAX_DIGITS = 15;

export const PHONE_MESSAGES = {
  invalid: "Ce numéro de téléphone n'est pas valide.",
} as const;

/** Digits, with spaces (no-break ones too), dots, dashes and parentheses between them, and a leading « + ». */
const PHONE_CHARACTERS = /^\+?[0-9 \u00a0\u202f.()-]+$/;

/** Whether a trimmed text can be a phone number: its characters, and 10 to 15 digits. */
export function isPlausiblePhone(text: string): boolean {
  if (text.length > PHONE_MAX_LENGTH || !PHONE_CHARACTERS.test(text)) return false;
  const digits = text.replace(/[^0-9]/g, "").length;
  return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
}
