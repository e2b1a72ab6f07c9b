import { z } from "zod";
import { APPOINTMENT_LIMITS } from "../domain/appointments";
import {
  REVIEW_AUTHOR_TITLES,
  REVIEW_FLAGS,
  REVIEW_LIMITS,
  REVIEW_REPORT_DECISIONS,
  REVIEW_STATUSES,
} from "../domain/reviews";
import { pagedList, pageParam } from "./lists";

/** Texts of the reviews (issue 36, ADR 046). */
export const REVIEW_MESSAGES = {
  notFound: "Avis introuvable.",
  appointmentNotFound: "Rendez-vous introuvable.",
  // Over once its length is past (appointmentIsOver), not at its start, when « passé » shows already.
  /** A pending or cancelled appointment: never reviewed as such. */
  notConfirmed: "Vous pourrez donner votre avis sur un rendez-vous confirmé, une fois qu'il aura eu lieu.",
  notYet: `Vous pourrez donner votre avis une fois le rendez-vous terminé, ${APPOINTMENT_LIMITS.durationMinutes} minutes après son début.`,
  already: "Vous avez déjà donné votre avis sur ce rendez-vous.",
  ratingRequired: "Donnez une note de 1 à 5.",
  ratingInvalid: "La note va de 1 à 5.",
  textRequired: "Écrivez votre avis.",
  textTooShort: `Votre avis doit faire au moins ${REVIEW_LIMITS.textMin} caractères.`,
  textTooLong: `Votre avis ne peut pas dépasser ${REVIEW_LIMITS.textMax.toLocaleString("fr-FR")} caractères.`,
  titleRequired: "Choisissez comment vous présenter.",
  textHint:
    "Racontez l'accueil, les explications, le déroulement. N'écrivez pas de détails sur votre santé, ni de nom, de téléphone ou d'adresse : l'avis sera lu par d'autres patients.",
  editClosed: `Un avis ne peut plus être modifié ${REVIEW_LIMITS.editDays} jours après avoir été écrit. Vous pouvez le supprimer.`,
  answerRequired: "Écrivez votre réponse.",
  answerTooLong: `Votre réponse ne peut pas dépasser ${REVIEW_LIMITS.answerMax.toLocaleString("fr-FR")} caractères.`,
  answerOnce: "Vous avez déjà répondu à cet avis : une seule réponse est possible.",
  reasonRequired: "Indiquez la raison.",
  reasonTooLong: `La raison ne peut pas dépasser ${REVIEW_LIMITS.reasonMax} caractères.`,
  decisionRequired: "Choisissez de publier l'avis, de le refuser ou de le garder en ligne.",
  refuseReasonRequired: "Indiquez à l'auteur la raison du refus.",
  versionRequired: "Indiquez la version de l'avis que vous avez lue : rechargez la page.",
  changedSinceRead: "Cet avis a été modifié depuis votre lecture. Relisez-le avant de décider.",
  keepNotReported: "Seul un avis publié et signalé peut être gardé en ligne ; rechargez la page.",
  alreadyDecided: "Cet avis a déjà été modéré ; rechargez la page.",
  alreadyReported: "Vous avez déjà signalé cet avis : l'équipe l'examine.",
  reportKept:
    "Notre équipe a déjà examiné votre signalement de cet avis et l'a gardé en ligne. Vous pourrez le signaler de nouveau si son auteur le modifie.",
  notPublished: "Cet avis n'est pas publié.",
  sent: "Merci ! Votre avis sera publié après sa relecture par notre équipe.",
  edited: "Votre avis modifié sera publié après sa relecture par notre équipe.",
  deleted: "Votre avis a été supprimé.",
  answered: "Votre réponse est publiée sous l'avis.",
  reported: "Merci : notre équipe va examiner cet avis.",
  approved: "Avis publié.",
  refused: "Avis refusé : l'auteur a reçu la raison.",
  /** A published review taken down (its reports upheld, or the team's own decision). */
  withdrawn: "Avis retiré : son auteur a reçu la raison.",
  withdrawnReported:
    "Avis retiré : son auteur a reçu la raison, et le dentiste qui l'avait signalé en est informé.",
  kept: "Avis gardé en ligne : le dentiste est informé que son signalement a été examiné.",
} as const;

const mark = (message: string) =>
  z
    .number({ error: message })
    .int(REVIEW_MESSAGES.ratingInvalid)
    .min(1, REVIEW_MESSAGES.ratingInvalid)
    .max(5, REVIEW_MESSAGES.ratingInvalid);
/** A detailed mark: optional (null when not given). */
const optionalMark = () => mark(REVIEW_MESSAGES.ratingInvalid).nullable().optional().default(null);

/** What the author writes (and rewrites within 30 days). */
export const reviewInputSchema = z.object({
  rating: mark(REVIEW_MESSAGES.ratingRequired),
  explanations: optionalMark(),
  listening: optionalMark(),
  punctuality: optionalMark(),
  text: z
    .string({ error: REVIEW_MESSAGES.textRequired })
    .trim()
    .min(REVIEW_LIMITS.textMin, REVIEW_MESSAGES.textTooShort)
    .max(REVIEW_LIMITS.textMax, REVIEW_MESSAGES.textTooLong),
  author_title: z.enum(REVIEW_AUTHOR_TITLES, { error: REVIEW_MESSAGES.titleRequired }),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
export type ReviewFormValues = z.input<typeof reviewInputSchema>;

export const reviewAnswerSchema = z.object({
  text: z
    .string({ error: REVIEW_MESSAGES.answerRequired })
    .trim()
    .min(1, REVIEW_MESSAGES.answerRequired)
    .max(REVIEW_LIMITS.answerMax, REVIEW_MESSAGES.answerTooLong),
});

export const reviewReasonSchema = z.object({
  reason: z
    .string({ error: REVIEW_MESSAGES.reasonRequired })
    .trim()
    .min(1, REVIEW_MESSAGES.reasonRequired)
    .max(REVIEW_LIMITS.reasonMax, REVIEW_MESSAGES.reasonTooLong),
});

export const reviewDecisionSchema = z
  .object({
    /** keep: a published review that was reported stays online; its reports are closed. */
    decision: z.enum(["publish", "refuse", "keep"], { error: REVIEW_MESSAGES.decisionRequired }),
    reason: z.string().trim().max(REVIEW_LIMITS.reasonMax, REVIEW_MESSAGES.reasonTooLong).optional(),
    /**
     * The version the moderator read: the review's `updated_at` as the moderation list gave it. A
     * review its author rewrote since is not decided on (409 changedSinceRead).
     */
    version: z.iso.datetime({ error: REVIEW_MESSAGES.versionRequired }),
  })
  .superRefine((value, ctx) => {
    if (value.decision === "refuse" && !value.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: REVIEW_MESSAGES.refuseReasonRequired });
  });

/** A published review as patients see it (and the dentist, and the team). */
export const publicReviewSchema = z.object({
  id: z.string(),
  rating: z.number(),
  explanations: z.number().nullable(),
  listening: z.number().nullable(),
  punctuality: z.number().nullable(),
  text: z.string(),
  /** "Marie D., patiente vérifiée". */
  author: z.string(),
  /** "rendez-vous en novembre 2026". */
  appointment_month: z.string(),
  published_at: z.string(),
  answer: z.string().nullable(),
  answered_at: z.string().nullable(),
});
export type PublicReview = z.infer<typeof publicReviewSchema>;

/** Average and count of a dentist's published reviews (null average: none yet). */
export const ratingSummarySchema = z.object({
  average: z.number().nullable(),
  count: z.number(),
});
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

export const dentistReviewsSchema = pagedList(publicReviewSchema).extend({
  dentist: z.object({ id: z.string(), full_name: z.string() }),
  summary: ratingSummarySchema,
});
export type DentistReviews = z.infer<typeof dentistReviewsSchema>;
export const reviewsPageQuery = z.object({ page: pageParam() });

/** The author's own review, whatever its state. */
export const ownReviewSchema = publicReviewSchema.extend({
  status: z.enum(REVIEW_STATUSES),
  refusal_reason: z.string().nullable(),
  author_title: z.enum(REVIEW_AUTHOR_TITLES),
  appointment_id: z.string().nullable(),
  dentist: z.object({ id: z.string(), full_name: z.string() }),
  created_at: z.string(),
  may_edit: z.boolean(),
  published_at: z.string().nullable(),
});
export type OwnReview = z.infer<typeof ownReviewSchema>;

/** A past appointment the patient may still review: the dashboard's card. */
export const reviewInvitationSchema = z.object({
  appointment_id: z.string(),
  request_id: z.string(),
  starts_at: z.string(),
  dentist: z.object({ id: z.string(), full_name: z.string() }),
});
export type ReviewInvitation = z.infer<typeof reviewInvitationSchema>;

export const myReviewsSchema = z.object({
  reviews: z.array(ownReviewSchema),
  invitations: z.array(reviewInvitationSchema),
});
export type MyReviews = z.infer<typeof myReviewsSchema>;

export const reviewResultSchema = z.object({ review: ownReviewSchema, message: z.string() });

/**
 * A review of the dentist's own, with whether the dentist reported this text (`reported`), and
 * whether the team examined that report and kept the review online (`report_kept`).
 */
export const dentistOwnReviewSchema = publicReviewSchema.extend({
  reported: z.boolean(),
  report_kept: z.boolean(),
});
export const dentistOwnReviewsSchema = pagedList(dentistOwnReviewSchema).extend({
  summary: ratingSummarySchema,
});
export type DentistOwnReviews = z.infer<typeof dentistOwnReviewsSchema>;

/**
 * The team's view: the review, its flags, its reports — open ones (closed_at null) and those the team
 * closed (kept online or withdrawn), whose reasons stay readable.
 */
export const reportSchema = z.object({
  id: z.string(),
  reason: z.string(),
  created_at: z.string(),
  dentist_name: z.string(),
  closed_at: z.string().nullable(),
  decision: z.enum(REVIEW_REPORT_DECISIONS).nullable(),
  /** About a text its author has rewritten since (the report names the version it was about). */
  earlier_text: z.boolean(),
});
export const moderationReviewSchema = publicReviewSchema.extend({
  status: z.enum(REVIEW_STATUSES),
  flags: z.array(z.enum(REVIEW_FLAGS)),
  refusal_reason: z.string().nullable(),
  dentist: z.object({ id: z.string(), full_name: z.string() }),
  created_at: z.string(),
  /** The version of the text: changes when the author rewrites it; a decision sends it back. */
  updated_at: z.string(),
  published_at: z.string().nullable(),
  reports: z.array(reportSchema),
});
export type ModerationReview = z.infer<typeof moderationReviewSchema>;
export const moderationQuerySchema = z.object({
  /** pending: to moderate; reported: published, with an open report of its dentist; published; refused. */
  status: z.enum(["pending", "reported", "published", "refused"]).optional().default("pending"),
  dentist: z.uuid({ error: "Identifiant de dentiste invalide." }).optional(),
  page: pageParam(),
});
export const moderationListSchema = pagedList(moderationReviewSchema);
export const moderationResultSchema = z.object({ review: moderationReviewSchema, message: z.string() });
