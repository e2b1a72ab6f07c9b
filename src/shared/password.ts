import { PASSWORD_MAX_LENGTH } from "./domain/limits";

/**
 * The password rule (CNIL, deliberation 2022-100, a service whose login is throttled): at least
 * 8 characters from 3 of the 4 classes (lower case, upper case, digit, symbol), or 12 characters
 * and more of any kind; and not a common password (zxcvbn with the common and French dictionaries:
 * a score under 2, or the whole password found in a dictionary). Login is not affected: only the
 * forms that set a password (sign-up, reset, change) apply it. See docs/decisions/017.
 */
export const PASSWORD_RULE = {
  minShort: 8,
  minClasses: 3,
  minLong: 12,
  minScore: 2,
} as const;

export const PASSWORD_RULE_HINT =
  "Au moins 8 caractères avec 3 types parmi minuscules, majuscules, chiffres et symboles, ou au moins 12 caractères de tout type. Un mot de passe courant ou facile à deviner est refusé.";

export const PASSWORD_MESSAGES = {
  required: "Veuillez choisir un mot de passe",
  tooShort: `Le mot de passe doit contenir au moins ${PASSWORD_RULE.minShort} caractères`,
  tooLong: `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`,
  classes:
    "Le mot de passe doit mélanger 3 types de caractères parmi minuscules, majuscules, chiffres et symboles, ou contenir au moins 12 caractères",
  common: "Ce mot de passe est trop courant ou trop facile à deviner\u202f: choisissez-en un autre",
} as const;

/** How many of the 4 classes (lower, upper, digit, symbol) the password uses. */
export function characterClasses(password: string): number {
  let n = 0;
  if (/\p{Ll}/u.test(password)) n++;
  if (/\p{Lu}/u.test(password)) n++;
  if (/\p{Nd}/u.test(password)) n++;
  if (/[^\p{L}\p{Nd}]/u.test(password)) n++;
  return n;
}

/** What a strength estimator (zxcvbn) says about a password. */
export interface PasswordEstimate {
  /** 0 (guessed at once) to 4. */
  score: number;
  /** The whole password is a dictionary entry (common passwords, words, names), maybe l33t or reversed. */
  dictionaryHit: boolean;
}

/**
 * The French messages for what the password lacks, empty when it follows the rule. Without an
 * estimate only the length and class rule is checked (the dictionaries load later on the client).
 */
export function passwordProblems(password: string, estimate?: PasswordEstimate | null): string[] {
  const length = [...password].length;
  if (length === 0) return [PASSWORD_MESSAGES.required];
  if (password.length > PASSWORD_MAX_LENGTH) return [PASSWORD_MESSAGES.tooLong];
  if (length < PASSWORD_RULE.minShort) return [PASSWORD_MESSAGES.tooShort];
  if (length < PASSWORD_RULE.minLong && characterClasses(password) < PASSWORD_RULE.minClasses)
    return [PASSWORD_MESSAGES.classes];
  if (estimate && (estimate.score < PASSWORD_RULE.minScore || estimate.dictionaryHit))
    return [PASSWORD_MESSAGES.common];
  return [];
}

export type PasswordLevel = 0 | 1 | 2 | 3 | 4;

/** The meter: a level 0–4 and its French label; never above 1 while the rule is not met. */
export function passwordStrength(
  password: string,
  estimate?: PasswordEstimate | null,
): { level: PasswordLevel; label: string; ok: boolean } {
  const ok = passwordProblems(password, estimate).length === 0;
  if (password.length === 0) return { level: 0, label: "Aucun mot de passe saisi", ok: false };
  if (!ok) return { level: 1, label: "Trop faible", ok };
  const score = estimate ? estimate.score : 2;
  if (score >= 4) return { level: 4, label: "Très robuste", ok };
  if (score === 3) return { level: 3, label: "Robuste", ok };
  return { level: 2, label: "Correct", ok };
}
