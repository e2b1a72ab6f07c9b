/**
 * Dentists' subscription (issue 35, ADR 044): the plan, its prices, the states of a subscription,
 * how the payment provider's events move them, and what a dentist may do in each. Pure: the server
 * applies it in its transactions, the screens show it.
 */

/** TVA on Sourio's service (taux normal). Dentists' care is exempt, so they cannot recover it. */
export const VAT_RATE_PERCENT = 20;
/** The trial, counted from the day the dentist is verified; no card asked to start it. */
export const TRIAL_DAYS = 30;
/** A payment failed: the dentist keeps working this long while the payment is fixed. */
export const GRACE_DAYS = 14;
/** The trial's e-mail and banner come this many days before its end. */
export const TRIAL_WARNING_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

export const PLAN_IDS = ["monthly", "yearly"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** Prices HT in cents by plan; the defaults are the config's (PRICE_MONTHLY_HT_CENTS…). */
export type PlanPrices = Record<PlanId, number>;
export const DEFAULT_PLAN_PRICES_HT_CENTS: PlanPrices = { monthly: 8900, yearly: 89000 };

const PLAN_LABELS: Record<PlanId, { label: string; period: string; months: number }> = {
  monthly: { label: "Mensuel", period: "par mois", months: 1 },
  yearly: { label: "Annuel", period: "par an", months: 12 },
};

/**
 * How a plan reads in a sentence: « la formule annuelle », paid « chaque année » (ADR 096); in the
 * team's short lines « annuel », « passe à l'annuel ».
 */
export const PLAN_WORDS: Record<
  PlanId,
  { adjective: "mensuelle" | "annuelle"; every: string; short: string; toShort: string }
> = {
  monthly: { adjective: "mensuelle", every: "chaque mois", short: "mensuel", toShort: "au mensuel" },
  yearly: { adjective: "annuelle", every: "chaque année", short: "annuel", toShort: "à l'annuel" },
};

/**
 * The plan's name as the screens and invoices print it, under the configured brand (D18): "Sourio
 * Cabinet", or with its period, "Sourio Cabinet — mensuel".
 */
export function planName(brand: string, id?: PlanId): string {
  const name = `${brand} Cabinet`;
  return id ? `${name} — ${PLAN_LABELS[id].label.toLowerCase()}` : name;
}

export interface PlanPrice {
  id: PlanId;
  label: string;
  /** "par mois", "par an". */
  period: string;
  htCents: number;
  vatCents: number;
  ttcCents: number;
  /** What the plan brings each month, HT (the monthly recurring revenue of one subscriber). */
  monthlyHtCents: number;
}

/** TVA on an amount HT, rounded to the cent (half up, as on an invoice line). */
export function vatOf(htCents: number): number {
  return Math.round((htCents * VAT_RATE_PERCENT) / 100);
}

/** The plan with its amounts HT, TVA and TTC. */
export function planPrice(id: PlanId, prices: PlanPrices): PlanPrice {
  const htCents = prices[id];
  const vatCents = vatOf(htCents);
  const { label, period, months } = PLAN_LABELS[id];
  return {
    id,
    label,
    period,
    htCents,
    vatCents,
    ttcCents: htCents + vatCents,
    monthlyHtCents: Math.round(htCents / months),
  };
}

export function plansOf(prices: PlanPrices): PlanPrice[] {
  return PLAN_IDS.map((id) => planPrice(id, prices));
}

// ─── States ─────────────────────────────────────────────────────────────────────────────────────

export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "canceled", "unpaid"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: "Essai gratuit",
  active: "Actif",
  past_due: "Paiement en retard",
  canceled: "Terminé",
  unpaid: "Impayé",
};

/**
 * What a subscription is at a given time, for the screens that count and list them (the team's
 * « Abonnements »): its status, except a trial whose end has passed, which nothing rewrites (no event
 * comes when a local trial ends) and which is no trial any more: « Essai terminé ». Derived at read
 * time from the trial's end and the clock, by the same rule as the access (limitedFrom: a trial
 * limits from its end), so the counts, the filter and each line agree with what the dentist lives.
 */
export const SUBSCRIPTION_STANDINGS = [
  "trialing",
  "trial_ended",
  "active",
  "past_due",
  "canceled",
  "unpaid",
] as const;
export type SubscriptionStanding = (typeof SUBSCRIPTION_STANDINGS)[number];

export const SUBSCRIPTION_STANDING_LABELS: Record<SubscriptionStanding, string> = {
  ...SUBSCRIPTION_STATUS_LABELS,
  trial_ended: "Essai terminé",
};

/** The subscription's standing at `now` (see SUBSCRIPTION_STANDINGS). */
export function standingOf(state: LimitInput, now: Date): SubscriptionStanding {
  return state.status === "trialing" && isLimited(limitedFrom(state), now) ? "trial_ended" : state.status;
}

/**
 * The moves one subscription may make. A trial becomes a paid subscription (or ends); a paid one
 * falls behind on a failed payment (past due, then unpaid), comes back when it is paid, and ends
 * when cancelled (at the end of the paid period). Nothing comes back to the trial, and an ended
 * subscription stays ended: the way back is a new checkout, i.e. another subscription
 * (applySnapshot). Every later state of a real history is reachable in one move from an earlier
 * one, so an event lost in the reordering never blocks the ones after it.
 */
export const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  trialing: ["active", "past_due", "unpaid", "canceled"],
  active: ["past_due", "unpaid", "canceled"],
  past_due: ["active", "unpaid", "canceled"],
  unpaid: ["active", "past_due", "canceled"],
  canceled: [],
};

export function mayMove(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return from === to || SUBSCRIPTION_TRANSITIONS[from].includes(to);
}

/**
 * The provider's statuses in ours; null for those that say nothing yet (a checkout whose first
 * payment is still under way: the subscription stays as it was).
 */
export function statusFromProvider(status: string): SubscriptionStatus | null {
  switch (status) {
    case "trialing":
    case "active":
    case "past_due":
    case "canceled":
    case "unpaid":
      return status;
    case "paused":
      return "unpaid";
    default:
      return null;
  }
}

/** A subscription as the server keeps it (one per dentist). */
export interface SubscriptionState {
  status: SubscriptionStatus;
  /** Since when it has this status (the grace period counts from the first failed payment). */
  statusSince: Date;
  trialEndsAt: Date;
  plan: PlanId | null;
  /** The provider's subscription; null during the local trial. */
  subscriptionId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The creation time of the latest provider event applied: an older one never moves it back. */
  lastEventAt: Date | null;
}

/** What suspending a dentist did to his subscription's renewal (ADR 092); null: nothing to stop. */
export type RenewalStop = { renewal: "stopped"; endsAt: Date | null } | { renewal: "failed" } | null;

/** What the provider said of one subscription in one event (its snapshot, at the event's time). */
export interface SubscriptionSnapshot {
  subscriptionId: string;
  /** The provider's status (see statusFromProvider). */
  status: string;
  at: Date;
  plan: PlanId | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** A new trial, from the day of the verification. */
export function startTrial(verifiedAt: Date): SubscriptionState {
  return {
    status: "trialing",
    statusSince: verifiedAt,
    trialEndsAt: new Date(verifiedAt.getTime() + TRIAL_DAYS * DAY_MS),
    plan: null,
    subscriptionId: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    lastEventAt: null,
  };
}

/**
 * The state after a provider snapshot, or null when it must change nothing:
 * - older than the latest event applied (events arrive out of order);
 * - about another subscription while the one we hold is still alive (a late event of an old one);
 * - a status that says nothing yet, or a move the state machine forbids.
 * Applying the same snapshot twice gives the same state (the status' start is kept).
 */
export function applySnapshot(
  current: SubscriptionState,
  snapshot: SubscriptionSnapshot,
): SubscriptionState | null {
  if (current.lastEventAt && snapshot.at.getTime() < current.lastEventAt.getTime()) return null;
  const sameSubscription = current.subscriptionId === snapshot.subscriptionId;
  if (!sameSubscription && current.subscriptionId !== null && current.status !== "canceled") return null;
  const status = statusFromProvider(snapshot.status);
  if (status === null) return null;
  if (sameSubscription && !mayMove(current.status, status)) return null;
  const keepsStatus = sameSubscription && status === current.status;
  return {
    ...current,
    status,
    statusSince: keepsStatus ? current.statusSince : snapshot.at,
    plan: snapshot.plan ?? current.plan,
    subscriptionId: snapshot.subscriptionId,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    lastEventAt: snapshot.at,
  };
}

// ─── Access ─────────────────────────────────────────────────────────────────────────────────────

type LimitInput = Pick<
  SubscriptionState,
  "status" | "statusSince" | "trialEndsAt" | "subscriptionId" | "cancelAtPeriodEnd"
>;

/**
 * A trial with a paid subscription already behind it (ADR 085): the dentist subscribed before his
 * trial's end, and the provider takes the first payment at that end. Not once he cancelled it.
 */
export function subscribedDuringTrial(
  state: Pick<SubscriptionState, "status" | "subscriptionId" | "cancelAtPeriodEnd">,
): boolean {
  return state.status === "trialing" && state.subscriptionId !== null && !state.cancelAtPeriodEnd;
}

/**
 * The trial a checkout opened at `now` keeps: its end, when the first payment is taken then, or null
 * when it is taken at once (no trial, or one that ends too soon for the provider, which wants a trial
 * end at least 48 hours ahead — a margin added for the time the page stays open).
 */
export const TRIAL_KEPT_MIN_MS = 49 * 60 * 60 * 1000;
export function trialKeptAtCheckout(
  state: Pick<SubscriptionState, "status" | "trialEndsAt">,
  now: Date,
): Date | null {
  if (state.status !== "trialing") return null;
  return state.trialEndsAt.getTime() - now.getTime() >= TRIAL_KEPT_MIN_MS ? state.trialEndsAt : null;
}

/**
 * From when the dentist's access is limited (no new requests, no offers), or null when nothing
 * limits it ahead: the trial's end, the grace period's end after a failed payment, the end of the
 * subscription. A paid, active subscription is never limited ahead of an event.
 */
export function limitedFrom(state: LimitInput) {
  switch (state.status) {
    case "trialing":
      // Subscribed during the trial (ADR 085): the provider charges at its end, and what follows comes
      // as an event (paid: active; refused: past due, with its grace), like a paid period's end.
      return subscribedDuringTrial(state) ? null : state.trialEndsAt;
    case "active":
      return null;
    case "past_due":
      return new Date(state.statusSince.getTime() + GRACE_DAYS * DAY_MS);
    case "canceled":
    case "unpaid":
      return state.statusSince;
  }
}

/**
 * The access rule: a dentist in trial, active, or past due within the grace period works as today;
 * after that (or cancelled, unpaid) he keeps what protects patients (conversations, accepted
 * requests, appointments, shared documents) but opens no new request and sends no offer.
 */
export function isLimited(limitFrom: Date | null, now: Date): boolean {
  return limitFrom !== null && limitFrom.getTime() <= now.getTime();
}

export type SubscriptionPhase = "trial" | "trial_ending" | "active" | "ending" | "past_due" | "limited";

/**
 * What the screens show: the phase (a banner in the dentist area during trial_ending, past_due and
 * limited) and the date it next changes (trial end, next payment or end of the paid period, end of
 * the grace period), null when nothing is planned.
 */
export function phaseOf(
  state: LimitInput & Pick<SubscriptionState, "currentPeriodEnd">,
  now: Date,
): { phase: SubscriptionPhase; changesAt: Date | null } {
  const limit = limitedFrom(state);
  if (isLimited(limit, now)) return { phase: "limited", changesAt: null };
  switch (state.status) {
    case "trialing": {
      // Already subscribed: nothing to warn of (no banner, no e-mail), the trial just runs to its end.
      if (subscribedDuringTrial(state)) return { phase: "trial", changesAt: state.trialEndsAt };
      const warnFrom = state.trialEndsAt.getTime() - TRIAL_WARNING_DAYS * DAY_MS;
      return { phase: now.getTime() >= warnFrom ? "trial_ending" : "trial", changesAt: state.trialEndsAt };
    }
    case "past_due":
      return { phase: "past_due", changesAt: limit };
    default:
      return { phase: state.cancelAtPeriodEnd ? "ending" : "active", changesAt: state.currentPeriodEnd };
  }
}

/** The monthly recurring revenue HT of the paying subscriptions (active and past due), in cents. */
export function monthlyRecurringRevenue(
  paying: { plan: PlanId | null; count: number }[],
  prices: PlanPrices,
): number {
  return paying.reduce(
    (sum, { plan, count }) => sum + (plan ? planPrice(plan, prices).monthlyHtCents * count : 0),
    0,
  );
}
