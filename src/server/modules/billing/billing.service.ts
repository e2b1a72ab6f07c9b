import { amountsOfTotal } from "../../../shared/domain/invoices";
import {
  applySnapshot,
  GRACE_DAYS,
  isLimited,
  limitedFrom,
  monthlyRecurringRevenue,
  PLAN_WORDS,
  type PlanId,
  phaseOf,
  planName,
  planPrice,
  type RenewalStop,
  type SubscriptionStanding,
  type SubscriptionStatus,
  standingOf,
  startTrial,
  subscribedDuringTrial,
  TRIAL_WARNING_DAYS,
  trialKeptAtCheckout,
} from "../../../shared/domain/subscription";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { daysBetween, parisToday } from "../../../shared/format/paris";
import {
  type AdminSubscriptions,
  BILLING_MESSAGES,
  planPriceDtos,
  type SubscriptionPage,
} from "../../../shared/schemas/billing";
import type { Actor } from "../../access/actor";
import { isVerifiedDentist } from "../../access/rules";
import { findSubscription, type SubscriptionRow, stateOfRow, summaryOf } from "../../access/subscription";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, forbidden } from "../../errors";
import type { Mailer, MailMessage } from "../../mail/mailer";
import {
  invoiceAvailableMail,
  paymentFailedMail,
  planChangeMail,
  subscriptionCancelledMail,
  trialEndingMail,
} from "../../mail/templates";
import { loggableError } from "../../redact";
import type { Storage } from "../../storage/storage";
import { storedInvoicePdf } from "../invoices/invoices.files";
import {
  type InvoiceRow,
  issueInvoice,
  issueProviderCreditNote,
  providerCreditReason,
} from "../invoices/invoices.service";
import {
  adminCounts,
  adminList,
  lockOwnSubscription,
  releaseCheckoutLease,
  setCustomer,
  setNextPlan,
  storeEventOnce,
  systemDentistContact,
  systemLockForEvent,
  systemMarkTrialWarned,
  systemProviderSubscriptions,
  systemTrialsEnding,
  takeCheckoutLease,
  writeState,
} from "./billing.repo";
import type { BillingEvent, BillingProvider, ProviderSubscription } from "./provider";

export interface BillingDeps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  clock: () => Date;
  log: { error(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  provider: () => Promise<BillingProvider>;
  /** Where the invoices' PDFs are stored (made right after the paid-invoice webhook's commit). */
  storage?: Storage;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const SUBSCRIPTION_PAGE = "/dentist/subscription";

/** The provider failed (network, its own error): a French 503, the cause logged without personal data. */
async function callProvider<T>(deps: BillingDeps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.error({ err: loggableError(error) }, `paiement : ${what}`);
    throw new AppError(503, "SERVICE_UNAVAILABLE", BILLING_MESSAGES.providerUnavailable);
  }
}

/**
 * Work after the commit (an e-mail after a lookup, an invoice's PDF), never failing the change; a failure
 * is logged with `failure` (what was not done) and the error's message, never an address.
 */
function afterCommit(deps: BillingDeps, work: () => Promise<unknown>, failure: string) {
  work().catch((error) => deps.log.error({ err: loggableError(error) }, failure));
}

/** What every e-mail of the subscription to a dentist is written with. */
interface DentistLetter {
  brandName: string;
  firstName: string;
  link: string;
}

/**
 * After the commit, an e-mail to the dentist, his address looked up then (afterCommit): `write` makes
 * it from the brand, his first name and the Abonnement page's link; null sends nothing.
 */
function mailDentist(
  deps: BillingDeps,
  dentistId: string,
  failure: string,
  write: (base: DentistLetter) => Omit<MailMessage, "to"> | null | Promise<Omit<MailMessage, "to"> | null>,
) {
  afterCommit(
    deps,
    async () => {
      const who = await systemDentistContact(deps.db, dentistId);
      if (!who) return;
      const mail = await write({
        brandName: deps.config.brandName,
        firstName: who.first_name,
        link: `${deps.config.publicUrl}${SUBSCRIPTION_PAGE}`,
      });
      if (mail) await deps.mailer.send({ to: who.email, ...mail });
    },
    failure,
  );
}

/** The Abonnement page: the dentist's subscription (null before verification), the plans, the next payment TTC. */
export async function subscriptionPage(deps: BillingDeps, actor: Actor): Promise<SubscriptionPage> {
  const row = await findSubscription(deps.db, actor.userId);
  const now = deps.clock();
  const subscription = row ? summaryOf(row, now) : null;
  const state = row ? stateOfRow(row) : null;
  // Paying, or subscribed during the trial: the provider takes the plan's price at the period's end.
  const paying =
    state?.plan &&
    (state.status === "active" || state.status === "past_due" || subscribedDuringTrial(state)) &&
    !state.cancelAtPeriodEnd;
  // A change of plan asked for (ADR 096) starts with that payment: its price is the next one.
  const billed = row?.next_plan ?? state?.plan;
  const plan = paying && billed ? planPrice(billed, deps.config.planPrices) : undefined;
  const kept = row && state && !hasLiveSubscription(row) ? trialKeptAtCheckout(state, now) : null;
  return {
    subscription,
    plans: planPriceDtos(deps.config.planPrices, deps.config.brandName),
    next_payment_ttc_cents: plan ? plan.ttcCents : null,
    first_payment_at: kept ? kept.toISOString() : null,
  };
}

/**
 * The dentist's own row. A verified dentist verified before subscriptions existed gets his trial
 * now. One whose verification was withdrawn keeps the row he has, so that he can still stop paying
 * (« Résilier », the provider's portal); with none, or to subscribe or reactivate, he is refused.
 */
async function ownRow(deps: BillingDeps, actor: Actor, use: "subscribe" | "stop") {
  const verified = isVerifiedDentist(actor.profile);
  if (!verified && (use === "subscribe" || actor.profile.role !== "dentist"))
    throw forbidden(BILLING_MESSAGES.notVerified);
  const now = deps.clock();
  return deps.db.transaction().execute(async (trx) => {
    const existing = await lockOwnSubscription(trx, actor);
    if (existing) return existing;
    if (!verified) throw forbidden(BILLING_MESSAGES.notVerified);
    await trx
      .insertInto("subscriptions")
      .values({
        dentist_id: actor.userId,
        status: "trialing",
        status_since: now,
        trial_ends_at: startTrial(now).trialEndsAt,
        limited_from: startTrial(now).trialEndsAt,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("dentist_id").doNothing())
      .execute();
    return (await lockOwnSubscription(trx, actor)) ?? Promise.reject(new Error("subscription row missing"));
  });
}

const hasLiveSubscription = (row: { subscription_id: string | null; status: SubscriptionStatus }) =>
  row.subscription_id !== null && row.status !== "canceled";

/**
 * 'S'abonner': the provider's checkout of the plan (card or SEPA Direct Debit); its URL. Never a
 * second subscription: a payment already made whose webhooks have not arrived (the dentist back from
 * the checkout before them, or in another tab) is asked of the provider and applied now (409), and
 * the checkouts still open elsewhere are expired, so only the newest page can be paid.
 */
export async function startCheckout(deps: BillingDeps, actor: Actor, plan: PlanId): Promise<string> {
  const row = await ownRow(deps, actor, "subscribe");
  if (hasLiveSubscription(row)) throw new AppError(409, "CONFLICT", BILLING_MESSAGES.alreadySubscribed);
  // One checkout opened at a time (migration 045): a second click meanwhile, in another tab, would
  // pass the checks below before the first page exists, and both pages could be paid.
  const lease = await takeCheckoutLease(deps.db, actor, deps.clock());
  if (!lease) throw new AppError(409, "CONFLICT", BILLING_MESSAGES.checkoutInProgress);
  try {
    // Read again under the lease: a checkout that ended just before may have set the customer.
    const current = (await findSubscription(deps.db, actor.userId)) ?? row;
    if (hasLiveSubscription(current)) throw new AppError(409, "CONFLICT", BILLING_MESSAGES.alreadySubscribed);
    return await openCheckout(deps, actor, plan, current);
  } finally {
    await releaseCheckoutLease(deps.db, actor, lease);
  }
}

/** startCheckout's calls to the provider, under the dentist's checkout lease. */
async function openCheckout(
  deps: BillingDeps,
  actor: Actor,
  plan: PlanId,
  row: SubscriptionRow,
): Promise<string> {
  const provider = await deps.provider();
  if (row.customer_id) {
    const customerId = row.customer_id;
    const live = await callProvider(deps, "ouverture du paiement", () =>
      provider.liveSubscriptionOf(customerId),
    );
    if (live) {
      await applyProviderState(deps, actor.userId, { ...live, at: deps.clock() });
      throw new AppError(409, "CONFLICT", BILLING_MESSAGES.alreadySubscribed);
    }
    await callProvider(deps, "ouverture du paiement", () => provider.expireOpenCheckouts(customerId));
  }
  let customerId = row.customer_id;
  if (!customerId) {
    const created = await callProvider(deps, "création du client", () =>
      provider.createCustomer({
        dentistId: actor.userId,
        email: actor.profile.email,
        name: actor.profile.full_name,
      }),
    );
    await setCustomer(deps.db, actor.userId, created, deps.clock());
    customerId = (await findSubscription(deps.db, actor.userId))?.customer_id ?? created;
  }
  const page = `${deps.config.publicUrl}${SUBSCRIPTION_PAGE}`;
  // Subscribed during the trial, the dentist keeps what is left of it (ADR 085).
  const trialEnd = trialKeptAtCheckout(stateOfRow(row), deps.clock());
  return callProvider(deps, "ouverture du paiement", () =>
    provider.checkout({
      customerId: customerId as string,
      dentistId: actor.userId,
      plan,
      ...(trialEnd ? { trialEnd } : {}),
      successUrl: `${page}?paiement=accepte`,
      cancelUrl: `${page}?paiement=annule`,
    }),
  );
}

/** 'Gérer mon moyen de paiement': the provider's portal for this dentist's customer. */
export async function openPortal(deps: BillingDeps, actor: Actor): Promise<string> {
  const row = await ownRow(deps, actor, "stop");
  if (!row.customer_id || !row.subscription_id)
    throw new AppError(409, "CONFLICT", BILLING_MESSAGES.noSubscription);
  const provider = await deps.provider();
  const customerId = row.customer_id;
  return callProvider(deps, "ouverture du portail", () =>
    provider.portal({ customerId, returnUrl: `${deps.config.publicUrl}${SUBSCRIPTION_PAGE}` }),
  );
}

/**
 * Before a dentist's account is erased (modules/security): a live subscription is cancelled now at
 * the provider, so nothing more is billed to an account that no longer exists. Resolves to whether
 * one was cancelled; the provider failing is a French 503 and the erasure does not happen. Its
 * invoices stay (ADR 045); the row goes with the profile.
 */
export async function cancelSubscriptionForErasure(
  deps: Pick<BillingDeps, "db" | "log" | "provider">,
  dentistId: string,
): Promise<boolean> {
  const row = await findSubscription(deps.db, dentistId);
  if (!row || !hasLiveSubscription(row)) return false;
  const subscriptionId = row.subscription_id as string;
  const provider = await deps.provider();
  try {
    await provider.cancelNow(subscriptionId);
  } catch (error) {
    // Already cancelled there (a webhook not yet applied here): nothing left to stop.
    const current = await provider.retrieve(subscriptionId).catch(() => null);
    if (current?.status === "canceled") return true;
    deps.log.error(
      { err: loggableError(error) },
      "paiement : abonnement non résilié avant la suppression du compte",
    );
    throw new AppError(503, "SERVICE_UNAVAILABLE", BILLING_MESSAGES.erasureCancelFailed);
  }
  return true;
}

/**
 * When the team suspends a dentist (ADR 092) or withdraws his verification (ADR 093): a live
 * subscription is not renewed (cancelled at the end of the period paid, as his own « Résilier »), so
 * nothing more is billed to someone who cannot use Sourio; the suspension lifted or his verification
 * given again, it is his choice to « Réactiver ». Never failing the team's decision: the provider
 * failing is logged and answered `failed`, for the team to stop it at the provider. `stopped` with
 * the period's end; null when there was nothing to stop (no live subscription, or one already ending).
 */
export async function stopRenewal(
  deps: Pick<BillingDeps, "db" | "log" | "provider" | "clock">,
  dentistId: string,
  occasion: "suspension" | "withdrawal",
): Promise<RenewalStop> {
  const row = await findSubscription(deps.db, dentistId);
  if (!row || !hasLiveSubscription(row) || row.cancel_at_period_end) return null;
  let sub: ProviderSubscription;
  try {
    sub = await (await deps.provider()).setCancelAtPeriodEnd(row.subscription_id as string, true);
  } catch (error) {
    deps.log.error(
      { err: loggableError(error) },
      occasion === "suspension"
        ? "paiement : renouvellement non arrêté à la suspension"
        : "paiement : renouvellement non arrêté au retrait de la vérification",
    );
    return { renewal: "failed" };
  }
  // Stopped at the provider: applied here now (its webhook brings the same state later, if this fails).
  await applyProviderState(deps, dentistId, { ...sub, at: deps.clock() }).catch((error) =>
    deps.log.error({ err: loggableError(error) }, "paiement : fin du renouvellement non enregistrée"),
  );
  return { renewal: "stopped", endsAt: sub.currentPeriodEnd };
}

/**
 * A dentist's new address (ADR 083) given to his customer at the provider, whose own e-mails
 * (receipts, the portal's) go there; nothing without a customer. A failure is logged and not
 * retried: his account's address is changed either way, and the portal lets him correct it.
 */
export async function updateCustomerEmail(
  deps: Pick<BillingDeps, "db" | "log" | "provider">,
  dentistId: string,
  email: string,
): Promise<void> {
  const row = await findSubscription(deps.db, dentistId);
  if (!row?.customer_id) return;
  try {
    await (await deps.provider()).updateCustomerEmail(row.customer_id, email);
  } catch (error) {
    deps.log.error({ err: loggableError(error) }, "paiement : nouvelle adresse non transmise au prestataire");
  }
}

/** Applies what the provider answered now (a state read at the app's clock), in a transaction. */
async function applyProviderState(
  deps: Pick<BillingDeps, "db" | "clock">,
  dentistId: string,
  sub: ProviderSubscription,
) {
  const now = deps.clock();
  return deps.db.transaction().execute(async (trx) => {
    const row = await systemLockForEvent(trx, { dentistId });
    if (!row) return undefined;
    const next = applySnapshot(stateOfRow(row), sub);
    if (next) await writeState(trx, dentistId, next, now);
    return findSubscription(trx, dentistId);
  });
}

/** 'Résilier' (true: at the end of the paid period) or 'Réactiver' (false) a live subscription. */
export async function setCancellation(deps: BillingDeps, actor: Actor, cancel: boolean) {
  const row = await ownRow(deps, actor, cancel ? "stop" : "subscribe");
  if (!hasLiveSubscription(row))
    throw new AppError(
      409,
      "CONFLICT",
      cancel ? BILLING_MESSAGES.notCancelable : BILLING_MESSAGES.notReactivable,
    );
  const subscriptionId = row.subscription_id as string;
  const provider = await deps.provider();
  const sub = await callProvider(deps, cancel ? "résiliation" : "réactivation", () =>
    provider.setCancelAtPeriodEnd(subscriptionId, cancel),
  );
  const after = await applyProviderState(deps, actor.userId, { ...sub, at: deps.clock() });
  return {
    subscription: summaryOf(after ?? row, deps.clock()),
    message: !cancel
      ? BILLING_MESSAGES.reactivated
      : (after ?? row).status === "trialing"
        ? BILLING_MESSAGES.canceledInTrial
        : (after ?? row).status === "past_due"
          ? BILLING_MESSAGES.canceledPastDue
          : BILLING_MESSAGES.canceled,
  };
}

/**
 * « Passer à la formule … » (ADR 096): the subscription moves to `plan` at the end of the paid
 * period — a schedule at the provider, nothing prorated or charged before — kept on the row
 * (`next_plan`) until the subscription reaches it, ends or is cancelled (writeState). A subscription
 * that renews changes so: a paid one (active, not cancelled), or one taken during the trial and kept
 * to its end (ADR 085), whose first payment is then the new plan's (ADR 096's addendum). The same
 * plan is refused, the plan already planned is answered as it is. The dentist is e-mailed the day
 * and the amount.
 */
export async function schedulePlanChange(deps: BillingDeps, actor: Actor, plan: PlanId) {
  const row = await ownRow(deps, actor, "subscribe");
  const state = stateOfRow(row);
  const inTrial = subscribedDuringTrial(state);
  if (
    !hasLiveSubscription(row) ||
    (state.status !== "active" && !inTrial) ||
    state.cancelAtPeriodEnd ||
    !state.plan ||
    !state.currentPeriodEnd ||
    // Its period (or trial) over, the provider's renewal not heard of yet: nothing left to schedule in.
    state.currentPeriodEnd.getTime() <= deps.clock().getTime()
  )
    throw new AppError(409, "CONFLICT", BILLING_MESSAGES.planChangeUnavailable);
  if (plan === state.plan) throw new AppError(409, "CONFLICT", BILLING_MESSAGES.planChangeSame);
  const words = PLAN_WORDS[plan];
  const planned = (at: Date) =>
    BILLING_MESSAGES.planChangeScheduled(words.adjective, formatDetailDate(at), inTrial);
  if (row.next_plan === plan && row.next_plan_at)
    return { subscription: summaryOf(row, deps.clock()), message: planned(new Date(row.next_plan_at)) };
  const subscriptionId = row.subscription_id as string;
  const provider = await deps.provider();
  const at = await callProvider(deps, "changement de formule", () =>
    provider.schedulePlanChange(subscriptionId, plan),
  );
  const now = deps.clock();
  const after = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockOwnSubscription(trx, actor);
    // Cancelled or ended meanwhile (a webhook): that change is gone with the schedule.
    if (!locked || locked.subscription_id !== subscriptionId || locked.cancel_at_period_end) return locked;
    return setNextPlan(trx, actor.userId, { plan, at }, now);
  });
  const price = planPrice(plan, deps.config.planPrices);
  mailDentist(deps, actor.userId, "e-mail non envoyé : changement de formule", (base) =>
    planChangeMail({
      ...base,
      plan: words.adjective,
      startsOn: formatDetailDate(at),
      inTrial,
      amountTtc: formatEuros(price.ttcCents),
      every: words.every,
    }),
  );
  return { subscription: summaryOf(after ?? row, now), message: planned(at) };
}

/** « Annuler le changement » (ADR 096): the planned change of plan dropped at the provider and here. */
export async function cancelPlanChange(deps: BillingDeps, actor: Actor) {
  const row = await ownRow(deps, actor, "stop");
  if (!row.next_plan || !hasLiveSubscription(row))
    throw new AppError(409, "CONFLICT", BILLING_MESSAGES.noPlanChange);
  const subscriptionId = row.subscription_id as string;
  const provider = await deps.provider();
  await callProvider(deps, "annulation du changement de formule", () =>
    provider.cancelPlanChange(subscriptionId),
  );
  const now = deps.clock();
  const after = await setNextPlan(deps.db, actor.userId, null, now);
  return { subscription: summaryOf(after ?? row, now), message: BILLING_MESSAGES.planChangeCancelled };
}

export class BadSignature extends AppError {
  constructor() {
    super(400, "BAD_SIGNATURE", BILLING_MESSAGES.badSignature);
  }
}

/**
 * A webhook (ADR 044): the signature checked on the raw body at the app's clock (tampered or forged:
 * 400, nothing changed); then, in one transaction, the event id stored once (a redelivery changes
 * nothing) and the event applied: an older snapshot never moves a subscription back. E-mails go
 * after the commit. The invoices module's issue function is called in this transaction once merged.
 */
export async function handleWebhook(
  deps: BillingDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ duplicate: boolean }> {
  const provider = await deps.provider();
  let event: BillingEvent;
  try {
    event = provider.verifyEvent(rawBody, signature, deps.clock());
  } catch {
    throw new BadSignature();
  }
  const now = deps.clock();
  const after: (() => void)[] = [];
  const stored = await deps.db.transaction().execute(async (trx) => {
    if (!(await storeEventOnce(trx, event.id, event.type, now))) return false;
    switch (event.kind) {
      case "checkout": {
        const row = await systemLockForEvent(trx, {
          dentistId: event.dentistId,
          customerId: event.customerId,
        });
        if (row && !row.customer_id && event.customerId)
          await setCustomer(trx, row.dentist_id, event.customerId, now);
        break;
      }
      case "subscription": {
        const sub = event.subscription;
        const row = await systemLockForEvent(trx, {
          subscriptionId: sub.subscriptionId,
          dentistId: sub.dentistId,
          customerId: sub.customerId,
        });
        if (!row) break;
        const before = stateOfRow(row);
        const next = applySnapshot(before, sub);
        if (!next) break;
        await writeState(trx, row.dentist_id, next, now);
        if (!row.customer_id && sub.customerId) await setCustomer(trx, row.dentist_id, sub.customerId, now);
        if (next.status === "canceled" && before.status !== "canceled")
          after.push(() => mailCancelled(deps, row.dentist_id));
        break;
      }
      case "invoice_paid": {
        // Sourio's own invoice for the payment, numbered in this transaction (modules/invoices).
        const { invoice } = event;
        const row = await systemLockForEvent(trx, {
          subscriptionId: invoice.subscriptionId,
          dentistId: invoice.dentistId,
          customerId: invoice.customerId,
        });
        const plan = invoice.plan ?? row?.plan ?? null;
        if (!row || !plan) {
          deps.log.error({ event: event.id }, "paiement : facture payée sans abonnement ni formule connus");
          break;
        }
        const price = planPrice(plan, deps.config.planPrices);
        // The invoice says what the provider charged, VAT included: the plan's price is what should
        // have been charged, and a difference (a price changed since he subscribed, a coupon, a tax
        // rate missing at the provider) is told to the operator, never printed over.
        const paid = invoice.amountPaidCents;
        // Nothing paid, nothing to invoice, nothing to tell: the provider's 0 € invoice of a trial
        // kept at checkout (ADR 085).
        if (paid === 0) break;
        if (paid !== price.ttcCents)
          deps.log.error(
            { event: event.id, paid_cents: paid, plan_ttc_cents: price.ttcCents },
            paid > 0 && !amountsOfTotal(paid).exact
              ? "paiement : montant payé différent du prix TTC de la formule (facture d'un centime de moins : aucun montant HT ne donne ce total)"
              : "paiement : montant payé différent du prix TTC de la formule (facture établie sur le montant payé)",
          );
        if (!(paid > 0)) break;
        const issued = await issueInvoice(
          trx,
          {
            dentistId: row.dentist_id,
            paymentRef: invoice.id,
            planLabel: `Abonnement ${planName(deps.config.brandName, plan)}`,
            periodStart: invoice.periodStart ?? now,
            periodEnd: invoice.periodEnd ?? now,
            paidTtcCents: paid,
            issuedAt: now,
          },
          { seller: deps.config.invoiceSeller },
        );
        after.push(() => afterInvoice(deps, row.dentist_id, issued));
        break;
      }
      case "credit_note": {
        // A refund made at the provider (its dashboard: a credit note on the invoice): Sourio's own
        // credit note on its invoice of that payment (ADR 079). Before payment (it lowers what is due),
        // nothing: the invoice is issued on what is paid.
        const note = event.creditNote;
        if (!note.invoiceId || !(note.postPaymentCents > 0)) break;
        const outcome = await issueProviderCreditNote(
          trx,
          {
            providerInvoiceId: note.invoiceId,
            providerCreditNoteId: note.id,
            creditedTtcCents: note.postPaymentCents,
            reason: providerCreditReason(note.reason, note.memo),
            issuedAt: now,
          },
          { seller: deps.config.invoiceSeller },
        );
        if (outcome.status === "unknown_invoice") {
          deps.log.error(
            { event: event.id, credit_note: note.id },
            "paiement : avoir du prestataire sur une facture que Sourio n'a pas émise ; aucun avoir émis",
          );
          break;
        }
        if (outcome.status === "exceeds") {
          deps.log.error(
            { event: event.id, credit_note: note.id, invoice: outcome.invoice.number },
            "paiement : avoir du prestataire supérieur au restant de la facture ; aucun avoir émis, à régulariser",
          );
          break;
        }
        if (!outcome.exact)
          deps.log.error(
            { event: event.id, credit_note: note.id, credited_cents: note.postPaymentCents },
            "paiement : avoir de Sourio d'un centime différent du remboursement (aucun montant HT ne donne ce total)",
          );
        const { creditNote, invoice } = outcome;
        after.push(() => afterInvoice(deps, creditNote.dentist_id, creditNote, invoice.number));
        break;
      }
      case "credit_note_voided": {
        // Sourio's documents never change once issued: the operator regularises by hand.
        deps.log.error(
          { event: event.id, credit_note: event.creditNote.id },
          "paiement : avoir annulé chez le prestataire ; l'avoir de Sourio reste émis, à régulariser par une nouvelle facture",
        );
        break;
      }
      case "invoice_failed": {
        const row = await systemLockForEvent(trx, {
          subscriptionId: event.invoice.subscriptionId,
          customerId: event.invoice.customerId,
        });
        if (row) after.push(() => mailPaymentFailed(deps, row.dentist_id, event.created));
        break;
      }
      default:
        break;
    }
    return true;
  });
  for (const send of after) send();
  return { duplicate: !stored };
}

/** After the commit: the e-mail, and the invoice's PDF stored (a download makes it again if this fails). */
function afterInvoice(deps: BillingDeps, dentistId: string | null, invoice: InvoiceRow, refersTo?: string) {
  if (dentistId)
    mailDentist(deps, dentistId, "e-mail non envoyé : facture disponible", (base) =>
      invoiceAvailableMail({ ...base, number: invoice.number, ...(refersTo ? { refersTo } : {}) }),
    );
  const { storage } = deps;
  if (storage)
    afterCommit(
      deps,
      () => storedInvoicePdf({ db: deps.db, storage }, invoice),
      "PDF de facture non enregistré (un téléchargement le refera)",
    );
}

function mailCancelled(deps: BillingDeps, dentistId: string) {
  mailDentist(deps, dentistId, "e-mail non envoyé : abonnement terminé", (base) =>
    subscriptionCancelledMail(base),
  );
}

function mailPaymentFailed(deps: BillingDeps, dentistId: string, failedAt: Date) {
  mailDentist(deps, dentistId, "e-mail non envoyé : paiement échoué", async (base) => {
    const row = await findSubscription(deps.db, dentistId);
    if (!row) return null;
    // The grace counts from the first failure (the state's start), else from this one.
    const since = row.status === "past_due" ? new Date(row.status_since) : failedAt;
    return paymentFailedMail({
      ...base,
      graceEndsOn: formatDetailDate(new Date(since.getTime() + GRACE_DAYS * DAY_MS)),
    });
  });
}

/**
 * The daily reconciliation: every subscription the provider holds is read again and applied as a
 * snapshot at the app's clock (a webhook lost or refused is made good). Returns how many changed.
 */
export async function reconcileSubscriptions(deps: BillingDeps): Promise<number> {
  const provider = await deps.provider();
  let changed = 0;
  for (const { dentist_id, subscription_id } of await systemProviderSubscriptions(deps.db)) {
    if (!subscription_id) continue;
    try {
      const sub = await provider.retrieve(subscription_id);
      const before = await findSubscription(deps.db, dentist_id);
      const after = await applyProviderState(deps, dentist_id, { ...sub, at: deps.clock() });
      if (
        before &&
        after &&
        (before.status !== after.status || before.cancel_at_period_end !== after.cancel_at_period_end)
      )
        changed += 1;
    } catch (error) {
      deps.log.error({ err: loggableError(error) }, "paiement : abonnement non relu");
    }
  }
  return changed;
}

/** The e-mail of the trials ending in 7 days, once per trial (the mail job, every minute). */
export async function sendTrialEndingMails(deps: Omit<BillingDeps, "provider">): Promise<void> {
  const now = deps.clock();
  const due = await systemTrialsEnding(deps.db, now, new Date(now.getTime() + TRIAL_WARNING_DAYS * DAY_MS));
  for (const trial of due) {
    if (!(await systemMarkTrialWarned(deps.db, trial.dentist_id, now))) continue;
    await deps.mailer
      .send({
        to: trial.email,
        ...trialEndingMail({
          brandName: deps.config.brandName,
          firstName: trial.first_name,
          endsOn: formatDetailDate(new Date(trial.trial_ends_at)),
          daysLeft: daysBetween(parisToday(now), parisToday(new Date(trial.trial_ends_at))),
          link: `${deps.config.publicUrl}${SUBSCRIPTION_PAGE}`,
        }),
      })
      .catch((error) => deps.log.error({ err: loggableError(error) }, "e-mail de fin d'essai non envoyé"));
  }
}

export const ADMIN_PAGE_SIZE = 20;

/**
 * Admin 'Abonnements': counts by standing at the clock (an ended trial is no trial), MRR HT, a page of
 * the list (search on name and e-mail, filter by standing); each line with its phase, as the dentist's
 * page words it (renewal, or end when cancelled).
 */
export async function adminSubscriptions(
  deps: Pick<BillingDeps, "db" | "config" | "clock">,
  query: { search: string; status: SubscriptionStanding | "all"; page: number },
): Promise<AdminSubscriptions> {
  const now = deps.clock();
  const [{ counts, paying }, rows] = await Promise.all([
    adminCounts(deps.db, now),
    adminList(deps.db, {
      search: query.search,
      status: query.status,
      now,
      offset: (query.page - 1) * ADMIN_PAGE_SIZE,
      limit: ADMIN_PAGE_SIZE + 1,
    }),
  ]);
  return {
    counts,
    mrr_ht_cents: monthlyRecurringRevenue(
      Object.entries(paying).map(([plan, count]) => ({ plan: plan as PlanId, count })),
      deps.config.planPrices,
    ),
    items: rows.slice(0, ADMIN_PAGE_SIZE).map((row) => {
      const state = stateOfRow(row);
      const { phase, changesAt } = phaseOf(state, now);
      return {
        dentist_id: row.dentist_id,
        full_name: row.full_name,
        email: row.email,
        status: standingOf(state, now),
        plan: row.plan,
        limited: isLimited(limitedFrom(state), now),
        phase,
        changes_at: changesAt?.toISOString() ?? null,
        next_plan: row.next_plan,
      };
    }),
    has_more: rows.length > ADMIN_PAGE_SIZE,
  };
}

export const RECONCILIATION_JOB = "billing-reconciliation";

/**
 * The reconciliation, once a day across instances: the first run of the day (UTC) claims it in
 * job_runs (the retention's way), the others find it claimed. Resolves to whether it ran.
 */
export async function runDailyReconciliation(deps: BillingDeps): Promise<boolean> {
  const now = deps.clock();
  const day = now.toISOString().slice(0, 10);
  const claimed = await deps.db
    .insertInto("job_runs")
    .values({ job: RECONCILIATION_JOB, run_on: day, started_at: now, details: "{}" })
    .onConflict((oc) => oc.doNothing())
    .returning("job")
    .executeTakeFirst();
  if (!claimed) return false;
  const changed = await reconcileSubscriptions(deps);
  await deps.db
    .updateTable("job_runs")
    .set({ finished_at: deps.clock(), details: JSON.stringify({ changed }) })
    .where("job", "=", RECONCILIATION_JOB)
    .where("run_on", "=", day)
    .execute();
  return true;
}
