import { z } from "zod";
import { ADMIN_PAGE_SIZE } from "../domain/limits";
import { addDays, isCalendarDay, parisToday } from "../format/paris";
import { VERIFICATION_STATES } from "../policies/verification";
import { pagedList, pageQuery, searchParam } from "./lists";

/** Texts of the admin screens and of their errors. */
export const ADMIN_MESSAGES = {
  verified: "Dentiste vérifié",
  unverified: "Dentiste non vérifié",
  /** His verification withdrawn, his subscription no longer renewed, or the provider failing (ADR 093). */
  unverifiedRenewalStopped: "Dentiste non vérifié : son abonnement ne sera pas renouvelé.",
  unverifiedRenewalFailed:
    "Dentiste non vérifié, mais le service de paiement n'a pas répondu : arrêtez le renouvellement de son abonnement depuis le tableau de bord du prestataire.",
  refused: "Demande de vérification refusée",
  verificationFailed: "Erreur lors de la mise à jour du statut de vérification",
  usersFailed: "Impossible de charger les utilisateurs",
  noResult: "Aucun résultat",
  /** « Comptes suspendus seulement » with no search, and none suspended (ADR 092). */
  noSuspended: "Aucun compte suspendu",
  withdrawalReasonRequired: "Indiquez pourquoi la vérification est retirée : le dentiste le lira.",
  reasonRequired: "Indiquez la raison du refus : le dentiste la lira.",
  reasonTooShort:
    "Expliquez la raison en une phrase (10 caractères au moins) : le dentiste la lira telle quelle.",
  reasonTooLong: "La raison ne peut pas dépasser 1 000 caractères.",
  notDentist: "Ce compte n'est pas un dentiste.",
  noRequest: "Ce dentiste n'a pas demandé de vérification.",
  /** « Refuser » on a page older than the decision: verified, or his request already decided. */
  refuseVerified: "Ce dentiste est déjà vérifié : rechargez la page pour voir sa situation.",
  refuseDecided: "Sa demande de vérification a déjà été traitée : rechargez la page pour voir la décision.",
  /** « Vérifier » on a dentist who has not given what the team checks (D12, ADR 075). */
  /** « Vérifier » on an RPPS number another verified dentist holds (ADR 075). */
  rppsTaken:
    "Ce numéro RPPS est déjà celui d'un autre dentiste vérifié : un numéro RPPS n'appartient qu'à une personne. Vérifiez les deux comptes avant de décider.",
  verifyIncomplete:
    "Ce dentiste n'a pas encore donné un numéro RPPS valide et l'adresse de son cabinet : il ne peut pas être vérifié.",
  /** « Vérifier » sent without the RPPS number and practice the team read (ADR 076). */
  checkedRequired: "Indiquez le numéro RPPS et le cabinet que vous avez vérifiés.",
  /** « Vérifier » on values the dentist changed since the team's screen showed them (ADR 076). */
  changedSinceRead:
    "Ce dentiste a modifié son numéro RPPS ou son cabinet depuis l'affichage de cette page. Relisez-les avant de décider.",
  dentistNotFound: "Dentiste introuvable.",
  messagesFailed: "Impossible de charger les messages",
  replyFailed: "Impossible d'envoyer la réponse",
  replySent: "Réponse envoyée",
  noConversation: "Aucune conversation sélectionnée",
  contactHandled: "Message marqué comme traité",
  contactUnhandled: "Message remis à traiter",
  /** Account suspension (ADR 092). */
  suspended: "Compte suspendu",
  suspendedRenewalStopped: "Compte suspendu : son abonnement ne sera pas renouvelé.",
  suspendedRenewalFailed:
    "Compte suspendu, mais le service de paiement n'a pas répondu : arrêtez le renouvellement de son abonnement depuis le tableau de bord du prestataire.",
  reinstated: "Compte rétabli",
  suspensionFailed: "Impossible de modifier la suspension du compte",
  suspensionReasonRequired: "Indiquez la raison de la suspension : la personne la lira.",
  /** A suspension's end (ADR 092's addendum): a day from tomorrow, within a year. */
  suspensionEndInvalid: "Indiquez une date valide pour la fin de la suspension.",
  suspensionEndPast: "La fin de la suspension doit être une date à venir, à partir de demain.",
  suspensionEndTooFar:
    "La suspension ne peut pas être datée à plus d'un an : au-delà, suspendez sans date et rétablissez le compte vous-même.",
  /** A suspension's end changed while it lasts (ADR 092's addendum of 06/12). */
  suspensionEndSet: "Date de fin de la suspension enregistrée",
  suspensionEndRemoved: "La suspension n'a plus de date de fin",
  suspensionEndUnchanged: "Date de fin de la suspension inchangée",
  notSuspended: "Ce compte n'est pas suspendu : il n'a pas de date de fin à modifier.",
  notSuspendable: "Un compte administrateur ne peut pas être suspendu.",
  /** « Retirer la double authentification » (ADR 098): after checking who asks. */
  twoFactorRemoved:
    "Double authentification retirée : la personne se connecte avec son mot de passe et en est prévenue.",
  twoFactorNotOn: "Ce compte n'a pas la double authentification.",
  twoFactorNotHere:
    "Ce compte se gère dans « Sécurité » par son titulaire (mot de passe exigé), pas depuis cette liste.",
  twoFactorFailed: "Impossible de retirer la double authentification",
  verifySuspended: "Ce compte est suspendu : rétablissez-le avant de le vérifier.",
  userNotFound: "Compte introuvable.",
} as const;

export const adminPageQuerySchema = pageQuery(ADMIN_PAGE_SIZE);

export const adminUsersQuerySchema = adminPageQuerySchema.extend({
  role: z.enum(["patient", "dentist"]),
  search: searchParam(),
  /** Only the suspended accounts (ADR 092). */
  suspended: z
    .enum(["0", "1"], { error: "Le filtre « suspendus » doit valoir 0 ou 1." })
    .optional()
    .default("0"),
});

export const adminUserSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  role: z.enum(["patient", "dentist"]),
  is_verified: z.boolean(),
  verification_state: z.enum(VERIFICATION_STATES),
  /** What « Vérifier » shows and sends back (a dentist's; null for a patient). */
  rpps: z.string().nullable(),
  practice_address: z.string().nullable(),
  practice_postcode: z.string().nullable(),
  created_at: z.string(),
  /** Suspended by the team (ADR 092): when, and the reason the person was told; null otherwise. */
  suspended_at: z.string().nullable(),
  suspension_reason: z.string().nullable(),
  /** When it is lifted by itself (ADR 092's addendum); null: when the team lifts it. */
  suspension_ends_at: z.string().nullable(),
  /** Two-step sign-in turned on (ADR 098): the team may remove it for a person who lost her phone. */
  two_factor_enabled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = pagedList(adminUserSchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminStatsSchema = z.object({
  patients: z.number(),
  dentists: z.number(),
  verification_requests: z.number(),
  unread_support: z.number(),
  unhandled_contact: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** A suspension's last day's morrow, as the team types it: a calendar day (YYYY-MM-DD). */
const suspensionEnd = z
  .string(ADMIN_MESSAGES.suspensionEndInvalid)
  .refine(isCalendarDay, ADMIN_MESSAGES.suspensionEndInvalid);

/**
 * « Suspendre le compte » (ADR 092): the reason, which the person reads in the e-mail telling her, and,
 * if the team chooses one, the day it is lifted by itself (a Paris calendar day, at 0:00 there; ADR
 * 092's addendum). What depends on the clock is checked by `suspensionEndIssues`.
 */
export const suspensionSchema = z.object({
  reason: z
    .string(ADMIN_MESSAGES.suspensionReasonRequired)
    .trim()
    .min(1, ADMIN_MESSAGES.suspensionReasonRequired)
    .max(1000, ADMIN_MESSAGES.reasonTooLong),
  ends_on: suspensionEnd.nullable().default(null),
});
export type SuspensionInput = z.input<typeof suspensionSchema>;

/**
 * « Date de fin » of a suspension in place (ADR 092's addendum of 06/12): the new day it is lifted by
 * itself, or null for none (the team lifts it). Checked against the clock as at suspension.
 */
export const suspensionEndSchema = z.object({ ends_on: suspensionEnd.nullable() });
export type SuspensionEndInput = z.infer<typeof suspensionEndSchema>;

/** A dated suspension lasts at most this many days (beyond, the team lifts it by hand). */
export const SUSPENSION_MAX_DAYS = 365;

/** A suspension's end, against the clock: from tomorrow in Paris, at most a year away. */
export function suspensionEndIssues(endsOn: string | null, now: Date): { path: string[]; message: string }[] {
  if (endsOn === null) return [];
  const today = parisToday(now);
  if (endsOn <= today) return [{ path: ["ends_on"], message: ADMIN_MESSAGES.suspensionEndPast }];
  if (endsOn > addDays(today, SUSPENSION_MAX_DAYS))
    return [{ path: ["ends_on"], message: ADMIN_MESSAGES.suspensionEndTooFar }];
  return [];
}

/**
 * A suspension set or lifted: `changed` false when it already was so; `renewal`, a suspended dentist's
 * subscription no longer renewed (`stopped`), or not, the provider failing (`failed`); null otherwise.
 */
export const suspensionResultSchema = z.object({
  changed: z.boolean(),
  renewal: z.enum(["stopped", "failed"]).nullable(),
  message: z.string(),
});
export type SuspensionResult = z.infer<typeof suspensionResultSchema>;

/**
 * A verification decided: `changed` false when it already was so; `renewal`, as a suspension's, for
 * a dentist whose verification is withdrawn (ADR 093); null otherwise.
 */
export const verificationResultSchema = z.object({
  changed: z.boolean(),
  is_verified: z.boolean(),
  renewal: z.enum(["stopped", "failed"]).nullable(),
  message: z.string(),
});
export type VerificationResult = z.infer<typeof verificationResultSchema>;

/** Verify, unverify (with a reason the dentist will read), or refuse a pending request (the same). */
/** The fewest characters of a refused or withdrawn verification's reason (the dentist reads it). */
export const VERIFICATION_REASON_MIN = 10;

export const verificationDecisionSchema = z
  .object({
    decision: z.enum(["verify", "unverify", "refuse"]),
    reason: z.string().trim().max(1000, ADMIN_MESSAGES.reasonTooLong).optional().default(""),
    /**
     * To verify: the RPPS number and practice as the admin's screen showed them. The dentist may
     * have changed them since; the badge is given only for what the team read (ADR 076).
     */
    checked: z
      .object({
        rpps: z.string().max(20),
        practice_address: z.string().max(200),
        practice_postcode: z.string().max(10),
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.decision === "refuse" && !value.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: ADMIN_MESSAGES.reasonRequired });
    // Withdrawn: the dentist reads why in his e-mail, as for a refusal or a suspension.
    if (value.decision === "unverify" && !value.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: ADMIN_MESSAGES.withdrawalReasonRequired });
    // Read by the dentist as the team's explanation (his dashboard, his e-mail): a slip of the
    // keyboard (« ab ») is not one.
    if (value.decision !== "verify" && value.reason && value.reason.length < VERIFICATION_REASON_MIN)
      ctx.addIssue({ code: "custom", path: ["reason"], message: ADMIN_MESSAGES.reasonTooShort });
    if (value.decision === "verify" && !value.checked)
      ctx.addIssue({ code: "custom", path: ["checked"], message: ADMIN_MESSAGES.checkedRequired });
  });

export const verificationRequestSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  city: z.string().nullable(),
  rpps: z.string().nullable(),
  practice_address: z.string().nullable(),
  practice_postcode: z.string().nullable(),
  requested_at: z.string(),
  /** The reason of an earlier refusal, if the dentist asks again. */
  previous_refusal: z.string().nullable(),
  /** The other dentists' accounts that gave the same RPPS number, verified first (ADR 075). */
  same_rpps: z.array(
    z.object({ id: z.string(), full_name: z.string(), email: z.string(), is_verified: z.boolean() }),
  ),
});
export type VerificationRequest = z.infer<typeof verificationRequestSchema>;

export const verificationQueueSchema = pagedList(verificationRequestSchema);

export const contactItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  treatment_type: z.string().nullable(),
  message: z.string(),
  file_name: z.string().nullable(),
  file_size: z.number().nullable(),
  created_at: z.string(),
  handled_at: z.string().nullable(),
});
export const contactListSchema = pagedList(contactItemSchema);
export type ContactItem = z.infer<typeof contactItemSchema>;

export const AUDIT_TYPES = ["verification", "document", "attachment", "review", "account", "admin"] as const;
export const AUDIT_TYPE_LABELS: Record<(typeof AUDIT_TYPES)[number], string> = {
  verification: "Vérifications",
  document: "Documents consultés",
  attachment: "Pièces jointes consultées",
  review: "Avis modérés",
  account: "Comptes",
  admin: "Administrateurs",
};

export const auditQuerySchema = adminPageQuerySchema.extend({
  type: z.enum(AUDIT_TYPES).optional(),
  /** Name or e-mail of the person who acted. */
  person: searchParam(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  type: z.enum(AUDIT_TYPES),
  action: z.string(),
  /** French sentence describing the event. */
  label: z.string(),
  actor_name: z.string(),
  subject: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: z.string(),
});
export const auditListSchema = pagedList(auditEntrySchema);
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** What the daily retention run erases or warns about, in the order the preview lists them. */
export const RETENTION_KINDS = [
  "contact",
  "cancelled_documents",
  "access_log",
  "audit_log",
  "inactivity_warning",
  "inactive_erasure",
  "reviews",
  "refused_reviews",
] as const;

/** GET /api/admin/retention: what the next daily retention run will erase (issue 14). */
export const retentionPreviewSchema = z.object({
  /** The next run: the job runs once a day, at the first hourly tick of the day. */
  next_run_on: z.string(),
  last_run_at: z.string().nullable(),
  items: z.array(
    z.object({
      kind: z.enum(RETENTION_KINDS),
      label: z.string(),
      count: z.number().int(),
      /** The date before which rows are due. */
      before: z.string(),
    }),
  ),
});
export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;
