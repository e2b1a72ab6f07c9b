import { z } from "zod";
import { EMAIL_MAX_LENGTH } from "../domain/limits";

/** The one error shape of the API (architecture.md, "Errors have one shape"). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageSchema = z.object({ message: z.string() });

/** Error codes used across the API; the client shows `message`, tests match `code`. */
export const ERROR_CODES = {
  validation: "VALIDATION_ERROR",
  unauthenticated: "UNAUTHENTICATED",
  forbidden: "FORBIDDEN",
  /** A state-changing request sent by a page of another origin (plugins/cross-site.ts). */
  crossSite: "CROSS_SITE",
  notFound: "NOT_FOUND",
  conflict: "CONFLICT",
  emailTaken: "EMAIL_TAKEN",
  invalidCredentials: "INVALID_CREDENTIALS",
  /** A suspended account's right password (ADR 092). */
  accountSuspended: "ACCOUNT_SUSPENDED",
  /** The pending sign-in of a two-step sign-in is gone: start again with the password (ADR 098). */
  secondFactorExpired: "SECOND_FACTOR_EXPIRED",
  invalidToken: "INVALID_TOKEN",
  rateLimited: "RATE_LIMITED",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
  internal: "INTERNAL_ERROR",
  unavailable: "SERVICE_UNAVAILABLE",
} as const;

export const MESSAGES = {
  unauthenticated: "Veuillez vous connecter pour continuer.",
  forbidden: "Vous n'avez pas accès à cette page.",
  notFound: "Ressource introuvable.",
  internal: "Une erreur est survenue. Veuillez réessayer plus tard.",
  rateLimited: "Trop de tentatives. Veuillez patienter quelques minutes avant de réessayer.",
  validation: "Certains champs sont invalides.",
  crossSite:
    "Action refusée : elle ne vient pas d'une page du site. Rechargez la page et réessayez depuis le site.",
  controlCharacters: "Ce champ contient des caractères non autorisés (caractères de contrôle).",
} as const;

/**
 * A text a person must fill in: trimmed, `required` when absent or blank, `tooLong` beyond `max`
 * characters (names, replies, phone numbers).
 */
export const requiredText = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/**
 * An e-mail address a person types: trimmed and lower-cased, `required` when absent or blank,
 * `invalid` when it is not an address or is longer than any address can be.
 */
export const emailText = (required: string, invalid: string) =>
  z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, required)
    .max(EMAIL_MAX_LENGTH, invalid)
    .pipe(z.email({ error: invalid }));
