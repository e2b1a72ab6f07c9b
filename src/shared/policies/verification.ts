/**
 * Dentist verification (an admin checks the RPPS number and the practice address): the RPPS
 * number, the state derived from the profile (never stored twice) and what a verification request
 * still needs. Used by the server inside the transaction and by the profile page to enable
 * 'Demander une vérification'.
 */

export const VERIFICATION_STATES = ["none", "requested", "verified", "refused", "withdrawn"] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/**
 * 'verified' if is_verified, else 'requested' if a request is pending, else 'refused' when the last
 * request was refused with a reason (the dentist may ask again), else 'withdrawn' when the team
 * decided without a reason: it withdrew his verification (he may ask again), else 'none'.
 */
export function verificationStateOf(profile: {
  is_verified: boolean;
  verification_requested_at: Date | string | null;
  verification_refusal_reason?: string | null;
  verification_decided_at?: Date | string | null;
}): VerificationState {
  if (profile.is_verified) return "verified";
  if (profile.verification_requested_at) return "requested";
  if (profile.verification_refusal_reason) return "refused";
  if (profile.verification_decided_at) return "withdrawn";
  return "none";
}

/** The RPPS number without spaces (people often type it in groups). */
export function normalizeRpps(value: string): string {
  return value.replace(/\s+/g, "");
}

/**
 * An RPPS number (Répertoire partagé des professionnels de santé): exactly 11 digits whose last
 * one is the Luhn key of the first ten.
 */
export function isValidRpps(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < value.length; i += 1) {
    let digit = Number(value[value.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The Luhn key that completes ten digits into a valid RPPS number (tests, demo data). */
export function rppsWithKey(tenDigits: string): string {
  for (let key = 0; key <= 9; key += 1) {
    const candidate = `${tenDigits}${key}`;
    if (isValidRpps(candidate)) return candidate;
  }
  throw new Error("ten digits expected");
}

/** A French postcode: five digits. */
export function isValidPostcode(value: string): boolean {
  return /^\d{5}$/.test(value);
}

export type VerificationField = "rpps" | "practice_address" | "practice_postcode";

/**
 * What the team checks before verifying a dentist (D12): his RPPS number and his practice, whose
 * address patients are given with a confirmed appointment. Fixed while he is verified (ADR 075): a
 * change goes through the team, so the « Vérifié » badge never vouches for facts nobody checked.
 */
export const VERIFIED_FIELDS = [
  "rpps",
  "practice_address",
  "practice_postcode",
] as const satisfies readonly VerificationField[];

/** The RPPS number and practice as a screen shows them, what « Vérifier » sends back (ADR 076). */
export type VerifiedFacts = Record<VerificationField, string>;

/** A profile's RPPS number and practice as the admin's screens show and send them (none: ""). */
export function verifiedFactsOf(profile: Record<VerificationField, string | null>): VerifiedFacts {
  return {
    rpps: profile.rpps ?? "",
    practice_address: profile.practice_address ?? "",
    practice_postcode: profile.practice_postcode ?? "",
  };
}

export interface VerificationSubject {
  role: string | null;
  is_verified: boolean;
  verification_requested_at: Date | string | null;
  rpps: string | null;
  practice_address: string | null;
  practice_postcode: string | null;
}

/**
 * Why a dentist may not ask for verification now: already verified, already requested, or the saved
 * profile lacks the RPPS number, the practice address or its postcode (listed). Null when allowed.
 */
export function verificationRequestProblem(
  profile: VerificationSubject,
):
  | { kind: "not-dentist" }
  | { kind: "verified" }
  | { kind: "requested" }
  | { kind: "missing"; fields: VerificationField[] }
  | null {
  if (profile.role !== "dentist") return { kind: "not-dentist" };
  const state = verificationStateOf(profile);
  if (state === "verified") return { kind: "verified" };
  if (state === "requested") return { kind: "requested" };
  const fields = missingVerifiedFields(profile);
  return fields.length ? { kind: "missing", fields } : null;
}

/**
 * Which of VERIFIED_FIELDS the profile lacks (an RPPS number with a valid key, the practice address,
 * a five-digit postcode): the team verifies only a dentist who gave all three.
 */
export function missingVerifiedFields(
  profile: Pick<VerificationSubject, VerificationField>,
): VerificationField[] {
  const fields: VerificationField[] = [];
  if (!profile.rpps || !isValidRpps(profile.rpps)) fields.push("rpps");
  if (!profile.practice_address?.trim()) fields.push("practice_address");
  if (!profile.practice_postcode || !isValidPostcode(profile.practice_postcode))
    fields.push("practice_postcode");
  return fields;
}
