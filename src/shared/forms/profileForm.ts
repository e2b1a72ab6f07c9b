import { GEO_MESSAGES, POSTAL_CODE_PATTERN } from "../domain/geo";
import { isPlausiblePhone, PHONE_MESSAGES } from "../domain/phone";
import type { VerificationField } from "../policies/verification";
import { PROFILE_MESSAGES, type Profile } from "../schemas/profile";

/*
 * The 'Mon profil' forms of patients and dentists: the saved profile as the form's text values,
 * and the messages (the shared schema's, or the API's `fields`) placed under the field they are about.
 * Pure: no DOM, no React.
 */

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Field → first message, for the fields of the form (`lines.0.x` counts for `lines`). */
export function fieldErrorsOf<F extends string>(
  fields: readonly F[],
  entries: Iterable<readonly [string, string]>,
): FieldErrors<F> {
  const known = new Set<string>(fields);
  const errors: FieldErrors<F> = {};
  for (const [path, message] of entries) {
    const field = path.split(".")[0] ?? "";
    if (known.has(field)) errors[field as F] ??= message;
  }
  return errors;
}

// --- The patient's form ---------------------------------------------------------------------

export const PATIENT_PROFILE_FIELDS = [
  "full_name",
  "phone_number",
  "city",
  "postal_code",
  "birth_date",
] as const;
export type PatientProfileValues = Record<(typeof PATIENT_PROFILE_FIELDS)[number], string>;

export function patientProfileValues(profile: Profile): PatientProfileValues {
  return {
    full_name: profile.full_name,
    phone_number: profile.phone_number ?? "",
    city: profile.city ?? "",
    postal_code: profile.postal_code ?? "",
    birth_date: profile.birth_date ?? "",
  };
}

/**
 * What the patient's form refuses before asking the server, in the form's order: no name, a phone
 * number that cannot be one, a postal code not of 5 digits.
 */
export function patientProfileProblem(
  values: PatientProfileValues,
): { field: keyof PatientProfileValues; message: string } | null {
  if (!values.full_name.trim()) return { field: "full_name", message: PROFILE_MESSAGES.nameRequired };
  const phone = values.phone_number.trim();
  if (phone && !isPlausiblePhone(phone)) return { field: "phone_number", message: PHONE_MESSAGES.invalid };
  const postalCode = values.postal_code.trim();
  if (postalCode && !POSTAL_CODE_PATTERN.test(postalCode)) {
    return { field: "postal_code", message: GEO_MESSAGES.postalCodeInvalid };
  }
  return null;
}

// --- The dentist's form ---------------------------------------------------------------------

export interface DentistProfileValues {
  full_name: string;
  phone_number: string;
  city: string;
  bio: string;
  specialties: string[];
  rpps: string;
  practice_address: string;
  practice_postcode: string;
}

export const DENTIST_PROFILE_FIELDS = [
  "full_name",
  "phone_number",
  "city",
  "bio",
  "specialties",
  "rpps",
  "practice_address",
  "practice_postcode",
] as const satisfies ReadonlyArray<keyof DentistProfileValues>;

export function dentistProfileValues(profile: Profile): DentistProfileValues {
  return {
    full_name: profile.full_name,
    phone_number: profile.phone_number ?? "",
    city: profile.city ?? "",
    bio: profile.bio,
    specialties: profile.specialties,
    rpps: profile.rpps ?? "",
    practice_address: profile.practice_address ?? "",
    practice_postcode: profile.practice_postcode ?? "",
  };
}

const MISSING_LABELS: Record<VerificationField, string> = {
  rpps: "votre numéro RPPS",
  practice_address: "l'adresse de votre cabinet",
  practice_postcode: "son code postal",
};

/** "a", "a et b", "a, b et c". */
export function listFr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} et ${items.at(-1)}`;
}

/** What a dentist must still give before asking for a verification, or what they may do. */
export function verificationHelp(missing: readonly VerificationField[]): string {
  return missing.length
    ? `Pour demander une vérification, renseignez et enregistrez ${listFr(missing.map((f) => MISSING_LABELS[f]))}.`
    : "Votre numéro RPPS et l'adresse de votre cabinet sont enregistrés : vous pouvez demander une vérification.";
}
