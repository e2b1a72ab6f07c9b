import Stripe from "stripe";
import {
  type PlanId,
  type SubscriptionSnapshot,
  statusFromProvider,
} from "../../../shared/domain/subscription";

/**
 * The payment provider behind a small port (ADR 044): what the subscription needs of it, nothing
 * more. One implementation, on the official Stripe SDK; without keys the same SDK talks to the local
 * stand-in (stand-in.ts), so the code that runs in tests is the code that runs in production.
 */
export interface BillingProvider {
  /** "stripe" with the configured keys; "stand-in" for the local simulation. */
  readonly kind: "stripe" | "stand-in";
  createCustomer(input: { dentistId: string; email: string; name: string }): Promise<string>;
  /** The dentist changed his address: the provider's own e-mails (receipts) follow it. */
  updateCustomerEmail(customerId: string, email: string): Promise<void>;
  /** A hosted checkout of the plan (card or SEPA Direct Debit): the page's URL. */
  checkout(input: {
    customerId: string;
    dentistId: string;
    plan: PlanId;
    successUrl: string;
    cancelUrl: string;
    /** The trial it keeps (ADR 085): the first payment is taken then; absent, at once. */
    trialEnd?: Date;
  }): Promise<string>;
  /**
   * The customer's subscription that is not over at the provider (the latest), or null: a payment
   * made whose webhooks have not arrived yet is seen here before a second checkout is opened.
   */
  liveSubscriptionOf(customerId: string): Promise<ProviderSubscription | null>;
  /** Expires the customer's checkouts still open (another tab's), so only the newest can be paid. */
  expireOpenCheckouts(customerId: string): Promise<void>;
  /** The customer portal (payment method, invoices of the provider): the page's URL. */
  portal(input: { customerId: string; returnUrl: string }): Promise<string>;
  /**
   * Cancel at the end of the paid period (true), or take that back (false). A change of plan
   * planned (a schedule) is dropped first: the subscription ends as it is.
   */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription>;
  /**
   * The plan changed at the end of the paid period (ADR 096: a subscription schedule of two phases,
   * the current one to its end, then the new plan; nothing prorated, nothing charged before). Its
   * instant: the end of the current period.
   */
  schedulePlanChange(subscriptionId: string, plan: PlanId): Promise<Date>;
  /** The change of plan planned is dropped (its schedule released): the subscription goes on as it is. */
  cancelPlanChange(subscriptionId: string): Promise<void>;
  /** Cancel now, nothing more billed (the dentist's account is erased). */
  cancelNow(subscriptionId: string): Promise<ProviderSubscription>;
  retrieve(subscriptionId: string): Promise<ProviderSubscription>;
  /** The event of a webhook whose signature is right at `receivedAt`; throws otherwise. */
  verifyEvent(rawBody: Buffer, signature: string | undefined, receivedAt: Date): BillingEvent;
}

/** A subscription as the provider holds it now, with the customer and the dentist it belongs to. */
export interface ProviderSubscription extends SubscriptionSnapshot {
  customerId: string;
  dentistId: string | null;
}

export interface ProviderInvoice {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  /** The dentist and the plan, from the subscription's metadata (set at checkout). */
  dentistId: string | null;
  plan: PlanId | null;
  amountPaidCents: number;
  periodStart: Date | null;
  periodEnd: Date | null;
}

/** A credit note made at the provider on one of its invoices (a refund, a correction). */
export interface ProviderCreditNote {
  id: string;
  /** The provider's invoice it credits: Sourio's invoice of that payment has it as payment_ref. */
  invoiceId: string | null;
  /** What it credits after payment (refunded or kept as credit), TTC, in cents; 0 before payment. */
  postPaymentCents: number;
  /** The provider's reason (duplicate, fraudulent, order_change, product_unsatisfactory) or null. */
  reason: string | null;
  /** The text typed with it, if any. */
  memo: string | null;
}

/** The events the subscription listens to; the others are acknowledged and ignored. */
export type BillingEvent = { id: string; type: string; created: Date } & (
  | { kind: "checkout"; customerId: string; subscriptionId: string | null; dentistId: string | null }
  | { kind: "subscription"; subscription: ProviderSubscription }
  | { kind: "invoice_paid" | "invoice_failed"; invoice: ProviderInvoice }
  | { kind: "credit_note" | "credit_note_voided"; creditNote: ProviderCreditNote }
  | { kind: "other" }
);

/** The API version this code was written against: pinned, whatever the account's default. */
export const STRIPE_API_VERSION = "2026-10-28.endive" as const;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  prices: Record<PlanId, string>;
  /**
   * The French VAT (20 %, exclusive) as a Stripe tax rate (`txr_…`), put on every subscription's line:
   * the prices are HT, and Stripe adds no tax to a subscription unless told (ADR 044 addendum).
   */
  taxRate: string;
  /** The stand-in's address (http://127.0.0.1:port); undefined for Stripe's own. */
  endpoint?: { host: string; port: number; protocol: "http" | "https" };
}

const idOf = (value: unknown): string | null =>
  typeof value === "string"
    ? value
    : value && typeof value === "object" && "id" in value
      ? String(value.id)
      : null;
const dateOf = (seconds: unknown): Date | null =>
  typeof seconds === "number" ? new Date(seconds * 1000) : null;

export class StripeProvider implements BillingProvider {
  readonly kind: "stripe" | "stand-in";
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.kind = settings.endpoint ? "stand-in" : "stripe";
    this.stripe = new Stripe(settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(settings.endpoint ?? {}),
    });
  }

  private planOf(priceId: string | null): PlanId | null {
    if (priceId === this.settings.prices.monthly) return "monthly";
    if (priceId === this.settings.prices.yearly) return "yearly";
    return null;
  }

  private subscriptionOf(sub: Stripe.Subscription, at: Date): ProviderSubscription {
    const item = sub.items?.data?.[0];
    return {
      subscriptionId: sub.id,
      status: sub.status,
      at,
      plan: this.planOf(idOf(item?.price)),
      currentPeriodEnd: dateOf(item?.current_period_end),
      cancelAtPeriodEnd: sub.cancel_at_period_end === true,
      customerId: idOf(sub.customer) ?? "",
      dentistId: sub.metadata?.dentist_id ?? null,
    };
  }

  async createCustomer(input: { dentistId: string; email: string; name: string }) {
    const customer = await this.stripe.customers.create(
      { email: input.email, name: input.name, metadata: { dentist_id: input.dentistId } },
      { idempotencyKey: `customer-${input.dentistId}` },
    );
    return customer.id;
  }

  async updateCustomerEmail(customerId: string, email: string) {
    await this.stripe.customers.update(customerId, { email });
  }

  async checkout(input: {
    customerId: string;
    dentistId: string;
    plan: PlanId;
    successUrl: string;
    cancelUrl: string;
    trialEnd?: Date;
  }) {
    const session = await this.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: input.customerId,
      client_reference_id: input.dentistId,
      line_items: [
        { price: this.settings.prices[input.plan], quantity: 1, tax_rates: [this.settings.taxRate] },
      ],
      allowed_payment_method_types: ["card", "sepa_debit"],
      subscription_data: {
        metadata: { dentist_id: input.dentistId, plan: input.plan },
        ...(input.trialEnd ? { trial_end: Math.floor(input.trialEnd.getTime() / 1000) } : {}),
      },
      locale: "fr",
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error("checkout session without url");
    return session.url;
  }

  async liveSubscriptionOf(customerId: string) {
    const list = await this.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 10 });
    // Only a state Sourio applies (an `incomplete` one, its first payment still pending, is not one).
    const live = list.data
      .filter((sub) => {
        const status = statusFromProvider(sub.status);
        return status !== null && status !== "canceled";
      })
      .sort((a, b) => b.created - a.created)[0];
    return live ? this.subscriptionOf(live, new Date()) : null;
  }

  async expireOpenCheckouts(customerId: string) {
    const open = await this.stripe.checkout.sessions.list({
      customer: customerId,
      status: "open",
      limit: 10,
    });
    for (const session of open.data) await this.stripe.checkout.sessions.expire(session.id);
  }

  async portal(input: { customerId: string; returnUrl: string }) {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
      locale: "fr",
    });
    return session.url;
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
    // A subscription a schedule manages refuses a change of its cancellation: the planned change of
    // plan goes first (ADR 096).
    if (cancel) await this.cancelPlanChange(subscriptionId);
    const sub = await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
    return this.subscriptionOf(sub, new Date());
  }

  async cancelNow(subscriptionId: string) {
    await this.cancelPlanChange(subscriptionId);
    const sub = await this.stripe.subscriptions.cancel(subscriptionId);
    return this.subscriptionOf(sub, new Date());
  }

  async schedulePlanChange(subscriptionId: string, plan: PlanId) {
    const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
    const item = sub.items.data[0];
    const currentPrice = idOf(item?.price);
    const periodEnd = item?.current_period_end;
    if (!currentPrice || typeof periodEnd !== "number")
      throw new Error("subscription without a current period");
    // Its schedule, or one made from it (its first phase: the current period as it is).
    const scheduleId =
      idOf(sub.schedule) ??
      (await this.stripe.subscriptionSchedules.create({ from_subscription: subscriptionId })).id;
    const schedule = await this.stripe.subscriptionSchedules.retrieve(scheduleId);
    const start = schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date;
    if (typeof start !== "number") throw new Error("subscription schedule without a current phase");
    const line = (price: string) => ({ price, quantity: 1, tax_rates: [this.settings.taxRate] });
    // A trial kept at checkout (ADR 085) stays a trial to its end: its first payment is the new plan's.
    const trial = sub.status === "trialing" ? { trial: true } : {};
    await this.stripe.subscriptionSchedules.update(scheduleId, {
      end_behavior: "release",
      proration_behavior: "none",
      phases: [
        {
          items: [line(currentPrice)],
          start_date: start,
          end_date: periodEnd,
          proration_behavior: "none",
          ...trial,
        },
        { items: [line(this.settings.prices[plan])], proration_behavior: "none" },
      ],
    });
    return new Date(periodEnd * 1000);
  }

  async cancelPlanChange(subscriptionId: string) {
    const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
    const scheduleId = idOf(sub.schedule);
    if (scheduleId) await this.stripe.subscriptionSchedules.release(scheduleId);
  }

  async retrieve(subscriptionId: string) {
    const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
    return this.subscriptionOf(sub, new Date());
  }

  verifyEvent(rawBody: Buffer, signature: string | undefined, receivedAt: Date): BillingEvent {
    if (!signature) throw new Error("no signature");
    const event = this.stripe.webhooks.constructEvent(
      rawBody,
      signature,
      this.settings.webhookSecret,
      undefined,
      undefined,
      Math.floor(receivedAt.getTime() / 1000),
    );
    const created = new Date(event.created * 1000);
    const base = { id: event.id, type: event.type, created };
    switch (event.type) {
      case "checkout.session.completed": {
        const session = event.data.object;
        return {
          ...base,
          kind: "checkout",
          customerId: idOf(session.customer) ?? "",
          subscriptionId: idOf(session.subscription),
          dentistId: session.client_reference_id ?? null,
        };
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted":
        return {
          ...base,
          kind: "subscription",
          subscription: this.subscriptionOf(event.data.object, created),
        };
      case "invoice.paid":
      case "invoice.payment_failed": {
        const invoice = event.data.object;
        const line = invoice.lines?.data?.[0];
        const metadata = invoice.parent?.subscription_details?.metadata ?? {};
        // The plan of the price its line charged: the checkout's (the metadata's) unless the
        // subscription's price was changed since, at the provider (ADR 085: the team does it).
        const plan =
          this.planOf(idOf(line?.pricing?.price_details?.price)) ??
          (metadata.plan === "monthly" || metadata.plan === "yearly" ? metadata.plan : null);
        return {
          ...base,
          kind: event.type === "invoice.paid" ? "invoice_paid" : "invoice_failed",
          invoice: {
            id: invoice.id ?? "",
            customerId: idOf(invoice.customer) ?? "",
            subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
            dentistId: metadata.dentist_id ?? null,
            plan,
            amountPaidCents: invoice.amount_paid,
            periodStart: dateOf(line?.period?.start),
            periodEnd: dateOf(line?.period?.end),
          },
        };
      }
      case "credit_note.created":
      case "credit_note.voided": {
        const note = event.data.object;
        return {
          ...base,
          kind: event.type === "credit_note.created" ? "credit_note" : "credit_note_voided",
          creditNote: {
            id: note.id,
            invoiceId: idOf(note.invoice),
            postPaymentCents: note.post_payment_amount,
            reason: note.reason ?? null,
            memo: note.memo?.trim() || null,
          },
        };
      }
      default:
        return { ...base, kind: "other" };
    }
  }
}
