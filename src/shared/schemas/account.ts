import { z } from "zod";
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "../domain/limits";

/** French texts of spec §5 and §8 for the account forms. */
export const ACCOUNT_MESSAGES = {
  fillAll: "Veuillez remplir tous les champs",
  fillAllRequired: "Veuillez remplir tous les champs obligatoires",
  passwordTooShort: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`,
  passwordTooLong: `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`,
  passwordsDiffer: "Les mots de passe ne correspondent pas",
  termsRequired: "Vous devez accepter les conditions d'utilisation",
  emailInvalid: "Veuillez saisir une adresse email valide",
  emailRequired: "Veuillez saisir votre adresse email",
  passwordRequired: "Veuillez saisir votre mot de passe",
  emailTaken: "Cet email est déjà utilisé",
  invalidCredentials: "Email ou mot de passe incorrect",
  loginUnexpected: "Une erreur s'est produite lors de la connexion",
  signupUnexpected: "Une erreur s'est produite lors de l'inscription",
  serviceUnreachable: "Problème de connexion au service d'authentification. Veuillez réessayer plus tard.",
  forgotSent:
    "Si un compte existe avec cette adresse, vous allez recevoir un email contenant un lien pour choisir un nouveau mot de passe. Pensez à vérifier vos courriers indésirables.",
  resetDone: "Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.",
  resetInvalid: "Ce lien de réinitialisation n'est plus valide. Veuillez faire une nouvelle demande.",
  nameTooLong: `Ce champ ne peut pas dépasser ${NAME_MAX_LENGTH} caractères`,
} as const;

const email = z
  .string({ error: ACCOUNT_MESSAGES.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, ACCOUNT_MESSAGES.emailRequired)
  .max(EMAIL_MAX_LENGTH, ACCOUNT_MESSAGES.emailInvalid)
  .pipe(z.email({ error: ACCOUNT_MESSAGES.emailInvalid }));

const newPassword = z
  .string({ error: ACCOUNT_MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.passwordTooLong);

const requiredName = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(NAME_MAX_LENGTH, ACCOUNT_MESSAGES.nameTooLong);

/** Patient sign-up 'Créer un compte patient' (spec §5). */
export const patientSignupSchema = z.object({
  first_name: requiredName(ACCOUNT_MESSAGES.fillAll),
  last_name: requiredName(ACCOUNT_MESSAGES.fillAll),
  email,
  password: newPassword,
});
export type PatientSignupInput = z.input<typeof patientSignupSchema>;

/** Dentist sign-up 'Inscription Dentiste' (spec §5). */
export const dentistSignupSchema = z
  .object({
    first_name: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    last_name: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    city: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    phone_number: z
      .string({ error: ACCOUNT_MESSAGES.fillAllRequired })
      .trim()
      .min(1, ACCOUNT_MESSAGES.fillAllRequired)
      .max(30, "Numéro de téléphone invalide"),
    email,
    password: newPassword,
    password_confirmation: z.string({ error: ACCOUNT_MESSAGES.passwordsDiffer }),
    accept_terms: z.literal(true, { error: ACCOUNT_MESSAGES.termsRequired }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: ACCOUNT_MESSAGES.passwordsDiffer,
  });
export type DentistSignupInput = z.input<typeof dentistSignupSchema>;

/**
 * What the sign-up endpoint accepts. `role` is normalised (anything but "dentist" is a patient
 * sign-up); every other field is checked by the schema of that role. Unknown keys such as
 * `is_admin` are dropped: nobody becomes admin by signing up.
 */
export const signupRequestSchema = z.looseObject({ role: z.unknown().optional() });

export const loginSchema = z.object({
  email,
  password: z.string({ error: ACCOUNT_MESSAGES.passwordRequired }).min(1, ACCOUNT_MESSAGES.passwordRequired),
  remember_me: z.boolean().optional().default(false),
});
export type LoginInput = z.input<typeof loginSchema>;

export const AREAS = ["patient", "dentist", "admin"] as const;

export const forgotPasswordSchema = z.object({
  email,
  area: z.enum(AREAS).optional().default("patient"),
});
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, ACCOUNT_MESSAGES.resetInvalid),
    password: newPassword,
    password_confirmation: z.string().optional(),
  })
  .refine((v) => v.password_confirmation === undefined || v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: ACCOUNT_MESSAGES.passwordsDiffer,
  });
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
