import { z } from "zod";
import { GEO_MESSAGES, POSTAL_CODE_PATTERN } from "../domain/geo";
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "../domain/limits";
import { isPlausiblePhone, PHONE_MAX_LENGTH, PHONE_MESSAGES } from "../domain/phone";
import { PASSWORD_MESSAGES, passwordProblems } from "../password";
import { emailText, requiredText } from "./common";

/**
 * The version of the terms of use and privacy policy a person accepts at sign-up, stored with the
 * date of the consent (migration 023). Change it when either text changes.
 */
export const TERMS_VERSION = "2026-11";

/** French texts of the account forms: their validation messages and errors. */
export const ACCOUNT_MESSAGES = {
  fillAll: "Veuillez remplir tous les champs",
  fillAllRequired: "Veuillez remplir tous les champs obligatoires",
  passwordTooShort: PASSWORD_MESSAGES.tooShort,
  passwordTooLong: PASSWORD_MESSAGES.tooLong,
  passwordsDiffer: "Les mots de passe ne correspondent pas",
  termsRequired: "Vous devez accepter les conditions d'utilisation",
  patientTermsRequired:
    "Veuillez accepter les conditions d'utilisation et la politique de confidentialité pour créer votre compte",
  emailInvalid: "Veuillez saisir une adresse e-mail valide",
  emailRequired: "Veuillez saisir votre adresse e-mail",
  passwordRequired: "Veuillez saisir votre mot de passe",
  emailTaken: "Cet e-mail est déjà utilisé",
  /** The toast beside it: the account may be hers (a sign-up whose answer was lost, an old one). */
  emailTakenHint:
    "Un compte existe déjà avec cette adresse\u202f: si c'est le vôtre, connectez-vous (ou «\u202fMot de passe oublié\u202f?\u202f»).",
  /** Sign-in of a suspended account, told only once the password is right (ADR 092). */
  suspended:
    "Ce compte est suspendu : l'équipe vous a écrit pourquoi par e-mail. Pour en parler, utilisez le formulaire de contact.",
  /** The same, of a suspension the team dated (ADR 092's addendum): the day it is lifted, written out. */
  suspendedUntil: (day: string) =>
    `Ce compte est suspendu ; la suspension sera levée le ${day}. L'équipe vous a écrit pourquoi par e-mail. Pour en parler, utilisez le formulaire de contact.`,
  invalidCredentials: "E-mail ou mot de passe incorrect",
  loginUnexpected: "Une erreur s'est produite lors de la connexion",
  signupUnexpected: "Une erreur s'est produite lors de l'inscription",
  serviceUnreachable: "Problème de connexion au service d'authentification. Veuillez réessayer plus tard.",
  forgotSent:
    "Si un compte existe avec cette adresse, vous allez recevoir un e-mail contenant un lien pour choisir un nouveau mot de passe. Pensez à vérifier vos courriers indésirables.",
  resetDone: "Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.",
  resetInvalid: "Ce lien de réinitialisation n'est plus valide. Veuillez faire une nouvelle demande.",
  nameTooLong: `Ce champ ne peut pas dépasser ${NAME_MAX_LENGTH} caractères`,
} as const;

const email = emailText(ACCOUNT_MESSAGES.emailRequired, ACCOUNT_MESSAGES.emailInvalid);

/**
 * A password being set (sign-up, reset, change): the length and character-class rule of
 * src/shared/password.ts. The check against common passwords needs the dictionaries: the server
 * applies it after this schema (modules/security/password-rule.ts), the forms show it in the meter.
 */
const newPassword = z.string({ error: PASSWORD_MESSAGES.required }).superRefine((value, ctx) => {
  for (const message of passwordProblems(value)) ctx.addIssue({ code: "custom", message });
});

const requiredName = (message: string) =>
  requiredText(NAME_MAX_LENGTH, message, ACCOUNT_MESSAGES.nameTooLong);

/** Patient sign-up 'Créer un compte patient'. */
export const patientSignupSchema = z.object({
  first_name: requiredName(ACCOUNT_MESSAGES.fillAll),
  last_name: requiredName(ACCOUNT_MESSAGES.fillAll),
  email,
  password: newPassword,
  accept_terms: z.literal(true, { error: ACCOUNT_MESSAGES.patientTermsRequired }),
});
export type PatientSignupInput = z.input<typeof patientSignupSchema>;

/** Dentist sign-up 'Inscription Dentiste'. */
export const dentistSignupSchema = z
  .object({
    first_name: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    last_name: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    city: requiredName(ACCOUNT_MESSAGES.fillAllRequired),
    /** The practice's postal code (ADR 019): optional here, checked against the communes dataset. */
    practice_postcode: z
      .string()
      .trim()
      .refine((v) => v === "" || POSTAL_CODE_PATTERN.test(v), GEO_MESSAGES.postalCodeInvalid)
      .optional(),
    phone_number: requiredText(
      PHONE_MAX_LENGTH,
      ACCOUNT_MESSAGES.fillAllRequired,
      PHONE_MESSAGES.invalid,
    ).refine((v) => v === "" || isPlausiblePhone(v), PHONE_MESSAGES.invalid),
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

/** Whether a reset link still opens (asked when its page opens, before the new password is typed). */
export const resetLinkCheckSchema = z.object({
  token: z.string().min(1, ACCOUNT_MESSAGES.resetInvalid).max(200, ACCOUNT_MESSAGES.resetInvalid),
});
export const resetLinkStateSchema = z.object({ valid: z.boolean() });
export type ResetLinkState = z.infer<typeof resetLinkStateSchema>;

/** French texts of 'Sécurité' on the profile pages: password change and connected devices. */
export const SECURITY_MESSAGES = {
  currentPasswordRequired: "Veuillez saisir votre mot de passe actuel",
  currentPasswordWrong: "Le mot de passe actuel est incorrect",
  newPasswordSame: "Le nouveau mot de passe doit être différent de l'actuel",
  passwordChanged:
    "Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés : il faudra vous y reconnecter avec le nouveau mot de passe.",
  passwordChangeFailed: "Le mot de passe n'a pas été modifié",
  tooManyAttempts:
    "Trop d'essais avec un mot de passe actuel incorrect. Veuillez réessayer dans quelques minutes.",
  sessionNotFound: "Cet appareil n'est plus connecté à votre compte.",
  sessionRevoked: "L'appareil a été déconnecté de votre compte.",
  currentSessionRevoked: "Cet appareil a été déconnecté de votre compte.",
  noOtherSession: "Aucun autre appareil n'était connecté à votre compte.",
  unknownDevice: "Appareil inconnu",
} as const;

/** The current password, asked before changing the password or the address. */
const currentPassword = z
  .string({ error: SECURITY_MESSAGES.currentPasswordRequired })
  .min(1, SECURITY_MESSAGES.currentPasswordRequired)
  // Longer than any accepted password: it cannot be the current one.
  .max(PASSWORD_MAX_LENGTH, SECURITY_MESSAGES.currentPasswordWrong);

/** « Changer mon adresse e-mail » in « Sécurité » (ADR 083). */
export const EMAIL_CHANGE_MESSAGES = {
  newEmailRequired: "Veuillez saisir la nouvelle adresse e-mail",
  same: "C'est déjà l'adresse de votre compte",
  taken: "Cette adresse est déjà celle d'un autre compte",
  sent: (address: string) =>
    `Un lien de confirmation a été envoyé à ${address}. Votre adresse ne change qu'une fois ce lien ouvert (il est valable une heure).`,
  adminRefused: "L'adresse d'un administrateur se change sur le serveur, pas ici.",
  notSent: "L'e-mail n'a pas pu être envoyé à cette adresse. Vérifiez-la, puis réessayez.",
  linkInvalid:
    "Ce lien n'est plus valable (déjà utilisé, remplacé par une demande plus récente ou expiré). Demandez un nouveau lien depuis votre profil.",
  done: "Votre adresse e-mail est modifiée. Utilisez-la désormais pour vous connecter.",
} as const;

/** POST /api/account/email: the new address, and the current password (as for the password). */
export const emailChangeSchema = z.object({
  new_email: emailText(EMAIL_CHANGE_MESSAGES.newEmailRequired, ACCOUNT_MESSAGES.emailInvalid),
  current_password: currentPassword,
});
export type EmailChangeInput = z.input<typeof emailChangeSchema>;

/** POST /api/account/email/confirm: the token of the link sent to the new address. */
export const emailChangeConfirmSchema = z.object({
  token: z
    .string({ error: EMAIL_CHANGE_MESSAGES.linkInvalid })
    .min(1, EMAIL_CHANGE_MESSAGES.linkInvalid)
    .max(200, EMAIL_CHANGE_MESSAGES.linkInvalid),
});

/** The page the link opens (public: the person may read the e-mail on another device). */
export const EMAIL_CHANGE_CONFIRM_PATH = "/confirm-email";

type AccountOwner = { role: string | null; is_admin: boolean };
const accountPage = (profile: AccountOwner) =>
  profile.is_admin ? "/admin/account" : profile.role === "dentist" ? "/dentist/profile" : "/patient/profile";

/**
 * The « Sécurité » section of one's account page (its anchor): where the e-mails about one's
 * account (a new sign-in) send the person to see and end their sessions.
 */
export const SECURITY_ANCHOR = "securite";
export const securityPath = (profile: AccountOwner) => `${accountPage(profile)}#${SECURITY_ANCHOR}`;

/** Each area's « Mot de passe oublié », for the e-mails about one's account. */
export const forgotPasswordPath = (profile: AccountOwner) =>
  profile.is_admin
    ? "/admin/forgot-password"
    : profile.role === "dentist"
      ? "/dentist/forgot-password"
      : "/forgot-password";

/** 'Changer mon mot de passe': the current one, then the new one twice (same rule as sign-up). */
export const passwordChangeSchema = z
  .object({
    current_password: currentPassword,
    new_password: newPassword,
    new_password_confirmation: z.string({ error: ACCOUNT_MESSAGES.passwordsDiffer }),
  })
  .refine((v) => v.new_password === v.new_password_confirmation, {
    path: ["new_password_confirmation"],
    message: ACCOUNT_MESSAGES.passwordsDiffer,
  })
  .refine((v) => v.new_password !== v.current_password, {
    path: ["new_password"],
    message: SECURITY_MESSAGES.newPasswordSame,
  });
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

/**
 * One signed-in device of the caller (GET /api/account/sessions): our id, never the session token;
 * the device in French ("Chrome sur Windows") and the IP address masked.
 */
export const accountSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  /** Masked: "203.0.113.*", "2001:db8:85a3:*"; null when unknown. */
  ip: z.string().nullable(),
  created_at: z.string(),
  /** Last refresh of the session (at most once a day while it is used). */
  last_active_at: z.string(),
  expires_at: z.string(),
  /** The session of this very request ('Cet appareil'). */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionListSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessionList = z.infer<typeof accountSessionListSchema>;

/** Any text: an id that is not one of the caller's sessions answers 404, whatever its form. */
export const sessionIdParamsSchema = z.object({ id: z.string() });

export const sessionRevokedSchema = z.object({
  message: z.string(),
  /** True when the revoked session was the caller's own: the cookie is cleared. */
  signed_out: z.boolean(),
});
export type SessionRevoked = z.infer<typeof sessionRevokedSchema>;

/** What « Déconnecter les autres appareils » says: how many were signed out. */
export function otherSessionsRevokedMessage(count: number): string {
  if (count === 0) return SECURITY_MESSAGES.noOtherSession;
  if (count === 1) return "L'autre appareil a été déconnecté de votre compte.";
  return `Les ${count} autres appareils ont été déconnectés de votre compte.`;
}

export const otherSessionsRevokedSchema = z.object({
  message: z.string(),
  /** The sessions ended (every one of the caller's but this device's). */
  revoked: z.number().int().min(0),
});
export type OtherSessionsRevoked = z.infer<typeof otherSessionsRevokedSchema>;

/** 'Mes données' on every profile: the personal data export (RGPD art. 15 and 20). */
export const DATA_EXPORT_URL = "/api/account/export";
/** Exports a person may start per hour (a full archive reads every file the person sent). */
export const DATA_EXPORT_PER_HOUR = 5;
export const DATA_EXPORT_MESSAGES = {
  tooMany: `Vous avez déjà téléchargé vos données ${DATA_EXPORT_PER_HOUR} fois cette heure-ci. Veuillez réessayer plus tard.`,
} as const;

/** 'Supprimer mon compte' (RGPD art. 17): texts shared by the profile dialog and the server. */
export const ERASURE_MESSAGES = {
  passwordRequired: "Veuillez saisir votre mot de passe pour confirmer",
  passwordWrong: "Le mot de passe est incorrect",
  tooManyAttempts: "Trop d'essais avec un mot de passe incorrect. Veuillez réessayer dans quelques minutes.",
  upcomingAppointments: (dentist: boolean) =>
    dentist
      ? "Vous avez des rendez-vous confirmés à venir : annulez-les d'abord (page Rendez-vous) pour prévenir vos patients, puis supprimez votre compte."
      : "Vous avez un rendez-vous confirmé à venir : annulez-le d'abord (page Rendez-vous) pour prévenir votre dentiste, puis supprimez votre compte.",
  notFound: "Compte introuvable.",
  adminAccount:
    "Un compte administrateur ne se supprime pas d'ici : demandez à un autre administrateur de retirer vos droits.",
  erased: "Votre compte a été supprimé. Vos données ont été effacées.",
  erasedByAdmin: "Le compte a été supprimé.",
  erasedWithSubscription:
    "Votre compte a été supprimé. Vos données ont été effacées et votre abonnement est résilié : plus aucun paiement ne sera prélevé.",
  erasedByAdminWithSubscription: "Le compte a été supprimé et son abonnement résilié.",
} as const;

/** The name shown instead of an erased person's, and the text of their messages that stay. */
export const ERASED_NAME = "Compte supprimé";
export const ERASED_MESSAGE_BODY = "Message supprimé";

export const accountErasureSchema = z.object({
  password: z
    .string({ error: ERASURE_MESSAGES.passwordRequired })
    .min(1, ERASURE_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, ERASURE_MESSAGES.passwordWrong),
});
export type AccountErasureInput = z.input<typeof accountErasureSchema>;
