import { z } from "zod";
import {
  PLAN_IDS,
  type PlanPrices,
  planName,
  plansOf,
  SUBSCRIPTION_STANDINGS,
  SUBSCRIPTION_STATUSES,
} from "../domain/subscription";

/** Texts of the subscription (issue 35): answers, refusals, confirmations. */
export const BILLING_MESSAGES = {
  lapsed:
    "Votre abonnement n'est plus actif : vous gardez vos conversations, vos patients et vos rendez-vous, mais vous ne pouvez plus voir de nouvelles demandes ni envoyer de proposition. Réactivez votre abonnement pour reprendre.",
  notVerified: "L'abonnement est ouvert aux dentistes vérifiés. Votre compte n'est pas encore vérifié.",
  alreadySubscribed: "Vous avez déjà un abonnement en cours.",
  checkoutInProgress:
    "Un paiement est déjà en cours d'ouverture, sans doute dans un autre onglet. Patientez quelques secondes, puis réessayez.",
  noSubscription: "Vous n'avez pas d'abonnement payant à gérer.",
  notCancelable: "Cet abonnement n'est pas résiliable : il est déjà résilié ou n'a pas commencé.",
  notReactivable: "Cet abonnement ne peut plus être réactivé : souscrivez de nouveau.",
  canceled:
    "Votre abonnement est résilié : il reste actif jusqu'à la fin de la période payée. Vous pouvez le réactiver d'ici là.",
  /** Cancelled while a renewal's payment is overdue: nothing was paid for the period under way. */
  canceledPastDue:
    "Votre abonnement est résilié : il ne sera plus renouvelé et prend fin avec la période en cours. Vous pouvez le réactiver d'ici là.",
  canceledInTrial:
    "Votre abonnement est résilié : rien ne sera prélevé, et votre essai continue jusqu'à sa fin. Vous pouvez le réactiver d'ici là.",
  reactivated: "Votre abonnement est réactivé. Merci !",
  planRequired: "Choisissez une formule (mensuelle ou annuelle).",
  /** A change of plan at the end of the paid period (ADR 096). */
  planChangeUnavailable:
    "La formule se change sur un abonnement en cours, non résilié : sans abonnement, choisissez directement la formule voulue en vous abonnant ; un abonnement résilié se réactive d'abord.",
  planChangeSame: "C'est déjà votre formule.",
  planChangeScheduled: (plan: "mensuelle" | "annuelle", day: string, inTrial = false) =>
    `Changement de formule enregistré : la formule ${plan} commencera le ${day}, à la fin de ${inTrial ? "votre essai gratuit" : "la période payée"}.`,
  planChangeCancelled: "Changement de formule annulé : votre formule actuelle continue.",
  noPlanChange: "Aucun changement de formule n'est prévu.",
  providerUnavailable: "Le service de paiement ne répond pas. Veuillez réessayer dans quelques minutes.",
  badSignature: "Signature du webhook invalide.",
  erasureCancelFailed:
    "Votre abonnement n'a pas pu être résilié auprès du service de paiement, votre compte n'a donc pas été supprimé. Veuillez réessayer dans quelques minutes.",
} as const;

export const planIdSchema = z.enum(PLAN_IDS, { error: BILLING_MESSAGES.planRequired });

/** A plan chosen: to subscribe (« S'abonner ») or to move to at the paid period's end (ADR 096). */
export const planInputSchema = z.object({ plan: planIdSchema });
export const redirectSchema = z.object({ url: z.string() });

export const planPriceSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  label: z.string(),
  period: z.string(),
  ht_cents: z.number().int(),
  vat_cents: z.number().int(),
  ttc_cents: z.number().int(),
  monthly_ht_cents: z.number().int(),
});
export type PlanPriceDto = z.infer<typeof planPriceSchema>;

/**
 * The plans at the configured prices (PRICE_MONTHLY_HT, PRICE_YEARLY_HT), named under the configured
 * brand, as the API sends them.
 */
export function planPriceDtos(prices: PlanPrices, brand: string): PlanPriceDto[] {
  return plansOf(prices).map((p) => ({
    id: p.id,
    name: planName(brand, p.id),
    label: p.label,
    period: p.period,
    ht_cents: p.htCents,
    vat_cents: p.vatCents,
    ttc_cents: p.ttcCents,
    monthly_ht_cents: p.monthlyHtCents,
  }));
}

export const subscriptionPhaseSchema = z.enum([
  "trial",
  "trial_ending",
  "active",
  "ending",
  "past_due",
  "limited",
]);

/** The dentist's subscription as /api/me and the Abonnement page show it. */
export const subscriptionSummarySchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  phase: subscriptionPhaseSchema,
  /** Whether new requests and offers are closed to him now (the access rule). */
  limited: z.boolean(),
  /** When the phase next changes (trial end, next payment, end of the paid period, end of the grace). */
  changes_at: z.string().nullable(),
  trial_ends_at: z.string(),
  plan: z.enum(PLAN_IDS).nullable(),
  cancel_at_period_end: z.boolean(),
  current_period_end: z.string().nullable(),
  /** Whether a paid subscription exists with the provider (the portal and cancel need one). */
  has_provider_subscription: z.boolean(),
  /** The change of plan asked for (ADR 096): the plan it moves to, from that instant; null: none. */
  next_plan: z.object({ plan: z.enum(PLAN_IDS), starts_at: z.string() }).nullable(),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

export const subscriptionPageSchema = z.object({
  subscription: subscriptionSummarySchema.nullable(),
  plans: z.array(planPriceSchema),
  /** The amount of the next payment, TTC, when one is due (the plan's). */
  next_payment_ttc_cents: z.number().int().nullable(),
  /**
   * When a checkout opened now takes its first payment: the trial's end, when the trial is kept
   * (ADR 085); null when it is taken at once (or no checkout is open to him).
   */
  first_payment_at: z.string().nullable(),
});
export type SubscriptionPage = z.infer<typeof subscriptionPageSchema>;

/**
 * The team's « Abonnements ». `status` (the filter, the counts' keys, each line's) is the standing at
 * the server's clock (SUBSCRIPTION_STANDINGS): a trial whose end has passed is « trial_ended », not
 * « trialing », though its row still says so.
 */
export const adminSubscriptionsQuerySchema = z.object({
  search: z.string().trim().max(100, "La recherche fait au plus 100 caractères.").default(""),
  status: z.enum([...SUBSCRIPTION_STANDINGS, "all"]).default("all"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const adminSubscriptionsSchema = z.object({
  counts: z.record(z.enum(SUBSCRIPTION_STANDINGS), z.number().int()),
  mrr_ht_cents: z.number().int(),
  items: z.array(
    z.object({
      dentist_id: z.string(),
      full_name: z.string(),
      email: z.string(),
      status: z.enum(SUBSCRIPTION_STANDINGS),
      plan: z.enum(PLAN_IDS).nullable(),
      limited: z.boolean(),
      /** As on the dentist's page: « active » renews at changes_at, « ending » stops then (cancelled). */
      phase: subscriptionPhaseSchema,
      changes_at: z.string().nullable(),
      /** The plan an « active » one moves to at changes_at (ADR 096); null: it renews as it is. */
      next_plan: z.enum(PLAN_IDS).nullable(),
    }),
  ),
  has_more: z.boolean(),
});
export type AdminSubscriptions = z.infer<typeof adminSubscriptionsSchema>;
