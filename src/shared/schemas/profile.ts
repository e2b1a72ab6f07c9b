import { z } from "zod";
import { GEO_MESSAGES, POSTAL_CODE_PATTERN } from "../domain/geo";
import { isPlausiblePhone, PHONE_MAX_LENGTH, PHONE_MESSAGES } from "../domain/phone";
import { ROLES } from "../domain/roles";
import { SPECIALTIES_MAX, SPECIALTY_MAX_LENGTH } from "../domain/specialties";
import { isValidPostcode, isValidRpps, normalizeRpps, VERIFICATION_STATES } from "../policies/verification";
import { subscriptionSummarySchema } from "./billing";
import { requiredText } from "./common";

/** A profile as the API returns it (one per account, same id: the `profiles` table). */
/**
 * The e-mails one may stop (ADR 081), each on by default: messages left unread in a conversation,
 * a patient's reminders (appointments; offers about to expire, ADR 087), reviews (a patient's invitation, a dentist's new review), a
 * dentist's morning e-mail of new requests (ADR 086). The others are the service itself and always go.
 */
const emailPreference = z.boolean({ error: "Choisissez oui ou non." });
export const emailPreferencesSchema = z.object({
  messages: emailPreference,
  reminders: emailPreference,
  reviews: emailPreference,
  new_requests: emailPreference,
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;
export type EmailPreference = keyof EmailPreferences;

/** The profile's « Notifications » section (its anchor), where the e-mails one may stop link to. */
export const EMAIL_PREFERENCES_ANCHOR = "notifications";
export const emailPreferencesPath = (area: "patient" | "dentist") =>
  `/${area}/profile#${EMAIL_PREFERENCES_ANCHOR}`;

/** PATCH /api/me/email-preferences: the preferences sent change, the others stay. */
export const emailPreferencesUpdateSchema = emailPreferencesSchema.partial();
export type EmailPreferencesUpdate = z.infer<typeof emailPreferencesUpdateSchema>;

export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** null: an administrator who is neither patient nor dentist. */
  role: z.enum(ROLES).nullable(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  phone_number: z.string().nullable(),
  city: z.string().nullable(),
  bio: z.string(),
  specialties: z.array(z.string()),
  avatar_url: z.string().nullable(),
  is_admin: z.boolean(),
  is_verified: z.boolean(),
  /** Dentists' verification details (RPPS number, practice address); null for patients. */
  rpps: z.string().nullable(),
  practice_address: z.string().nullable(),
  practice_postcode: z.string().nullable(),
  /** Patients (ADR 019): 5 digits, known to the communes dataset; only its owner reads it. */
  postal_code: z.string().nullable(),
  verification_requested_at: z.string().nullable(),
  /** Why the team refused the last verification request (shown to the dentist), else null. */
  verification_refusal_reason: z.string().nullable(),
  /** Patients, optional ('YYYY-MM-DD'): dentists see the age on the proposal page. */
  birth_date: z.string().nullable(),
  /** Derived: 'verified' if is_verified, else 'requested' if asked, else 'none'. */
  verification_state: z.enum(VERIFICATION_STATES),
  /** The e-mails this person receives among those one may stop (ADR 081). */
  email_preferences: emailPreferencesSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const meResponseSchema = z.object({
  profile: profileSchema,
  /** A verified dentist's subscription (issue 35): its state and the date it next changes. */
  subscription: subscriptionSummarySchema.nullable().optional(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** Texts of the profile pages and of their errors. */
export const PROFILE_MESSAGES = {
  nameRequired: "Veuillez saisir votre nom complet",
  tooLong: "Ce champ est trop long",
  success: "Profil mis à jour avec succès",
  failure: "Erreur de mise à jour du profil",
  avatarTooLarge: "L'image est trop volumineuse (max 5 Mo)",
  avatarType: "Veuillez choisir une image JPG ou PNG.",
  avatarPixels: "L'image est trop grande (25 mégapixels au plus) : choisissez une photo plus petite.",
  avatarMissing: "Veuillez choisir une image.",
  emailReadOnly:
    "Se change plus bas, dans « Sécurité » : un lien de confirmation est envoyé à la nouvelle adresse.",
  rppsInvalid: "Le numéro RPPS doit comporter 11 chiffres valides.",
  postcodeInvalid: "Code postal invalide",
  verificationMissing:
    "Renseignez votre numéro RPPS et l'adresse de votre cabinet avant de demander une vérification.",
  rppsMissing: "Renseignez votre numéro RPPS.",
  /** A verified dentist's RPPS number or practice (VERIFIED_FIELDS, ADR 075). */
  verifiedFieldsLocked:
    "Votre numéro RPPS et l'adresse de votre cabinet ont été vérifiés par notre équipe : pour les changer (déménagement, erreur), écrivez-nous depuis Besoin d'aide.",
  verifiedFieldLocked: "Vérifié par notre équipe : pour le changer, écrivez-nous depuis Besoin d'aide.",
  addressMissing: "Renseignez l'adresse de votre cabinet.",
  postcodeMissing: "Renseignez le code postal de votre cabinet.",
  cityMissing: "Renseignez la ville de votre cabinet.",
  phoneMissing: "Renseignez le téléphone de votre cabinet.",
  alreadyVerified: "Votre compte est déjà vérifié.",
  alreadyRequested: "Votre demande de vérification a déjà été envoyée ; notre équipe l'examine.",
  verificationRequested: "Demande de vérification envoyée",
  verificationFailed: "Impossible d'envoyer la demande de vérification",
  birthDateInvalid: "Date de naissance invalide",
  emailPreferencesSaved: "Préférences d'e-mail enregistrées",
  emailPreferencesFailed: "Impossible d'enregistrer vos préférences d'e-mail",
} as const;

/** A birth date: a real calendar day, not in the future, at most 120 years ago. */
export function isPlausibleBirthDate(day: string, today: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) return false;
  return day <= today && Number(day.slice(0, 4)) >= Number(today.slice(0, 4)) - 120;
}

/** Whole years between a birth date and a day ('YYYY-MM-DD' both). */
export function ageOn(birthDate: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return today.slice(5) < birthDate.slice(5) ? years - 1 : years;
}

export const AVATAR_MAX_SIZE = 5 * 1024 * 1024;

const optionalNullable = (max: number, tooLong: string = PROFILE_MESSAGES.tooLong) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .nullish()
    // Absent: unchanged (an API caller sending only some fields loses nothing); empty: cleared.
    .transform((v) => (v === undefined ? undefined : v || null));

/** Absent: unchanged; empty or null: cleared (null); otherwise checked. */
const clearable = (value: z.ZodType<string, string>) => value.transform((v) => (v ? v : null)).nullish();

/**
 * What a person may change on their own profile: the full name (split into first word /
 * rest), phone and city (empty stored as null); dentists also their biography (empty stored as ""),
 * specialties (trimmed, non-empty, no duplicates), RPPS number (11 digits with a valid Luhn key,
 * spaces ignored), practice address and postcode (what verification checks). E-mail, role and flags are never
 * editable here.
 */
/**
 * What a dentist's profile cannot clear: asked at sign-up (the spec's « champs obligatoires »), his
 * city shown to patients beside his name, his phone for the team's checks. The fields cleared in
 * these values (null: empty), with their message; a patient's may be empty.
 */
export function dentistProfileIssues(values: {
  city?: string | null;
  phone_number?: string | null;
}): Record<string, string> {
  const issues: Record<string, string> = {};
  if (values.city === null) issues.city = PROFILE_MESSAGES.cityMissing;
  if (values.phone_number === null) issues.phone_number = PROFILE_MESSAGES.phoneMissing;
  return issues;
}

export const profileUpdateSchema = z.object({
  full_name: requiredText(200, PROFILE_MESSAGES.nameRequired, PROFILE_MESSAGES.tooLong),
  phone_number: optionalNullable(PHONE_MAX_LENGTH, PHONE_MESSAGES.invalid).refine(
    (v) => !v || isPlausiblePhone(v),
    PHONE_MESSAGES.invalid,
  ),
  city: optionalNullable(100),
  bio: z.string().trim().max(2000, PROFILE_MESSAGES.tooLong).optional(),
  specialties: z
    .array(z.string().trim().max(SPECIALTY_MAX_LENGTH, PROFILE_MESSAGES.tooLong))
    .max(SPECIALTIES_MAX, PROFILE_MESSAGES.tooLong)
    .optional()
    .transform((list) => (list ? [...new Set(list.filter(Boolean))] : undefined)),
  rpps: clearable(
    z
      .string()
      .transform(normalizeRpps)
      .refine((v) => v === "" || isValidRpps(v), PROFILE_MESSAGES.rppsInvalid),
  ),
  practice_address: clearable(z.string().trim().max(200, PROFILE_MESSAGES.tooLong)),
  practice_postcode: clearable(
    z
      .string()
      .trim()
      .refine((v) => v === "" || isValidPostcode(v), PROFILE_MESSAGES.postcodeInvalid),
  ),
  /** Patients only (ADR 019): whether the code exists is checked on the server (communes dataset). */
  postal_code: clearable(
    z
      .string()
      .trim()
      .refine((v) => v === "" || POSTAL_CODE_PATTERN.test(v), GEO_MESSAGES.postalCodeInvalid),
  ),
  /** Patients only. */
  birth_date: clearable(
    z
      .string()
      .trim()
      .refine(
        (v) => v === "" || isPlausibleBirthDate(v, new Date().toISOString().slice(0, 10)),
        PROFILE_MESSAGES.birthDateInvalid,
      ),
  ),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
