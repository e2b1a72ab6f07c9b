import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Stripe from "stripe";
import { type PlanId, type PlanPrices, planName, planPrice } from "../../../shared/domain/subscription";
import { formatEuros } from "../../../shared/format/money";
import { loggableError } from "../../redact";

/**
 * The local stand-in of the few Stripe endpoints the app calls (ADR 044), for the quick start and the
 * tests: an HTTP server on a free port of 127.0.0.1 to which the real SDK is pointed, with its state
 * in memory and, when given a file (DATA_DIR/stripe-stand-in.json, 0600), kept there after every
 * change and read again at start: a subscription paid before a restart is still known after it. It serves a checkout page and a payment-method page where one chooses "Paiement
 * accepté" or "Paiement refusé", renews subscriptions when its clock (the app's) passes their period
 * end, and posts signed webhooks to the app (the SDK's own test signature), which tests may hold,
 * send again, or send out of order.
 *
 * Nothing of it is real money, and it says so on every page.
 */

export const STAND_IN_PRICES: Record<PlanId, string> = {
  monthly: "price_standin_monthly",
  yearly: "price_standin_yearly",
};

/** The plan a price of the stand-in charges, or undefined for any other price. */
const planOfPrice = (priceId: string | null) =>
  (Object.keys(STAND_IN_PRICES) as PlanId[]).find((p) => STAND_IN_PRICES[p] === priceId);

/**
 * Its one tax rate, the French VAT (20 %, exclusive). As at Stripe, a subscription's invoices add a tax
 * only when its checkout line named a tax rate: without one, the HT price is what is charged.
 */
export const STAND_IN_TAX_RATE = "txr_standin_tva20";

/** What a subscription's invoice charges: TTC with the tax rate on its line, else the HT price. */
const charged = (sub: { taxed?: boolean }, price: { htCents: number; ttcCents: number }) =>
  sub.taxed === false ? price.htCents : price.ttcCents;

/** A customer as the stand-in keeps it: no e-mail nor name (answered back, never stored). */
interface Customer {
  id: string;
  dentistId: string | null;
  /** The payment method saved: null before the first checkout; false when the bank refuses it. */
  paymentWorks: boolean | null;
}

interface Sub {
  id: string;
  customerId: string;
  dentistId: string | null;
  plan: PlanId;
  status: "trialing" | "active" | "past_due" | "canceled" | "unpaid";
  created: number;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  /** Whether its line carries the VAT (its checkout named the tax rate); absent in older state: yes. */
  taxed?: boolean;
  /**
   * The plan its checkout named, in its metadata, which a change of price leaves as it was (as at
   * Stripe); absent in older state: `plan`.
   */
  checkoutPlan?: PlanId;
  /**
   * The subscription schedule managing it (ADR 096), while one does: its id, and the plan of its
   * second phase, which starts at the end of the current period (null: none set yet).
   */
  schedule?: { id: string; nextPlan: PlanId | null } | null;
  /** The invoice its last refused renewal left open, which a working payment method pays (as at Stripe). */
  openInvoiceId?: string | null;
}

interface CheckoutSession {
  id: string;
  customerId: string;
  dentistId: string | null;
  plan: PlanId;
  successUrl: string;
  cancelUrl: string;
  status: "open" | "complete" | "expired";
  subscriptionId: string | null;
  taxed: boolean;
  /** `subscription_data[trial_end]`: the subscription starts in trial until then (seconds). */
  trialEnd?: number | null;
}

/** An invoice it issued: what was paid, and how much its credit notes took back. */
interface StandInInvoice {
  id: string;
  customerId: string;
  status: "paid" | "open";
  /** TTC, in cents: what the invoice charges. */
  total: number;
  amountPaid: number;
}

/** A credit note on one of its invoices (Stripe's POST /v1/credit_notes), issued or voided. */
interface StandInCreditNote {
  id: string;
  invoiceId: string;
  customerId: string;
  /** TTC, in cents. */
  total: number;
  /** The part credited after payment (refunded), the rest before it (lowering what is due). */
  postPayment: number;
  reason: string | null;
  memo: string | null;
  status: "issued" | "void";
  created: number;
}

export interface StandInEvent {
  id: string;
  type: string;
  created: number;
  payload: string;
}

/** How the app receives a webhook: the raw body and its Stripe-Signature header; the answer's status. */
export type WebhookDelivery = (payload: string, signature: string) => Promise<number>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function addPeriod(start: number, plan: PlanId): number {
  const date = new Date(start * 1000);
  if (plan === "monthly") date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  return seconds(date);
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export class StripeStandIn {
  readonly secretKey = `sk_test_standin${randomBytes(8).toString("hex")}`;
  readonly webhookSecret = `whsec_standin${randomBytes(16).toString("hex")}`;
  private server: Server | null = null;
  private port = 0;
  private readonly customers = new Map<string, Customer>();
  /** The customers' addresses, in memory only: the state file (DATA_DIR) keeps no personal data. */
  private readonly emails = new Map<string, string>();
  private readonly subscriptions = new Map<string, Sub>();
  private readonly sessions = new Map<string, CheckoutSession>();
  private readonly portals = new Map<string, { customerId: string; returnUrl: string }>();
  private readonly invoices = new Map<string, StandInInvoice>();
  private readonly creditNotes = new Map<string, StandInCreditNote>();
  private readonly signer = new Stripe("sk_test_signer").webhooks;
  /** Every event made, in the order made. */
  readonly events: StandInEvent[] = [];
  /** Events made while held, not yet sent (tests send them in the order they choose). */
  readonly held: StandInEvent[] = [];
  private holding = false;
  /** The app's answers to each sending: event id and HTTP status. */
  readonly deliveries: { id: string; status: number }[] = [];

  constructor(
    private readonly options: {
      clock: () => Date;
      prices: PlanPrices;
      /** The brand its payment page names the plans under (BRAND_NAME). */
      brand: string;
      deliver: WebhookDelivery;
      /** Where its customers and subscriptions are kept across restarts; none: memory only. */
      stateFile?: string;
      log?: { warn(obj: object, msg: string): void };
    },
  ) {}

  /** Starts the server on a free port of 127.0.0.1 (with the state of the previous run, if kept). */
  async start(): Promise<{ host: string; port: number; protocol: "http" }> {
    if (!this.server) {
      this.load();
      const server = createServer((req, res) => {
        this.handle(req, res).catch((error: Error) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { type: "api_error", message: error.message } }));
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve());
      });
      server.unref();
      this.server = server;
      this.port = (server.address() as AddressInfo).port;
    }
    return { host: "127.0.0.1", port: this.port, protocol: "http" };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  // ─── What tests drive ─────────────────────────────────────────────────────────────────────────

  /** Keeps the next events instead of sending them (until `release`). */
  hold(): void {
    this.holding = true;
  }

  /** Sends the held events in this order (default: as made), then sends as they come again. */
  async release(
    order: (events: StandInEvent[]) => StandInEvent[] = (e) => e,
    deliver?: WebhookDelivery,
  ): Promise<void> {
    const events = order(this.held.splice(0));
    this.holding = false;
    for (const event of events) await this.send(event, deliver ? { deliver } : {});
  }

  /**
   * Sends an event (again), signed at the clock's time; or signed with another secret (a forged
   * one), or changed after it was signed (`tamper`).
   */
  async send(
    event: StandInEvent,
    options: { secret?: string; tamper?: (payload: string) => string; deliver?: WebhookDelivery } = {},
  ): Promise<number> {
    const signature = this.signer.generateTestHeaderString({
      payload: event.payload,
      secret: options.secret ?? this.webhookSecret,
      timestamp: seconds(this.options.clock()),
    });
    const payload = options.tamper ? options.tamper(event.payload) : event.payload;
    const status = await (options.deliver ?? this.options.deliver)(payload, signature);
    this.deliveries.push({ id: event.id, status });
    return status;
  }

  /** The customer's next payments succeed (true) or are refused by the bank (false). */
  setPaymentWorks(customerId: string, works: boolean): void {
    const customer = this.customers.get(customerId);
    if (customer) customer.paymentWorks = works;
    this.save();
  }

  // ─── State across restarts ────────────────────────────────────────────────────────────────────

  /**
   * Reads the state kept by the previous run: customers and subscriptions (checkout and portal
   * sessions are pages of the previous port, gone with it). A file that cannot be read is set
   * aside (renamed .illisible) and the stand-in starts empty, saying so in the log.
   */
  private load(): void {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return;
    try {
      const state = JSON.parse(readFileSync(file, "utf8")) as {
        version: number;
        customers: Customer[];
        subscriptions: Sub[];
        /** Absent from the files of versions without credit notes. */
        invoices?: StandInInvoice[];
        creditNotes?: StandInCreditNote[];
      };
      if (state.version !== 1 || !Array.isArray(state.customers) || !Array.isArray(state.subscriptions))
        throw new Error("format inconnu");
      for (const customer of state.customers) this.customers.set(customer.id, customer);
      for (const sub of state.subscriptions) this.subscriptions.set(sub.id, sub);
      for (const invoice of state.invoices ?? []) this.invoices.set(invoice.id, invoice);
      for (const note of state.creditNotes ?? []) this.creditNotes.set(note.id, note);
    } catch (error) {
      renameSync(file, `${file}.illisible`);
      this.options.log?.warn(
        { err: loggableError(error) },
        "paiements simulés : état précédent illisible, mis de côté ; le simulateur repart à vide",
      );
    }
  }

  /** Writes the state after a change: a new file (0600) put in place of the old one at once. */
  private save(): void {
    const file = this.options.stateFile;
    if (!file) return;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const state = {
      version: 1,
      customers: [...this.customers.values()],
      subscriptions: [...this.subscriptions.values()],
      invoices: [...this.invoices.values()],
      creditNotes: [...this.creditNotes.values()],
    };
    const next = `${file}.${process.pid}.tmp`;
    writeFileSync(next, JSON.stringify(state), { mode: 0o600 });
    renameSync(next, file);
  }

  /** Completes a checkout as its page's buttons do (tests without a browser). */
  async pay(sessionId: string, accepted: boolean): Promise<boolean> {
    return this.completeCheckout(sessionId, accepted);
  }

  /** What its clock says is due: renewals (paid or refused) and ends of cancelled subscriptions. */
  async tick(): Promise<void> {
    const now = seconds(this.options.clock());
    try {
      await this.renewDue(now);
    } finally {
      this.save();
    }
  }

  private async renewDue(now: number): Promise<void> {
    for (const sub of this.subscriptions.values()) {
      // Stripe retries an overdue invoice: paid once the customer's payment method works.
      if (sub.status === "past_due" && this.customers.get(sub.customerId)?.paymentWorks)
        await this.payOverdue(sub);
      while (
        (sub.status === "trialing" || sub.status === "active" || sub.status === "past_due") &&
        sub.periodEnd <= now
      ) {
        if (sub.cancelAtPeriodEnd) {
          sub.status = "canceled";
          await this.emit("customer.subscription.deleted", this.subscriptionJson(sub));
          break;
        }
        if (sub.status === "past_due") break; // still waiting for a payment method that works
        const customer = this.customers.get(sub.customerId);
        const start = sub.periodEnd;
        // A schedule's next phase starts now (ADR 096): the new plan's period and price. (Stripe keeps
        // the schedule until its last phase ends; the stand-in releases it here.)
        if (sub.schedule?.nextPlan) {
          sub.plan = sub.schedule.nextPlan;
          sub.schedule = null;
        }
        // As at Stripe, the renewal starts the new period whether its invoice is paid or not: paid
        // later, that invoice is the period's only one.
        sub.periodStart = start;
        sub.periodEnd = addPeriod(start, sub.plan);
        if (customer?.paymentWorks) {
          await this.emit("invoice.paid", this.invoiceJson(sub, "paid"));
          sub.status = "active";
          await this.emit("customer.subscription.updated", this.subscriptionJson(sub));
        } else {
          sub.status = "past_due";
          const open = this.invoiceJson(sub, "open");
          sub.openInvoiceId = open.id;
          await this.emit("invoice.payment_failed", open);
          await this.emit("customer.subscription.updated", this.subscriptionJson(sub));
          break;
        }
      }
    }
  }

  subscription(id: string) {
    return this.subscriptions.get(id);
  }

  /** The address the customer's own e-mails would go to. */
  customerEmail(id: string): string | undefined {
    return this.emails.get(id);
  }

  lastCheckoutSession(): CheckoutSession | undefined {
    return [...this.sessions.values()].at(-1);
  }

  // ─── Events ───────────────────────────────────────────────────────────────────────────────────

  private async emit(type: string, object: object): Promise<void> {
    // What the event tells is kept before the app hears of it: a restart never finds the app ahead.
    this.save();
    // Stripe's creation time, in seconds, at the clock (the app orders snapshots by it).
    const created = seconds(this.options.clock());
    const event: StandInEvent = {
      id: newId("evt"),
      type,
      created,
      payload: JSON.stringify({
        id: "",
        object: "event",
        api_version: "2026-10-28.endive",
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      }),
    };
    event.payload = event.payload.replace('"id":""', `"id":"${event.id}"`);
    this.events.push(event);
    if (this.holding) this.held.push(event);
    else await this.send(event);
  }

  /** What the checkout put in the subscription's metadata (copied on its invoices), as at Stripe. */
  private metadataOf(sub: Sub) {
    return { ...(sub.dentistId ? { dentist_id: sub.dentistId } : {}), plan: sub.checkoutPlan ?? sub.plan };
  }

  private subscriptionJson(sub: Sub) {
    const price = planPrice(sub.plan, this.options.prices);
    return {
      id: sub.id,
      object: "subscription",
      customer: sub.customerId,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      schedule: sub.schedule?.id ?? null,
      trial_end: sub.status === "trialing" ? sub.periodEnd : null,
      created: sub.created,
      livemode: false,
      metadata: this.metadataOf(sub),
      items: {
        object: "list",
        data: [
          {
            id: `si_${sub.id.slice(4)}`,
            object: "subscription_item",
            quantity: 1,
            current_period_start: sub.periodStart,
            current_period_end: sub.periodEnd,
            price: {
              id: STAND_IN_PRICES[sub.plan],
              object: "price",
              currency: "eur",
              unit_amount: price.htCents,
              recurring: { interval: sub.plan === "monthly" ? "month" : "year", interval_count: 1 },
            },
          },
        ],
      },
    };
  }

  /** An invoice of the subscription's period (new, or the open one now paid), kept (credit notes refer to it). */
  private invoiceJson(sub: Sub, status: "paid" | "open", free = false, id = newId("in")) {
    // A trial's invoice (Stripe issues one when a subscription starts in trial) charges nothing.
    const plan = planPrice(sub.plan, this.options.prices);
    const price = free ? { ...plan, htCents: 0, ttcCents: 0 } : plan;
    const invoice: StandInInvoice = {
      id,
      customerId: sub.customerId,
      status,
      total: charged(sub, price),
      amountPaid: status === "paid" ? charged(sub, price) : 0,
    };
    this.invoices.set(invoice.id, invoice);
    return {
      id: invoice.id,
      object: "invoice",
      customer: sub.customerId,
      status,
      currency: "eur",
      created: seconds(this.options.clock()),
      subtotal: price.htCents,
      total: charged(sub, price),
      amount_due: charged(sub, price),
      amount_paid: status === "paid" ? charged(sub, price) : 0,
      parent: {
        type: "subscription_details",
        subscription_details: {
          subscription: sub.id,
          metadata: this.metadataOf(sub),
        },
      },
      lines: {
        object: "list",
        data: [
          {
            id: newId("il"),
            object: "line_item",
            amount: price.htCents,
            currency: "eur",
            period: { start: sub.periodStart, end: sub.periodEnd },
            pricing: {
              type: "price_details",
              price_details: { price: STAND_IN_PRICES[sub.plan], product: "prod_standin" },
              unit_amount_decimal: String(plan.htCents),
            },
          },
        ],
      },
    };
  }

  private async completeCheckout(sessionId: string, accepted: boolean): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (session?.status !== "open") return false;
    const customer = this.customers.get(session.customerId);
    if (!customer) return false;
    customer.paymentWorks = accepted;
    if (!accepted) {
      this.save();
      return false;
    }
    const now = seconds(this.options.clock());
    const trial = session.trialEnd != null && session.trialEnd > now ? session.trialEnd : null;
    const sub: Sub = {
      id: newId("sub"),
      customerId: customer.id,
      dentistId: session.dentistId,
      plan: session.plan,
      status: trial ? "trialing" : "active",
      created: now,
      periodStart: now,
      periodEnd: trial ?? addPeriod(now, session.plan),
      cancelAtPeriodEnd: false,
      taxed: session.taxed,
      checkoutPlan: session.plan,
    };
    this.subscriptions.set(sub.id, sub);
    session.status = "complete";
    session.subscriptionId = sub.id;
    this.save();
    await this.emit("customer.subscription.created", this.subscriptionJson(sub));
    await this.emit("invoice.paid", this.invoiceJson(sub, "paid", trial !== null));
    await this.emit("checkout.session.completed", {
      id: session.id,
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      customer: customer.id,
      subscription: sub.id,
      client_reference_id: session.dentistId,
    });
    return true;
  }

  /** The portal's "Paiement accepté": a working method; a past-due subscription is paid at once. */
  private async savePaymentMethod(customerId: string, works: boolean): Promise<void> {
    const customer = this.customers.get(customerId);
    if (!customer) return;
    customer.paymentWorks = works;
    this.save();
    if (!works) return;
    for (const sub of this.subscriptions.values()) {
      if (sub.customerId !== customerId || (sub.status !== "past_due" && sub.status !== "unpaid")) continue;
      await this.payOverdue(sub);
    }
  }

  /** The invoice a refused renewal left open, paid: the subscription active again, in the same period. */
  private async payOverdue(sub: Sub): Promise<void> {
    sub.status = "active";
    const open = sub.openInvoiceId ?? undefined;
    sub.openInvoiceId = null;
    this.save();
    await this.emit("invoice.paid", this.invoiceJson(sub, "paid", false, open));
    await this.emit("customer.subscription.updated", this.subscriptionJson(sub));
  }

  // ─── HTTP ─────────────────────────────────────────────────────────────────────────────────────

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.baseUrl);
    const body = new URLSearchParams(await readBody(req));
    const path = url.pathname;
    if (path.startsWith("/v1/")) {
      if (req.headers.authorization !== `Bearer ${this.secretKey}`)
        return refuse(res, 401, "Invalid API Key provided");
      return this.api(req.method ?? "GET", path, req.method === "GET" ? url.searchParams : body, res);
    }
    const checkout = /^\/checkout\/(cs_[a-f0-9]+)$/.exec(path);
    if (checkout?.[1]) {
      const id = checkout[1];
      if (req.method === "POST") {
        const accepted = body.get("outcome") === "accepted";
        const done = await this.completeCheckout(id, accepted);
        const session = this.sessions.get(id);
        if (done && session) return redirect(res, session.successUrl);
        return this.checkoutPage(res, id, accepted ? null : "refused");
      }
      return this.checkoutPage(res, id, null);
    }
    const portal = /^\/portal\/(bps_[a-f0-9]+)$/.exec(path);
    if (portal?.[1]) {
      const session = this.portals.get(portal[1]);
      if (!session) return page(res, 404, "Page introuvable", "<p>Cette session n'existe pas ou plus.</p>");
      if (req.method === "POST") {
        const works = body.get("outcome") === "accepted";
        await this.savePaymentMethod(session.customerId, works);
        if (works) return redirect(res, session.returnUrl);
        return this.portalPage(res, portal[1], "refused");
      }
      return this.portalPage(res, portal[1], null);
    }
    return page(res, 404, "Page introuvable", "<p>Cette page n'existe pas.</p>");
  }

  private api(
    method: string,
    path: string,
    body: URLSearchParams,
    res: ServerResponse,
  ): void | Promise<void> {
    if (method === "POST" && path === "/v1/customers") {
      const customer: Customer = {
        id: newId("cus"),
        dentistId: body.get("metadata[dentist_id]"),
        paymentWorks: null,
      };
      this.customers.set(customer.id, customer);
      this.emails.set(customer.id, body.get("email") ?? "");
      this.save();
      return json(res, 200, {
        id: customer.id,
        object: "customer",
        email: body.get("email") ?? "",
        name: body.get("name") ?? "",
      });
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const customerId = body.get("customer") ?? "";
      const priceId = body.get("line_items[0][price]");
      const plan = planOfPrice(priceId);
      const taxRate = body.get("line_items[0][tax_rates][0]");
      if (!this.customers.has(customerId) || !plan || (taxRate !== null && taxRate !== STAND_IN_TAX_RATE))
        return refuse(res, 400, "No such customer, price or tax rate");
      // As at Stripe: a trial end, when given, at least 48 hours ahead.
      const trialEnd = body.has("subscription_data[trial_end]")
        ? Number(body.get("subscription_data[trial_end]"))
        : null;
      if (trialEnd !== null && !(trialEnd >= seconds(this.options.clock()) + 48 * 60 * 60))
        return refuse(res, 400, "trial_end must be at least 48 hours in the future");
      const session: CheckoutSession = {
        id: newId("cs"),
        trialEnd,
        customerId,
        dentistId: body.get("client_reference_id"),
        plan,
        successUrl: body.get("success_url") ?? "/",
        cancelUrl: body.get("cancel_url") ?? "/",
        status: "open",
        subscriptionId: null,
        taxed: taxRate === STAND_IN_TAX_RATE,
      };
      this.sessions.set(session.id, session);
      return json(res, 200, {
        id: session.id,
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        customer: customerId,
        url: `${this.baseUrl}/checkout/${session.id}`,
      });
    }
    if (method === "GET" && path === "/v1/checkout/sessions") {
      const customerId = body.get("customer");
      const status = body.get("status");
      const data = [...this.sessions.values()]
        .filter((s) => s.customerId === customerId && (status === null || s.status === status))
        .map((s) => ({ id: s.id, object: "checkout.session", status: s.status, customer: s.customerId }));
      return json(res, 200, { object: "list", url: path, has_more: false, data });
    }
    const expire = /^\/v1\/checkout\/sessions\/(cs_[a-f0-9]+)\/expire$/.exec(path);
    if (method === "POST" && expire?.[1]) {
      const session = this.sessions.get(expire[1]);
      if (session?.status !== "open") return refuse(res, 400, "Only open checkout sessions can be expired");
      session.status = "expired";
      return json(res, 200, { id: session.id, object: "checkout.session", status: "expired" });
    }
    if (method === "GET" && path === "/v1/subscriptions") {
      const customerId = body.get("customer");
      const data = [...this.subscriptions.values()]
        .filter((s) => s.customerId === customerId)
        .map((s) => this.subscriptionJson(s));
      return json(res, 200, { object: "list", url: path, has_more: false, data });
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const customerId = body.get("customer") ?? "";
      if (!this.customers.has(customerId)) return refuse(res, 400, "No such customer");
      const id = newId("bps");
      this.portals.set(id, { customerId, returnUrl: body.get("return_url") ?? "/" });
      return json(res, 200, { id, object: "billing_portal.session", url: `${this.baseUrl}/portal/${id}` });
    }
    if (method === "POST" && path === "/v1/credit_notes") return this.createCreditNote(body, res);
    const voiding = /^\/v1\/credit_notes\/(cn_[a-f0-9]+)\/void$/.exec(path);
    if (method === "POST" && voiding?.[1]) {
      const note = this.creditNotes.get(voiding[1]);
      if (note?.status !== "issued") return refuse(res, 400, "Only issued credit notes can be voided");
      note.status = "void";
      this.save();
      return this.emit("credit_note.voided", this.creditNoteJson(note)).then(() =>
        json(res, 200, this.creditNoteJson(note)),
      );
    }
    const updating = /^\/v1\/customers\/(cus_[a-f0-9]+)$/.exec(path);
    if (method === "POST" && updating?.[1]) {
      const customer = this.customers.get(updating[1]);
      if (!customer) return refuse(res, 404, "No such customer");
      const email = body.get("email");
      if (email !== null) this.emails.set(customer.id, email);
      return json(res, 200, {
        id: customer.id,
        object: "customer",
        email: this.emails.get(customer.id) ?? "",
      });
    }
    if (method === "POST" && path === "/v1/subscription_schedules") return this.createSchedule(body, res);
    const schedule = /^\/v1\/subscription_schedules\/(sub_sched_[a-f0-9]+)(\/release)?$/.exec(path);
    if (schedule?.[1]) return this.schedule(method, schedule[1], schedule[2] !== undefined, body, res);
    const subscription = /^\/v1\/subscriptions\/(sub_[a-f0-9]+)$/.exec(path);
    const sub = subscription?.[1] ? this.subscriptions.get(subscription[1]) : undefined;
    if (subscription && !sub) return refuse(res, 404, "No such subscription");
    if (sub && method === "GET") return json(res, 200, this.subscriptionJson(sub));
    if (sub && method === "DELETE") {
      // Cancelled now (Stripe's DELETE /v1/subscriptions/:id): nothing more is billed.
      if (sub.status === "canceled") return refuse(res, 400, "This subscription is already canceled");
      sub.status = "canceled";
      sub.cancelAtPeriodEnd = false;
      sub.schedule = null;
      this.save();
      return this.emit("customer.subscription.deleted", this.subscriptionJson(sub)).then(() =>
        json(res, 200, this.subscriptionJson(sub)),
      );
    }
    if (sub && method === "POST") {
      const newPrice = body.get("items[0][price]");
      if (newPrice !== null) return this.changePrice(sub, newPrice, body, res);
      const cancel = body.get("cancel_at_period_end");
      if (cancel !== null) {
        if (sub.status === "canceled")
          return refuse(res, 400, "A canceled subscription can only update its metadata");
        if (sub.schedule)
          return refuse(
            res,
            400,
            `The subscription is managed by the subscription schedule \`${sub.schedule.id}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
          );
        sub.cancelAtPeriodEnd = cancel === "true";
        this.save();
        return this.emit("customer.subscription.updated", this.subscriptionJson(sub)).then(() =>
          json(res, 200, this.subscriptionJson(sub)),
        );
      }
      return json(res, 200, this.subscriptionJson(sub));
    }
    return refuse(res, 404, `Unrecognized request URL (${method} ${path})`);
  }

  /**
   * Stripe's change of a subscription's price (`items[0][price]`), as an operator makes it from the
   * dashboard, of an active subscription, without proration (a narrower path than Stripe's: no
   * trial, no past-due subscription, no proration). The other plan has another
   * interval: as at Stripe, its period starts now and its price is charged at once (paid, or the
   * subscription past due). The metadata keeps the checkout's plan.
   */
  private changePrice(sub: Sub, priceId: string, body: URLSearchParams, res: ServerResponse) {
    const plan = planOfPrice(priceId);
    if (!plan) return refuse(res, 400, "No such price");
    if (sub.status === "canceled")
      return refuse(res, 400, "A canceled subscription can only update its metadata");
    if (sub.status !== "active")
      return refuse(res, 400, "The stand-in changes the price of an active subscription only");
    if (body.get("proration_behavior") !== "none")
      return refuse(
        res,
        400,
        "The stand-in changes a price without proration only (proration_behavior=none)",
      );
    if (plan === sub.plan) return json(res, 200, this.subscriptionJson(sub));
    const now = seconds(this.options.clock());
    sub.plan = plan;
    sub.periodStart = now;
    sub.periodEnd = addPeriod(now, plan);
    const paid = this.customers.get(sub.customerId)?.paymentWorks === true;
    sub.status = paid ? "active" : "past_due";
    this.save();
    return this.emit(
      paid ? "invoice.paid" : "invoice.payment_failed",
      this.invoiceJson(sub, paid ? "paid" : "open"),
    )
      .then(() => this.emit("customer.subscription.updated", this.subscriptionJson(sub)))
      .then(() => json(res, 200, this.subscriptionJson(sub)));
  }

  /**
   * Stripe's POST /v1/subscription_schedules `from_subscription` (ADR 096): a schedule whose one phase
   * is the subscription's current period. As at Stripe, one schedule a subscription, of a live one.
   */
  private createSchedule(body: URLSearchParams, res: ServerResponse) {
    const sub = this.subscriptions.get(body.get("from_subscription") ?? "");
    if (!sub) return refuse(res, 400, "No such subscription");
    if (sub.status === "canceled") return refuse(res, 400, "A canceled subscription cannot be scheduled");
    if (sub.schedule)
      return refuse(res, 400, "You cannot migrate a subscription that is already attached to a schedule");
    sub.schedule = { id: `sub_sched_${randomBytes(12).toString("hex")}`, nextPlan: null };
    this.save();
    return json(res, 200, this.scheduleJson(sub));
  }

  /**
   * A schedule read (GET), its phases set (POST: the current period as it is, then the new plan,
   * without proration — the narrower path Sourio takes), or released (POST …/release: the
   * subscription goes on as it is, managed by no schedule).
   */
  private schedule(
    method: string,
    id: string,
    release: boolean,
    body: URLSearchParams,
    res: ServerResponse,
  ): void | Promise<void> {
    const sub = [...this.subscriptions.values()].find((s) => s.schedule?.id === id);
    if (!sub?.schedule) return refuse(res, 404, "No such subscription schedule");
    if (method === "GET") return json(res, 200, this.scheduleJson(sub));
    if (method !== "POST") return refuse(res, 404, `Unrecognized request URL (${method})`);
    if (release) {
      const released = this.scheduleJson(sub, "released");
      sub.schedule = null;
      this.save();
      return this.emit("customer.subscription.updated", this.subscriptionJson(sub)).then(() =>
        json(res, 200, released),
      );
    }
    const current = planOfPrice(body.get("phases[0][items][0][price]"));
    const next = planOfPrice(body.get("phases[1][items][0][price]"));
    if (!current || !next) return refuse(res, 400, "No such price");
    if (current !== sub.plan)
      return refuse(res, 400, "The stand-in keeps the current phase's price as it is");
    if (Number(body.get("phases[0][start_date]")) !== sub.periodStart)
      return refuse(res, 400, "You can not modify the start date of the current phase.");
    if (Number(body.get("phases[0][end_date]")) !== sub.periodEnd)
      return refuse(res, 400, "The stand-in ends the current phase at the end of the current period only");
    if (
      body.get("phases[0][proration_behavior]") !== "none" ||
      body.get("phases[1][proration_behavior]") !== "none"
    )
      return refuse(res, 400, "The stand-in schedules without proration only (proration_behavior=none)");
    if (!body.get("phases[0][items][0][tax_rates][0]") || !body.get("phases[1][items][0][tax_rates][0]"))
      return refuse(res, 400, "The stand-in's phases carry the tax rate, as the checkout's line does");
    // A current phase without `trial` ends a trial at once at Stripe (its first payment taken that
    // day): the stand-in wants the trial kept, and no trial made of a paid period.
    if ((body.get("phases[0][trial]") === "true") !== (sub.status === "trialing"))
      return refuse(
        res,
        400,
        "The stand-in keeps the current phase a trial exactly when the subscription is in one",
      );
    sub.schedule = { ...sub.schedule, nextPlan: next };
    this.save();
    return json(res, 200, this.scheduleJson(sub));
  }

  private scheduleJson(sub: Sub, status: "active" | "released" = "active") {
    const phase = (plan: PlanId, start: number, end: number, trial = false) => ({
      start_date: start,
      end_date: end,
      items: [{ price: STAND_IN_PRICES[plan], quantity: 1 }],
      proration_behavior: "none",
      trial,
    });
    const next = sub.schedule?.nextPlan;
    return {
      id: sub.schedule?.id ?? "",
      object: "subscription_schedule",
      subscription: sub.id,
      customer: sub.customerId,
      status,
      end_behavior: "release",
      current_phase: { start_date: sub.periodStart, end_date: sub.periodEnd },
      phases: [
        phase(sub.plan, sub.periodStart, sub.periodEnd, sub.status === "trialing"),
        ...(next ? [phase(next, sub.periodEnd, addPeriod(sub.periodEnd, next))] : []),
      ],
    };
  }

  /**
   * Stripe's POST /v1/credit_notes on one of its invoices: `amount` (TTC, cents; default: what is
   * left), `reason`, `memo`. As at Stripe, never more than the invoice's total less its credit notes
   * still issued; on a paid invoice (post-payment) `refund_amount`, `credit_amount` and
   * `out_of_band_amount` must add up to it.
   */
  private createCreditNote(body: URLSearchParams, res: ServerResponse): void | Promise<void> {
    const invoice = this.invoices.get(body.get("invoice") ?? "");
    if (!invoice) return refuse(res, 404, "No such invoice");
    const credited = [...this.creditNotes.values()]
      .filter((n) => n.invoiceId === invoice.id && n.status === "issued")
      .reduce((sum, n) => sum + n.total, 0);
    const left = invoice.total - credited;
    const amount = body.has("amount") ? Number(body.get("amount")) : left;
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left)
      return refuse(
        res,
        400,
        "The credit note's total must be positive and at most the invoice's amount left to credit",
      );
    // After payment, Stripe asks where the credit goes: refunded, to the balance, or outside Stripe.
    const settled = ["refund_amount", "credit_amount", "out_of_band_amount"].reduce(
      (sum, name) => sum + Number(body.get(name) ?? 0),
      0,
    );
    if (invoice.status === "paid" && settled !== amount)
      return refuse(
        res,
        400,
        "For a paid invoice, refund_amount, credit_amount and out_of_band_amount must add up to the credit note's total",
      );
    const note: StandInCreditNote = {
      id: newId("cn"),
      invoiceId: invoice.id,
      customerId: invoice.customerId,
      total: amount,
      postPayment: invoice.status === "paid" ? amount : 0,
      reason: body.get("reason"),
      memo: body.get("memo"),
      status: "issued",
      created: seconds(this.options.clock()),
    };
    this.creditNotes.set(note.id, note);
    this.save();
    return this.emit("credit_note.created", this.creditNoteJson(note)).then(() =>
      json(res, 200, this.creditNoteJson(note)),
    );
  }

  private creditNoteJson(note: StandInCreditNote) {
    return {
      id: note.id,
      object: "credit_note",
      invoice: note.invoiceId,
      customer: note.customerId,
      currency: "eur",
      created: note.created,
      livemode: false,
      amount: note.total,
      total: note.total,
      post_payment_amount: note.postPayment,
      pre_payment_amount: note.total - note.postPayment,
      type: note.postPayment > 0 ? "post_payment" : "pre_payment",
      reason: note.reason,
      memo: note.memo,
      status: note.status,
    };
  }

  private checkoutPage(res: ServerResponse, id: string, outcome: "refused" | null): void {
    const session = this.sessions.get(id);
    if (session?.status !== "open") {
      page(res, 404, "Paiement introuvable", "<p>Ce paiement n'existe pas ou est déjà terminé.</p>");
      return;
    }
    const price = planPrice(session.plan, this.options.prices);
    const refused =
      outcome === "refused"
        ? `<p role="alert" class="error">Paiement refusé : votre banque a refusé le paiement. Aucun abonnement n'a été créé. Vous pouvez réessayer.</p>`
        : "";
    page(
      res,
      200,
      "Paiement de l'abonnement",
      `${refused}
      ${
        session.taxed
          ? `<p>${escapeHtml(planName(this.options.brand, session.plan))}&#8239;: <strong>${formatEuros(price.ttcCents)} TTC ${price.period}</strong>
      (${formatEuros(price.htCents)} HT + ${formatEuros(price.vatCents)} de TVA à 20 %).</p>`
          : `<p>${escapeHtml(planName(this.options.brand, session.plan))}&#8239;: <strong>${formatEuros(price.htCents)} ${price.period}</strong>, sans taxe.</p>`
      }
      <form method="post">
        <fieldset>
          <legend>Moyen de paiement</legend>
          <label><input type="radio" name="method" value="card" checked> Carte bancaire</label>
          <label><input type="radio" name="method" value="sepa_debit"> Prélèvement SEPA</label>
        </fieldset>
        <p>Choisissez le résultat du paiement simulé :</p>
        <button type="submit" name="outcome" value="accepted">Paiement accepté</button>
        <button type="submit" name="outcome" value="refused">Paiement refusé</button>
      </form>
      <p><a href="${escapeHtml(session.cancelUrl)}">Annuler et revenir à Sourio</a></p>`,
    );
  }

  private portalPage(res: ServerResponse, id: string, outcome: "refused" | null): void {
    const session = this.portals.get(id);
    if (!session) return;
    const refused =
      outcome === "refused"
        ? `<p role="alert" class="error">Paiement refusé : ce moyen de paiement n'a pas été accepté par votre banque.</p>`
        : "";
    page(
      res,
      200,
      "Votre moyen de paiement",
      `${refused}
      <p>Enregistrez un moyen de paiement. Un paiement en retard est réglé aussitôt avec lui.</p>
      <form method="post">
        <p>Choisissez le résultat simulé :</p>
        <button type="submit" name="outcome" value="accepted">Paiement accepté</button>
        <button type="submit" name="outcome" value="refused">Paiement refusé</button>
      </form>
      <p><a href="${escapeHtml(session.returnUrl)}">Revenir à Sourio</a></p>`,
    );
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) req.destroy(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
  res.end(JSON.stringify(body));
}

/** Stripe's answer to a request it refuses (`invalid_request_error`). */
function refuse(res: ServerResponse, status: number, message: string): void {
  json(res, status, { error: { type: "invalid_request_error", message } });
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location });
  res.end();
}

/** A page of the stand-in: French, accessible (landmarks, labels, visible focus, contrast), 375 px wide. */
function page(res: ServerResponse, status: number, title: string, content: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — paiement simulé</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; color: #0f172a; background: #f8fafc; }
  header { background: #0f5c5c; color: #fff; padding: 1rem; }
  main { max-width: 32rem; margin: 0 auto; padding: 1rem; }
  fieldset { border: 1px solid #94a3b8; border-radius: .5rem; margin: 1rem 0; }
  label { display: block; padding: .25rem 0; }
  button { font: inherit; padding: .75rem 1rem; margin: .25rem .5rem .25rem 0; border-radius: .5rem; border: 1px solid #0f5c5c; background: #0f5c5c; color: #fff; }
  button[value="refused"] { background: #fff; color: #991b1b; border-color: #991b1b; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  a { color: #0f5c5c; }
  .error { color: #991b1b; font-weight: 600; }
</style>
</head>
<body>
<header><p>Paiements simulés localement : aucun paiement réel n'a lieu.</p></header>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>`);
}
