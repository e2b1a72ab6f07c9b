import { z } from "zod";
import { OFFER_LIMITS, OFFER_STATES } from "../domain/offers";
import { addDays, isCalendarDay, parisToday } from "../format/paris";
import { isFutureSlot, linesTotal } from "../policies/offers";
import { pagedList, pageParam } from "./lists";
import { quoteLineDtoSchema, quoteLineInputSchema } from "./quotes";
import { ratingSummarySchema } from "./reviews";
import { duplicateSlotIssues, parisSlotSchema, SLOT_MESSAGES } from "./slots";

/** Texts of the proposal form of /dentist/quote-request/{id} and of its results (offers: ADR 008). */
export const OFFER_MESSAGES = {
  /** The offer's dentist lost his verification: he sees no patient data (D6), nothing is accepted. */
  dentistNotVerified:
    "Ce dentiste n'est plus vérifié par notre équipe : vous ne pouvez pas accepter sa proposition pour le moment.",
  amountRequired: "Veuillez indiquer le montant de votre proposition.",
  amountInvalid: "Le montant doit être un nombre positif en euros (ex. 1 250,50).",
  /** « 1 250,505 »: an amount, but for its third decimal. */
  amountDecimals: "Le montant a deux décimales au plus (ex. 1 250,50).",
  /** The form's "0": an amount, but not one a proposal can have. */
  amountZero: "Le montant doit être supérieur à 0 €.",
  amountTooHigh: "Le montant ne peut pas dépasser 100 000 €.",
  commentTooLong: "Le commentaire ne peut pas dépasser 2 000 caractères.",
  tooManyLines: "20 actes au maximum.",
  linesMismatch: "Le total des actes doit être égal au montant de la proposition.",
  validityInvalid: "La date de validité est invalide.",
  validityPast: "La date de validité doit être aujourd'hui ou plus tard.",
  validityTooFar: "La date de validité ne peut pas dépasser un an.",
  tooManySlots: "Vous pouvez proposer trois créneaux au maximum.",
  slotInvalid: SLOT_MESSAGES.invalid,
  slotPast: "Les créneaux proposés doivent être dans le futur.",
  slotTooFar: "Les créneaux proposés doivent être dans l'année qui vient.",
  slotDuplicate: SLOT_MESSAGES.duplicate,
  /** `when`: "jeudi 3 décembre 2026 à 09:30" (formatAppointmentTime). */
  slotTaken: (when: string) =>
    `Vous avez déjà un rendez-vous confirmé le ${when} : proposez un autre créneau.`,
  sent: "Votre proposition a été envoyée au patient",
  failed: "Impossible d'envoyer la proposition",
  alreadySent: "Vous avez déjà envoyé une proposition pour cette demande.",
  closed: "Cette demande n'accepte plus de propositions.",
  zipFailed: "Impossible de télécharger les documents",
  notFound: "Proposition introuvable.",
  accepted: "Proposition acceptée : choisissez maintenant votre rendez-vous",
  acceptFailed: "Impossible d'accepter la proposition",
  alreadyDecided: "Vous avez déjà accepté une proposition pour cette demande.",
  requestCancelled: "Cette demande est annulée : ses propositions ne peuvent plus être acceptées.",
  expired: "Cette proposition a expiré : elle ne peut plus être acceptée.",
  withdrawn: "Ce dentiste a retiré sa proposition : elle ne peut plus être acceptée.",
  withdrawnDone: "Votre proposition a été retirée",
  withdrawFailed: "Impossible de retirer la proposition",
  notWithdrawable: "Cette proposition a été acceptée ou clôturée : elle ne peut plus être retirée.",
  unaccepted: "Vous avez retiré votre acceptation : vous pouvez de nouveau comparer les propositions.",
  unacceptFailed: "Impossible de retirer votre acceptation",
  notAccepted: "Cette proposition n'est pas acceptée : il n'y a rien à retirer.",
  appointmentConfirmed:
    "Le rendez-vous est déjà confirmé : annulez d'abord le rendez-vous pour changer d'avis.",
} as const;

/** An offer line: the same structure as the patient's quote (issue 15). */
export const offerLineSchema = quoteLineInputSchema;

/**
 * A new offer. Amounts are integer cents; the validity date is a Paris calendar day and the
 * slots Paris wall-clock times ('YYYY-MM-DDTHH:mm'): the server reads them in Europe/Paris.
 * What depends on the clock (future, horizon) is checked by `offerTimingIssues`.
 */
export const offerInputSchema = z
  .object({
    amount_cents: z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? OFFER_MESSAGES.amountRequired
            : OFFER_MESSAGES.amountInvalid,
      })
      .int(OFFER_MESSAGES.amountInvalid)
      .positive(OFFER_MESSAGES.amountInvalid)
      .max(OFFER_LIMITS.maxAmountCents, OFFER_MESSAGES.amountTooHigh),
    comment: z.string().trim().max(OFFER_LIMITS.commentMax, OFFER_MESSAGES.commentTooLong).default(""),
    lines: z.array(offerLineSchema).max(OFFER_LIMITS.maxLines, OFFER_MESSAGES.tooManyLines).default([]),
    valid_until: z.string().refine(isCalendarDay, OFFER_MESSAGES.validityInvalid).nullable().default(null),
    slots: z.array(parisSlotSchema).max(OFFER_LIMITS.maxSlots, OFFER_MESSAGES.tooManySlots).default([]),
  })
  .superRefine((offer, ctx) => {
    if (offer.lines.length > 0 && linesTotal(offer.lines) !== offer.amount_cents)
      ctx.addIssue({ code: "custom", path: ["lines"], message: OFFER_MESSAGES.linesMismatch });
    for (const issue of duplicateSlotIssues(offer.slots, ["slots"])) ctx.addIssue(issue);
  });
export type OfferInput = z.input<typeof offerInputSchema>;
export type OfferValues = z.output<typeof offerInputSchema>;

/** What depends on the clock: validity from today, slots in the future, both within a year. */
export function offerTimingIssues(
  offer: { valid_until: string | null; slots: readonly string[] },
  now: Date,
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const today = parisToday(now);
  const horizon = addDays(today, OFFER_LIMITS.horizonDays);
  if (offer.valid_until !== null) {
    if (offer.valid_until < today)
      issues.push({ path: ["valid_until"], message: OFFER_MESSAGES.validityPast });
    else if (offer.valid_until > horizon)
      issues.push({ path: ["valid_until"], message: OFFER_MESSAGES.validityTooFar });
  }
  offer.slots.forEach((slot, i) => {
    if (!isFutureSlot(slot, now)) issues.push({ path: ["slots", i], message: OFFER_MESSAGES.slotPast });
    else if (slot.slice(0, 10) > horizon)
      issues.push({ path: ["slots", i], message: OFFER_MESSAGES.slotTooFar });
  });
  return issues;
}

export const offerLineDtoSchema = quoteLineDtoSchema;

export const offerDtoSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  amount_cents: z.number(),
  comment: z.string(),
  /** A Paris calendar day, 'YYYY-MM-DD'. */
  valid_until: z.string().nullable(),
  state: z.enum(OFFER_STATES),
  lines: z.array(offerLineDtoSchema),
  /** Proposed appointment slots, ISO instants. */
  slots: z.array(z.string()),
  /** Those of `slots` the dentist has since confirmed for another appointment (issue 32): not offered. */
  taken_slots: z.array(z.string()),
  created_at: z.string(),
});
export type OfferDto = z.infer<typeof offerDtoSchema>;

/** An offer as the patient sees it: with the dentist who made it, to compare offers (ADR 008). */
export const patientOfferSchema = offerDtoSchema.extend({
  dentist: z.object({
    id: z.string(),
    full_name: z.string(),
    /** The practice's commune (from its postal code, ADR 019), else the city the dentist typed. */
    city: z.string().nullable(),
    avatar_url: z.string().nullable(),
    specialties: z.array(z.string()),
    is_verified: z.boolean(),
    /** The dentist erased his account: his accepted offer stays under a pseudonym, not to be booked. */
    erased: z.boolean(),
    /** Whole kilometres from the patient's postal code (ADR 019), null when either code is unknown. */
    distance_km: z.number().nullable().optional(),
    /**
     * The dentist's published reviews (issue 36): average (null: none yet) and count. Null when the
     * dentist is not verified (pending or withdrawn): patients read the reviews of verified dentists
     * only (GET /api/dentists/:id/reviews answers 404), so no figure promises a list they cannot open.
     */
    rating: ratingSummarySchema.nullable(),
  }),
  conversation_id: z.string().nullable(),
});
export type PatientOffer = z.infer<typeof patientOfferSchema>;

/** The dentist's own offer on a request (the proposal page), null before sending. */
/**
 * How many of his latest offers his last fees are taken from (ADR 097): enough for the acts he
 * proposes, a bounded read whatever his history.
 */
export const LAST_FEES_OFFERS = 100;

/** His last fee for an act of the nomenclature: the one of his latest offer naming it (ADR 097). */
export const lastFeeSchema = z.object({
  code: z.string(),
  fee_cents: z.number().int(),
  /** When that offer was sent (ISO). */
  offered_at: z.string(),
});
export type LastFee = z.infer<typeof lastFeeSchema>;

export const myOfferSchema = z.object({
  offer: offerDtoSchema.nullable(),
  /** False once the request is closed or cancelled, or this dentist is confirmed. */
  may_offer: z.boolean(),
  /** The patient's age in whole years when they gave their birth date. */
  patient_age: z.number().nullable(),
  /** While he may send an offer: his last fee for each act he has proposed, by code (none otherwise). */
  last_fees: z.array(lastFeeSchema),
});
export type MyOffer = z.infer<typeof myOfferSchema>;

export const offerCreatedSchema = z.object({
  offer: offerDtoSchema,
  conversation_id: z.string(),
  message: z.string(),
});

/** The patient accepted an offer: the offer, now 'accepted'. */
export const offerAcceptedSchema = z.object({ offer: patientOfferSchema, message: z.string() });

/** The patient withdrew an acceptance (ADR 016): the offer, 'sent' again, and how many others reopened. */
export const offerUnacceptedSchema = z.object({
  offer: patientOfferSchema,
  reopened: z.number(),
  message: z.string(),
});

/** The dentist withdrew an offer. */
export const offerWithdrawnSchema = z.object({ offer: offerDtoSchema, message: z.string() });

export const DENTIST_OFFERS_PAGE_SIZE = 10;

/** 'Mes propositions': filter by the state people see, page by page. */
export const dentistOffersQuerySchema = z.object({
  state: z.enum(OFFER_STATES).optional(),
  page: pageParam(),
});

export const dentistOfferItemSchema = offerDtoSchema.extend({
  treatment_type: z.string(),
  patient_name: z.string(),
  /** The request's status ('new', 'in_review', 'accepted', 'completed', 'cancelled'). */
  request_status: z.string(),
  decided_at: z.string().nullable(),
  may_withdraw: z.boolean(),
});
export type DentistOfferItem = z.infer<typeof dentistOfferItemSchema>;

export const dentistOfferListSchema = pagedList(dentistOfferItemSchema);
export type DentistOfferList = z.infer<typeof dentistOfferListSchema>;
