import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../domain/limits";

/**
 * Two-step sign-in (ADR 098): a code from an authenticator app (TOTP, RFC 6238, 6 digits every
 * 30 s) asked after the password, for every account that turned it on in « Sécurité ». Ten
 * single-use recovery codes are shown once when it is turned on (and when they are renewed).
 */

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Veuillez saisir le code à 6 chiffres de votre application, ou un code de secours",
  codeInvalidFormat: "Le code est fait de 6 chiffres, ou d'un code de secours comme ABCDE-23456",
  codeWrong:
    "Ce code n'est pas le bon. Vérifiez que l'heure de votre téléphone est juste et saisissez le code affiché maintenant.",
  codeUsed:
    "Ce code a déjà servi pour une connexion. Saisissez à nouveau votre adresse e-mail et votre mot de passe, puis le code suivant de votre application.",
  keysUnreadable:
    "La vérification des codes est momentanément indisponible. Réessayez plus tard, ou écrivez-nous depuis la page « Contact » si cela dure.",
  recoveryCodeWrong: "Ce code de secours n'est pas valable (chacun ne sert qu'une fois).",
  expired: "Votre connexion a expiré. Saisissez à nouveau votre adresse e-mail et votre mot de passe.",
  tooManyCodes: "Trop de codes incorrects. Saisissez à nouveau votre adresse e-mail et votre mot de passe.",
  locked:
    "Trop de codes incorrects pour ce compte : la connexion est bloquée pendant 15 minutes. Si vous avez perdu votre téléphone, utilisez un code de secours ensuite.",
  passwordRequired: "Veuillez saisir votre mot de passe",
  passwordWrong: "Le mot de passe est incorrect",
  tooManyPasswords: "Trop d'essais avec un mot de passe incorrect. Veuillez réessayer dans quelques minutes.",
  alreadyOn: "La double authentification est déjà activée sur votre compte.",
  notOn: "La double authentification n'est pas activée sur votre compte.",
  noSetup: "Commencez par « Activer la double authentification » : aucun code n'est en attente.",
  enabled:
    "La double authentification est activée : un code de votre application vous sera demandé à chaque connexion.",
  disabled:
    "La double authentification est désactivée : votre mot de passe suffit de nouveau pour vous connecter.",
  devicesForgotten:
    "Le code vous sera de nouveau demandé à la prochaine connexion sur chacun de ces appareils.",
  codesRenewed: "Vos nouveaux codes de secours sont prêts : les anciens ne fonctionnent plus.",
} as const;

/** The status of the login's answer when the password was right and a code is still needed. */
export const SECOND_FACTOR_STATUS = 202;

/** POST /api/account/login answers this (202) instead of the profile when a code is needed. */
export const secondFactorNeededSchema = z.object({ second_factor: z.literal(true) });
export type SecondFactorNeeded = z.infer<typeof secondFactorNeededSchema>;

/** Six digits (spaces allowed, as apps show « 123 456 »). */
export const TOTP_PATTERN = /^\d{6}$/;
/** A recovery code as shown: ten capitals or digits, a dash after the fifth. */
export const RECOVERY_CODE_PATTERN = /^[A-Z0-9]{5}-[A-Z0-9]{5}$/;

/**
 * The code typed: spaces dropped; six digits or a recovery code (dash optional when typed; in
 * capitals, as they are made: ADR 098, `recoveryCodes` in auth.ts).
 */
const code = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .transform((value) => value.replace(/\s+/g, "").toUpperCase())
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .max(11, TWO_FACTOR_MESSAGES.codeInvalidFormat)
      .transform((value) =>
        /^[A-Z0-9]{10}$/.test(value) && !TOTP_PATTERN.test(value)
          ? `${value.slice(0, 5)}-${value.slice(5)}`
          : value,
      )
      .refine(
        (value) => TOTP_PATTERN.test(value) || RECOVERY_CODE_PATTERN.test(value),
        TWO_FACTOR_MESSAGES.codeInvalidFormat,
      ),
  );

/** POST /api/account/login/code: the second step of a sign-in. */
export const loginCodeSchema = z.object({
  code,
  /** « Ne plus demander de code sur cet appareil pendant 30 jours ». */
  trust_device: z.boolean().optional().default(false),
});
export type LoginCodeInput = z.input<typeof loginCodeSchema>;

/** POST /api/account/two-factor/confirm: the app's first code, which turns it on. */
export const twoFactorConfirmSchema = z.object({
  code: z
    .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(
      z
        .string()
        .min(1, TWO_FACTOR_MESSAGES.codeRequired)
        .regex(TOTP_PATTERN, TWO_FACTOR_MESSAGES.codeInvalidFormat),
    ),
});
export type TwoFactorConfirmInput = z.input<typeof twoFactorConfirmSchema>;

/** Setup, turning off and new recovery codes all ask for the password. */
export const twoFactorPasswordSchema = z.object({
  password: z
    .string({ error: TWO_FACTOR_MESSAGES.passwordRequired })
    .min(1, TWO_FACTOR_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, TWO_FACTOR_MESSAGES.passwordWrong),
});
export type TwoFactorPasswordInput = z.input<typeof twoFactorPasswordSchema>;

/** GET /api/account/two-factor. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** Devices where « Ne plus demander de code sur cet appareil » was ticked, not yet expired. */
  remembered_devices: z.number().int().nonnegative(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** POST /api/account/two-factor/setup: what the app needs, and the recovery codes (shown once). */
export const twoFactorSetupSchema = z.object({
  /** otpauth://totp/Sourio:<e-mail>?secret=…&issuer=Sourio…, for the QR code and a phone's link. */
  totp_uri: z.string(),
  /** The same secret in base32, in groups of four, for typing into the app by hand. */
  secret: z.string(),
  backup_codes: z.array(z.string()),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** POST /api/account/two-factor/backup-codes. */
export const twoFactorCodesSchema = z.object({ backup_codes: z.array(z.string()), message: z.string() });
export type TwoFactorCodes = z.infer<typeof twoFactorCodesSchema>;
