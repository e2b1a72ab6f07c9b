import path from "node:path";
import type { FastifyInstance } from "fastify";
import { cancelSubscriptionForErasure, stopRenewal, updateCustomerEmail } from "./billing.service";
import { type BillingProvider, StripeProvider } from "./provider";
import { STAND_IN_PRICES, STAND_IN_TAX_RATE, StripeStandIn } from "./stand-in";

/** The local stand-in's customers and subscriptions, under DATA_DIR (0600). */
export const STAND_IN_STATE_FILE = "stripe-stand-in.json";

/** The webhook's path: the stand-in posts there, Stripe's dashboard is given it. */
export const WEBHOOK_PATH = "/api/billing/webhook";

declare module "fastify" {
  interface FastifyInstance {
    /** The payment provider (ADR 044): Stripe with its keys, else the local stand-in. */
    billing: BillingRuntime;
  }
}

/**
 * Holds the payment provider of this instance. With Stripe's settings, the SDK talks to Stripe;
 * without them (quick start, tests; never production, the config refuses it), the stand-in starts
 * on a free port at the first use and the same SDK talks to it. Its webhooks reach the app through
 * `inject`, the raw body and its signature as Stripe would post them.
 */
export class BillingRuntime {
  private providerPromise: Promise<BillingProvider> | undefined;
  private started: StripeStandIn | null = null;

  constructor(private readonly app: FastifyInstance) {}

  /** "Paiements : …", the line the console shows at start (server.ts). */
  get startupText(): string {
    return this.app.config.stripe
      ? "Paiements : Stripe (STRIPE_SECRET_KEY)"
      : "Paiements : simulés localement (aucun paiement réel ; STRIPE_* pour Stripe)";
  }

  provider(): Promise<BillingProvider> {
    this.providerPromise ??= this.open();
    return this.providerPromise;
  }

  /**
   * Before a dentist's account is erased (modules/security, through ErasureDeps): his live
   * subscription cancelled now at the provider; whether there was one. A French 503 if it fails.
   */
  cancelForErasure(dentistId: string, log: { error(obj: object, msg: string): void }): Promise<boolean> {
    return cancelSubscriptionForErasure({ db: this.app.db, log, provider: () => this.provider() }, dentistId);
  }

  /**
   * The live subscription of a dentist suspended (ADR 092) or whose verification is withdrawn
   * (ADR 093) not renewed (modules/admin); never throws.
   */
  stopRenewal(
    dentistId: string,
    occasion: "suspension" | "withdrawal",
    log: { error(obj: object, msg: string): void },
  ) {
    return stopRenewal(
      { db: this.app.db, log, provider: () => this.provider(), clock: this.app.clock },
      dentistId,
      occasion,
    );
  }

  /** A dentist's new address, for the provider's own e-mails to him (modules/security, ADR 083). */
  customerEmailChanged(dentistId: string, email: string, log: { error(obj: object, msg: string): void }) {
    return updateCustomerEmail({ db: this.app.db, log, provider: () => this.provider() }, dentistId, email);
  }

  /**
   * Without Stripe, what the stand-in's clock (the app's) has made due — a trial's first payment,
   * renewals, ends of cancelled subscriptions — as Stripe does it by itself: server.ts every minute,
   * and the browser tests' clock when moved. Nothing with Stripe's settings.
   */
  async tickStandIn(): Promise<void> {
    if (this.app.config.stripe) return;
    await (await this.standIn())?.tick();
  }

  /** The stand-in (tests drive its clock, its events and its pages); null with Stripe's settings. */
  async standIn(): Promise<StripeStandIn | null> {
    await this.provider();
    return this.started;
  }

  private async open(): Promise<BillingProvider> {
    const { app } = this;
    if (app.config.stripe) return new StripeProvider(app.config.stripe);
    const standIn = new StripeStandIn({
      clock: () => app.clock(),
      prices: app.config.planPrices,
      brand: app.config.brandName,
      // Kept across restarts of the quick start (npm start again after a checkout).
      stateFile: path.join(app.config.dataDir, STAND_IN_STATE_FILE),
      log: app.log,
      deliver: async (payload, signature) => {
        const response = await app.inject({
          method: "POST",
          url: WEBHOOK_PATH,
          headers: { "content-type": "application/json", "stripe-signature": signature },
          payload,
        });
        return response.statusCode;
      },
    });
    const endpoint = await standIn.start();
    this.started = standIn;
    return new StripeProvider({
      secretKey: standIn.secretKey,
      webhookSecret: standIn.webhookSecret,
      prices: STAND_IN_PRICES,
      taxRate: STAND_IN_TAX_RATE,
      endpoint,
    });
  }

  async close(): Promise<void> {
    await this.started?.close();
  }
}
