import { sql } from "kysely";
import Stripe from "stripe";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatDetailDate } from "../../../shared/format/dates";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { BILLING_MESSAGES } from "../../../shared/schemas/billing";
import { UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import { startTrialOnVerification } from "../../access/subscription";
import { appPerFile, newRequestId, postRequest, uniqueEmail } from "../../testing/harness";
import { dentist, givePractice, patient, signInAdmin, verifyBody, type Who } from "../../testing/people";
import { STAND_IN_PRICES, type StandInEvent, type StripeStandIn } from "./stand-in";

/**
 * Issue 35: dentists' subscription through the real Stripe SDK pointed at the local stand-in, on a
 * real database, with the app's clock moved by the test (never slept on).
 */

const DAY = 24 * 60 * 60 * 1000;
/** The app's clock: it only moves forward (the stand-in's events are dated by it). */
let now = new Date("2026-11-21T09:00:00Z");
const inDays = (days: number) => new Date(now.getTime() + days * DAY);
const iso = (date: Date) => date.toISOString();
/** An offer valid a month, with two slots next week (at the clock's time). */
const offerBody = () => ({
  amount_cents: 90_000,
  comment: "Couronne céramo-métallique, garantie 5 ans.",
  valid_until: iso(inDays(30)).slice(0, 10),
  slots: [`${iso(inDays(7)).slice(0, 11)}09:30`, `${iso(inDays(8)).slice(0, 11)}14:00`],
});
/** The server's log lines (the operator reads errors there). */
const logLines: string[] = [];
const ctx = appPerFile({
  clock: () => now,
  env: { LOG_LEVEL: "error" },
  logStream: { write: (line) => logLines.push(line) },
});
let standIn: StripeStandIn;

const call = (who: Who | undefined, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: who ? { cookie: who.cookie } : {},
  });

/** A verified dentist whose trial starts now (`daysLeft` 30), as the admins' verification starts it. */
async function dentistInTrial(first: string, daysLeft = 30): Promise<Who> {
  const who = await dentist(ctx.app, { first_name: first });
  await startTrialOnVerification(ctx.app.db, who.id, inDays(daysLeft - 30));
  return who;
}

/**
 * A verified dentist whose trial ends tomorrow: too soon for the provider to keep it (ADR 085), so
 * a checkout takes the first payment at once, and the subscription starts today.
 */
const dentistEndingTrial = (first: string) => dentistInTrial(first, 1);

const subscriptionOf = async (who: Who) => {
  const response = await call(who, "GET", "/api/dentist/subscription");
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Sourio's invoices of this dentist, as stored. */
const invoicesOf = (who: Who) =>
  ctx.app.db.selectFrom("invoices").selectAll().where("dentist_id", "=", who.id).execute();

/** 'S'abonner' then the stand-in's page answered with "Paiement accepté" or "refusé" (its HTML form). */
async function checkout(who: Who, plan: "monthly" | "yearly", outcome: "accepted" | "refused") {
  const started = await call(who, "POST", "/api/dentist/subscription/checkout", { plan });
  expect(started.statusCode, started.body).toBe(200);
  const url = started.json().url as string;
  const page = await fetch(url);
  const html = await page.text();
  expect(html).toContain("Paiement accepté");
  expect(html).toContain("Paiement refusé");
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ method: "card", outcome }).toString(),
  });
}

/** A dentist paying the monthly plan from today (his trial ending tomorrow, paid at checkout by card). */
async function payingDentist(first: string): Promise<Who> {
  const dr = await dentistEndingTrial(first);
  expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
  return dr;
}

/** The stand-in's checkout page answered "Paiement accepté" by card (its HTML form). */
const pay = (url: string) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ method: "card", outcome: "accepted" }).toString(),
  });

const rowOf = (who: Who) =>
  ctx.app.db
    .selectFrom("subscriptions")
    .selectAll()
    .where("dentist_id", "=", who.id)
    .executeTakeFirstOrThrow();

/** `act` run while the provider fails to stop a renewal (a network failure), as it is then. */
async function whileRenewalFails<T>(act: () => Promise<T>): Promise<T> {
  const provider = await ctx.app.billing.provider();
  const failing = vi
    .spyOn(provider, "setCancelAtPeriodEnd")
    .mockRejectedValue(new Error("connection refused"));
  try {
    return await act();
  } finally {
    failing.mockRestore();
  }
}

async function advance(days: number) {
  now = new Date(now.getTime() + days * DAY);
  await standIn.tick();
}

beforeAll(async () => {
  standIn = (await ctx.app.billing.standIn()) as StripeStandIn;
  expect(standIn).not.toBeNull();
});

describe("the trial and the plans", () => {
  it("a verified dentist is in a 30-day trial; the page shows the plans HT, TVA and TTC; /api/me agrees", async () => {
    const dr = await dentistInTrial("Tristan");
    const page = await subscriptionOf(dr);
    expect(page.subscription).toMatchObject({
      status: "trialing",
      phase: "trial",
      limited: false,
      changes_at: iso(inDays(30)),
      has_provider_subscription: false,
    });
    expect(page.plans).toEqual([
      expect.objectContaining({ id: "monthly", ht_cents: 8900, vat_cents: 1780, ttc_cents: 10680 }),
      expect.objectContaining({ id: "yearly", ht_cents: 89000, vat_cents: 17800, ttc_cents: 106800 }),
    ]);
    const me = await call(dr, "GET", "/api/me");
    expect(me.json().subscription).toEqual(page.subscription);
  });

  it("the admins' verification starts the trial, from that day", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await dentist(ctx.app, { first_name: "Vera" }, false);
    await givePractice(ctx.app, dr.id);
    const verified = await call(
      admin,
      "POST",
      `/api/admin/dentists/${dr.id}/verification`,
      await verifyBody(ctx.app, dr.id),
    );
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({
      status: "trialing",
      trial_ends_at: iso(inDays(30)),
    });
  });

  it("an unverified dentist has no subscription and cannot subscribe; a patient is refused", async () => {
    const unverified = await dentist(ctx.app, { first_name: "Ulysse" }, false);
    expect((await subscriptionOf(unverified)).subscription).toBeNull();
    expect((await call(unverified, "GET", "/api/me")).json().subscription).toBeNull();
    const refused = await call(unverified, "POST", "/api/dentist/subscription/checkout", { plan: "monthly" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain("dentistes vérifiés");
    const someone = await patient(ctx.app);
    expect((await call(someone, "GET", "/api/dentist/subscription")).statusCode).toBe(403);
    expect((await call(undefined, "GET", "/api/dentist/subscription")).statusCode).toBe(401);
  });

  it("a plan must be chosen: French 400 naming the field", async () => {
    const dr = await dentistInTrial("Paul");
    const response = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "weekly" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.plan).toBe("Choisissez une formule (mensuelle ou annuelle).");
  });

  it("the trial's end limits access; the e-mail goes 7 days before, once", async () => {
    const start = now;
    const dr = await dentistInTrial("Ines");
    now = new Date(start.getTime() + 23 * DAY + 60_000);
    const { runMailJobs } = await import("../../jobs");
    await runMailJobs(ctx.app);
    await runMailJobs(ctx.app);
    const mails = ctx
      .outbox()
      .filter((m) => m.includes("Votre essai gratuit de Sourio se termine dans 7 jours, le"));
    expect(mails.filter((m) => m.includes(`To: ${dr.email}`))).toHaveLength(1);
    expect((await subscriptionOf(dr)).subscription.phase).toBe("trial_ending");
    now = new Date(start.getTime() + 30 * DAY);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ phase: "limited", limited: true });
  });

  it("a trial the mail job first sees late says the days left, in Paris calendar days, not 7", async () => {
    const start = now;
    const olga = await dentistInTrial("Olga");
    now = new Date(start.getTime() + 2 * DAY);
    const pia = await dentistInTrial("Pia");
    // The job has not run for four weeks (an outage): both trials are seen at once.
    now = new Date(start.getTime() + 29 * DAY);
    const { runMailJobs } = await import("../../jobs");
    await runMailJobs(ctx.app);
    const trialMailsTo = (who: Who) =>
      ctx
        .outbox()
        .filter((m) => m.includes(`To: ${who.email}`) && m.includes("Votre essai gratuit de Sourio"));
    expect(trialMailsTo(olga)).toEqual([expect.stringContaining("se termine demain, le")]);
    expect(trialMailsTo(pia)).toEqual([expect.stringContaining("se termine dans 3 jours, le")]);
  });

  it("a dentist whose trial ended is not offered to patients, and a request cannot be addressed to him", async () => {
    const start = now;
    const dr = await dentistInTrial("Lino");
    const alice = await patient(ctx.app, { first_name: "Aline" });
    const offered = async () =>
      ((await call(alice, "GET", "/api/dentists/verified")).json().items as { id: string }[]).map(
        (d) => d.id,
      );
    const addressed = () =>
      postRequest(ctx.app, alice.cookie, {
        treatment_type: "crown",
        consent: "true",
        document_types: '["quote"]',
        recipient: dr.id,
      });
    expect(await offered()).toContain(dr.id);
    expect((await addressed()).statusCode).toBe(201);

    // His trial over and nothing paid: he would never see a request sent to him by name.
    now = new Date(start.getTime() + 30 * DAY);
    expect(await offered()).not.toContain(dr.id);
    const refused = await addressed();
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.fields.recipient).toBe(UPLOAD_MESSAGES.recipientUnavailable);
  });
});

describe("checkout → webhook → active", () => {
  it("a refused payment creates nothing; an accepted one makes the subscription active, paid monthly TTC", async () => {
    const dr = await dentistEndingTrial("Martine");
    const refused = await checkout(dr, "monthly", "refused");
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("Paiement refusé");
    expect((await subscriptionOf(dr)).subscription.status).toBe("trialing");

    const paidAt = now;
    const accepted = await checkout(dr, "monthly", "accepted");
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(
      "http://localhost:3000/dentist/subscription?paiement=accepte",
    );
    const page = await subscriptionOf(dr);
    expect(page.subscription).toMatchObject({
      status: "active",
      phase: "active",
      plan: "monthly",
      limited: false,
      has_provider_subscription: true,
    });
    // the next payment: a month after the checkout
    const nextMonth = new Date(paidAt);
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    expect(page.subscription.changes_at).toBe(iso(new Date(Math.floor(nextMonth.getTime() / 1000) * 1000)));
    expect(page.next_payment_ttc_cents).toBe(10680);
    // every event was answered 200 and stored once
    expect(standIn.deliveries.every((d) => d.status === 200)).toBe(true);
    // Sourio's invoice for the payment: 89 € HT + 17,80 € TVA = 106,80 € TTC, numbered, announced
    const invoices = () => invoicesOf(dr);
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({ amount_ht_cents: 8900, vat_cents: 1780, amount_ttc_cents: 10680 });
    // (after the commit, beside the PDF's making: seconds on a loaded machine)
    await expect
      .poll(
        () =>
          ctx
            .outbox()
            .some((m) => m.includes(`Votre facture ${invoice?.number}`) && m.includes(`To: ${dr.email}`)),
        { timeout: 20_000 },
      )
      .toBe(true);
    // the paid invoice's event sent again issues nothing more
    const paid = standIn.events.findLast((e) => e.type === "invoice.paid") as StandInEvent;
    expect(await standIn.send(paid)).toBe(200);
    expect(await invoices()).toHaveLength(1);
    const again = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "yearly" });
    expect(again.statusCode).toBe(409);
  });

  it("subscribed during the trial, a dentist keeps it: nothing charged until its end, then the plan's price (ADR 085)", async () => {
    const dr = await dentistInTrial("Thaïs");
    const trialEnd = inDays(30);
    const before = await subscriptionOf(dr);
    expect(before.first_payment_at).toBe(iso(trialEnd));
    // The provider is asked for a trial ending then (its page says so), not for a payment today.
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const invoices = () => invoicesOf(dr);
    const during = await subscriptionOf(dr);
    expect(during.subscription).toMatchObject({
      status: "trialing",
      phase: "trial",
      plan: "monthly",
      limited: false,
      changes_at: iso(trialEnd),
      has_provider_subscription: true,
    });
    expect(during.next_payment_ttc_cents).toBe(10680);
    expect(during.first_payment_at).toBeNull();
    // The provider's 0 € invoice of the trial is no invoice of Sourio's.
    expect(standIn.events.some((e) => e.type === "invoice.paid")).toBe(true);
    expect(await invoices()).toHaveLength(0);
    expect(logLines.filter((l) => l.includes('paid_cents":0'))).toEqual([]);
    const again = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "yearly" });
    expect(again.statusCode).toBe(409);

    // A week before its end: no « your trial ends » e-mail nor banner, he has subscribed.
    now = new Date(trialEnd.getTime() - 7 * DAY + 60_000);
    const { runMailJobs } = await import("../../jobs");
    await runMailJobs(ctx.app);
    expect(ctx.outbox().some((m) => m.includes(`To: ${dr.email}`) && m.includes("Votre essai gratuit"))).toBe(
      false,
    );
    expect((await subscriptionOf(dr)).subscription.phase).toBe("trial");

    // The trial's end passed, the provider's charge not heard of yet: never limited meanwhile.
    now = new Date(trialEnd.getTime() + 60_000);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "trialing", limited: false });
    // …and the team's list agrees: still « Essai gratuit », not « Essai terminé ».
    const admin = await signInAdmin(ctx.app);
    const listed = await call(
      admin,
      "GET",
      `/api/admin/subscriptions?status=trialing&search=${encodeURIComponent(dr.email)}`,
    );
    expect(listed.json().items).toEqual([expect.objectContaining({ dentist_id: dr.id, status: "trialing" })]);
    // The provider charges at the trial's end: active, and Sourio's invoice of the month that follows.
    await standIn.tick();
    const after = await subscriptionOf(dr);
    expect(after.subscription).toMatchObject({ status: "active", phase: "active", limited: false });
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({ amount_ht_cents: 8900, vat_cents: 1780, amount_ttc_cents: 10680 });
    // Its period starts on the trial's last day (a date), not on the day he subscribed.
    expect(iso(new Date(invoice?.period_start as string)).slice(0, 10)).toBe(iso(trialEnd).slice(0, 10));
  });

  it("subscribed then cancelled during the trial: nothing is charged, the trial ends as a trial, one click brings it back", async () => {
    const dr = await dentistInTrial("Noémie");
    const trialEnd = inDays(30);
    expect((await checkout(dr, "yearly", "accepted")).status).toBe(303);
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().message).toBe(BILLING_MESSAGES.canceledInTrial);
    const page = await subscriptionOf(dr);
    expect(page.subscription).toMatchObject({
      status: "trialing",
      cancel_at_period_end: true,
      limited: false,
      has_provider_subscription: true,
      changes_at: iso(trialEnd),
    });
    expect(page.next_payment_ttc_cents).toBeNull();
    // One click brings it back (the first payment at the trial's end again), another cancels it.
    const back = await call(dr, "POST", "/api/dentist/subscription/reactivate");
    expect(back.statusCode, back.body).toBe(200);
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(106800);
    expect((await call(dr, "POST", "/api/dentist/subscription/cancel")).statusCode).toBe(200);
    // Its end passed: limited at once, as any trial (the provider's end follows, nothing charged).
    now = new Date(trialEnd.getTime() + 60_000);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ phase: "limited", limited: true });
    await standIn.tick();
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "canceled", limited: true });
    const invoices = await ctx.app.db
      .selectFrom("invoices")
      .select("id")
      .where("dentist_id", "=", dr.id)
      .execute();
    expect(invoices).toEqual([]);
  });

  it("the provider keeps a trial only when it ends 48 hours ahead or more: two days left, the first payment is today", async () => {
    const dr = await dentistInTrial("Lou", 2);
    expect((await subscriptionOf(dr)).first_payment_at).toBeNull();
    // What the provider would answer to a trial end too near (the stand-in answers as Stripe does).
    const provider = await ctx.app.billing.provider();
    const customerId = await provider.createCustomer({ dentistId: dr.id, email: dr.email, name: "Lou" });
    await expect(
      provider.checkout({
        customerId,
        dentistId: dr.id,
        plan: "monthly",
        successUrl: "http://localhost:3000/ok",
        cancelUrl: "http://localhost:3000/ko",
        trialEnd: new Date(now.getTime() + 47 * 60 * 60 * 1000),
      }),
    ).rejects.toThrow(/48 hours/);
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "active", phase: "active" });
  });

  it("never a second subscription: a checkout open in another tab expires; a payment whose webhooks are late is applied", async () => {
    const dr = await dentistEndingTrial("Bérénice");
    const open = async () => {
      const started = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "monthly" });
      expect(started.statusCode, started.body).toBe(200);
      return started.json().url as string;
    };
    // Two tabs: the first page can no longer be paid once the second is opened.
    const first = await open();
    const second = await open();
    const stale = await pay(first);
    expect(stale.status).toBe(404);
    expect(await stale.text()).toContain("n'existe pas ou est déjà terminé");
    // The second is paid; its webhooks have not arrived when the dentist asks to subscribe again.
    standIn.hold();
    expect((await pay(second)).status).toBe(303);
    expect((await rowOf(dr)).status).toBe("trialing");
    const again = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "yearly" });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.message).toBe("Vous avez déjà un abonnement en cours.");
    // …and the payment found at the provider is applied now.
    const row = await rowOf(dr);
    expect(row).toMatchObject({ status: "active", plan: "monthly" });
    await standIn.release();
    expect(await rowOf(dr)).toMatchObject({ status: "active", subscription_id: row.subscription_id });
    const customer = row.customer_id as string;
    expect(
      standIn.events.filter(
        (e) => e.type === "customer.subscription.created" && e.payload.includes(customer),
      ),
    ).toHaveLength(1);
  });

  it("one checkout opened at a time: a click meanwhile waits (French 409), a lease left by a dead process frees itself, two at once never make two payable pages", async () => {
    const dr = await dentistInTrial("Capucine");
    const open = (plan: "monthly" | "yearly") =>
      call(dr, "POST", "/api/dentist/subscription/checkout", { plan });
    const leases = () =>
      ctx.app.db.selectFrom("checkout_leases").select("until").where("dentist_id", "=", dr.id).execute();
    // Another tab's checkout being opened right now holds the lease.
    await ctx.app.db
      .insertInto("checkout_leases")
      .values({ dentist_id: dr.id, until: new Date(now.getTime() + 10_000) })
      .execute();
    const waiting = await open("monthly");
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().error.message).toBe(BILLING_MESSAGES.checkoutInProgress);
    // Its process died mid-call: once its lease is over, the next click opens a page and gives it back.
    await ctx.app.db
      .updateTable("checkout_leases")
      .set({ until: new Date(now.getTime() - 1) })
      .where("dentist_id", "=", dr.id)
      .execute();
    const opened = await open("monthly");
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await leases()).toEqual([]);
    // Two clicks at once: one page, the other waits, or (one after the other) the first page expired.
    const both = await Promise.all([open("monthly"), open("yearly")]);
    for (const response of both) {
      expect([200, 409], response.body).toContain(response.statusCode);
      if (response.statusCode === 409)
        expect(response.json().error.message).toBe(BILLING_MESSAGES.checkoutInProgress);
    }
    const pages = [opened, ...both].filter((r) => r.statusCode === 200).map((r) => r.json().url as string);
    const paid = [];
    for (const url of pages) paid.push((await pay(url)).status);
    expect(paid.filter((status) => status === 303)).toHaveLength(1);
    expect(await leases()).toEqual([]);
  });

  it("the checkout puts the VAT on the line; an invoice says what was charged, not the plan's price", async () => {
    // Sourio's checkout: the price HT and the VAT's tax rate, so the provider charges 106,80 € (above).
    const dr = await dentistEndingTrial("Oscar");
    const started = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "monthly" });
    expect(started.statusCode, started.body).toBe(200);
    expect(await (await fetch(started.json().url)).text()).toMatch(/106,80\s€<\/strong>|106,80\s€ TTC/);
    // A subscription whose line has no tax rate (an account set up by hand, say): 89 € charged, VAT
    // included, as Stripe does. Its invoice is 89 € TTC (74,17 € HT + 14,83 €), not 106,80 €.
    const customer = (await rowOf(dr)).customer_id as string;
    const session = await fetch(`${standIn.baseUrl}/v1/checkout/sessions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${standIn.secretKey}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        mode: "subscription",
        customer,
        client_reference_id: dr.id,
        "line_items[0][price]": STAND_IN_PRICES.monthly,
        "line_items[0][quantity]": "1",
        success_url: "http://localhost:3000/dentist/subscription?paiement=accepte",
        cancel_url: "http://localhost:3000/dentist/subscription?paiement=annule",
      }).toString(),
    });
    expect(session.status).toBe(200);
    const url = ((await session.json()) as { url: string }).url;
    expect(await (await fetch(url)).text()).toContain("sans taxe");
    const paid = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ method: "card", outcome: "accepted" }).toString(),
    });
    expect(paid.status).toBe(303);
    const [invoice] = await ctx.app.db
      .selectFrom("invoices")
      .selectAll()
      .where("dentist_id", "=", dr.id)
      .execute();
    expect(invoice).toMatchObject({ amount_ht_cents: 7417, vat_cents: 1483, amount_ttc_cents: 8900 });
  });
});

describe("a plan changed by the team at the provider", () => {
  it("the yearly plan's payment is invoiced as the yearly plan, though the subscription was taken monthly", async () => {
    // ADR 085: a dentist who wants the other plan asks the team, who changes it at the provider (its
    // dashboard: the subscription's price, no proration). The subscription's metadata keeps the plan
    // chosen at checkout; the invoice's line names the price charged.
    const dr = await payingDentist("Yvette");
    const subscriptionId = (await rowOf(dr)).subscription_id as string;
    const stripe = new Stripe(standIn.secretKey, {
      host: "127.0.0.1",
      port: Number(new URL(standIn.baseUrl).port),
      protocol: "http",
    });
    const current = await stripe.subscriptions.retrieve(subscriptionId);
    const errorsBefore = logLines.filter((line) => line.includes('"level":50')).length;
    await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: current.items.data[0]?.id as string, price: STAND_IN_PRICES.yearly }],
      proration_behavior: "none",
    });
    await expect.poll(async () => (await invoicesOf(dr)).length).toBe(2);
    const yearly = (await invoicesOf(dr)).find((invoice) => invoice.amount_ttc_cents === 106_800);
    expect(yearly?.label).toMatch(/annuel/);
    expect((await rowOf(dr)).plan).toBe("yearly");
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(106_800);
    // Nothing for the operator to look at: what was charged is the yearly plan's price.
    expect(logLines.filter((line) => line.includes('"level":50')).slice(errorsBefore)).toEqual([]);
  });
});

describe("a change of plan asked by the dentist (ADR 096)", () => {
  const PLAN = "/api/dentist/subscription/plan";
  const errors = () => logLines.filter((line) => line.includes('"level":50'));
  const changeMails = async (who: Who) =>
    (await ctx.mails()).filter((m) => m.includes(`To: ${who.email}`) && m.includes("passe à la formule"));

  it("monthly → yearly at the end of the paid period: nothing charged before, the yearly price then, invoiced « annuel »", async () => {
    const dr = await payingDentist("Violette");
    const errorsBefore = errors().length;
    const before = await subscriptionOf(dr);
    const periodEnd = before.subscription.current_period_end as string;
    expect(before.subscription).toMatchObject({ plan: "monthly", phase: "active", next_plan: null });
    const day = formatDetailDate(periodEnd);

    const asked = await call(dr, "POST", PLAN, { plan: "yearly" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toBe(BILLING_MESSAGES.planChangeScheduled("annuelle", day));
    expect(asked.json().subscription.next_plan).toEqual({ plan: "yearly", starts_at: periodEnd });
    expect((await subscriptionOf(dr)).subscription.next_plan).toEqual({
      plan: "yearly",
      starts_at: periodEnd,
    });
    // The next payment, at the period's end, is the yearly plan's.
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(106_800);
    // The team's list says it too.
    const team = await signInAdmin(ctx.app);
    const listed = await call(team, "GET", `/api/admin/subscriptions?search=${encodeURIComponent(dr.email)}`);
    expect(listed.json().items).toMatchObject([{ dentist_id: dr.id, plan: "monthly", next_plan: "yearly" }]);
    // At the provider: a schedule whose next phase is the yearly plan; nothing charged.
    const subscriptionId = (await rowOf(dr)).subscription_id as string;
    expect(standIn.subscription(subscriptionId)?.schedule?.nextPlan).toBe("yearly");
    expect(await invoicesOf(dr)).toHaveLength(1);
    await expect.poll(async () => (await changeMails(dr)).length).toBe(1);
    const [mail] = await changeMails(dr);
    expect(mail).toContain(`passe à la formule annuelle le ${day}`);
    expect(mail).toMatch(/1\s068,00\s€ TTC seront prélevés ce jour-là, puis chaque année/);
    expect(mail).toContain("Rien n'est prélevé d'ici là");

    // Asked again: the same answer, no second e-mail; the plan he has, or a made-up one: refused.
    const again = await call(dr, "POST", PLAN, { plan: "yearly" });
    expect(again.json().message).toBe(asked.json().message);
    const same = await call(dr, "POST", PLAN, { plan: "monthly" });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toBe(BILLING_MESSAGES.planChangeSame);
    const bad = await call(dr, "POST", PLAN, { plan: "weekly" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ plan: BILLING_MESSAGES.planRequired });

    // Halfway through the month: still monthly, nothing more charged.
    await advance(15);
    expect((await rowOf(dr)).plan).toBe("monthly");
    expect(await invoicesOf(dr)).toHaveLength(1);
    // The period's end: the yearly plan starts, its price charged and invoiced as such.
    now = new Date(new Date(periodEnd).getTime() + 60_000);
    await standIn.tick();
    await expect.poll(async () => (await invoicesOf(dr)).length).toBe(2);
    const yearly = (await invoicesOf(dr)).find((invoice) => invoice.amount_ttc_cents === 106_800);
    expect(yearly?.label).toMatch(/annuel/);
    const after = await subscriptionOf(dr);
    expect(after.subscription).toMatchObject({ plan: "yearly", phase: "active", next_plan: null });
    expect(new Date(after.subscription.current_period_end).getTime()).toBeGreaterThan(
      new Date(periodEnd).getTime() + 360 * DAY,
    );
    expect(after.next_payment_ttc_cents).toBe(106_800);
    expect(await changeMails(dr)).toHaveLength(1);
    // Nothing for the operator about this change or this payment (other tests' subscriptions renew
    // with the clock too: their own lines are theirs).
    expect(
      errors()
        .slice(errorsBefore)
        .filter((line) => line.includes('"paid_cents":106800') || line.includes("changement de formule")),
    ).toEqual([]);
  });

  it("during a trial kept at checkout (ADR 085): the trial goes on, its first payment is the new plan's", async () => {
    const dr = await dentistInTrial("Ariane");
    const trialEnd = inDays(30);
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const subscriptionId = (await rowOf(dr)).subscription_id as string;
    const day = formatDetailDate(trialEnd);

    const asked = await call(dr, "POST", PLAN, { plan: "yearly" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toBe(BILLING_MESSAGES.planChangeScheduled("annuelle", day, true));
    expect(asked.json().message).toContain("à la fin de votre essai gratuit");
    const during = await subscriptionOf(dr);
    expect(during.subscription).toMatchObject({
      status: "trialing",
      plan: "monthly",
      limited: false,
      next_plan: { plan: "yearly", starts_at: iso(trialEnd) },
    });
    // The first payment, at the trial's end, is the yearly plan's; nothing charged before.
    expect(during.next_payment_ttc_cents).toBe(106_800);
    expect(standIn.subscription(subscriptionId)).toMatchObject({
      status: "trialing",
      schedule: { nextPlan: "yearly" },
    });
    expect(await invoicesOf(dr)).toHaveLength(0);
    const mail = async () =>
      (await ctx.mails()).find((m) => m.includes(`To: ${dr.email}`) && m.includes("commencera en formule"));
    await expect.poll(mail).toBeDefined();
    expect(await mail()).toContain(
      `commencera en formule annuelle le ${day}, à la fin de votre essai gratuit`,
    );
    expect(await mail()).toContain("votre essai continue jusqu'à cette date");

    // The trial's end: the yearly plan's price charged, invoiced as such; the change settled.
    now = new Date(trialEnd.getTime() + 60_000);
    await standIn.tick();
    await expect.poll(async () => (await invoicesOf(dr)).map((i) => i.amount_ttc_cents)).toEqual([106_800]);
    expect((await invoicesOf(dr))[0]?.label).toMatch(/annuel/);
    const after = await subscriptionOf(dr);
    expect(after.subscription).toMatchObject({ status: "active", plan: "yearly", next_plan: null });
    expect(new Date(after.subscription.current_period_end).getTime()).toBeGreaterThan(
      trialEnd.getTime() + 360 * DAY,
    );
  });

  it("during a kept trial, dropped or cancelled: the trial's plan stays, or nothing is charged", async () => {
    const dr = await dentistInTrial("Bérangère");
    expect((await checkout(dr, "yearly", "accepted")).status).toBe(303);
    const subscriptionId = (await rowOf(dr)).subscription_id as string;
    expect((await call(dr, "POST", PLAN, { plan: "monthly" })).statusCode).toBe(200);
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(10_680);
    const dropped = await call(dr, "DELETE", PLAN);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(standIn.subscription(subscriptionId)?.schedule ?? null).toBeNull();
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(106_800);
    // Planned again, then « Résilier »: the schedule released first, the trial ends as a trial.
    expect((await call(dr, "POST", PLAN, { plan: "monthly" })).statusCode).toBe(200);
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({ cancel_at_period_end: true, next_plan: null });
    const refused = await call(dr, "POST", PLAN, { plan: "monthly" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(BILLING_MESSAGES.planChangeUnavailable);
  });

  it("cancelled, or the subscription cancelled: the monthly plan renews as before; refused in a trial or once cancelled", async () => {
    const dr = await payingDentist("Gaspard");
    const subscriptionId = (await rowOf(dr)).subscription_id as string;
    expect((await call(dr, "POST", PLAN, { plan: "yearly" })).statusCode).toBe(200);
    const dropped = await call(dr, "DELETE", PLAN);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json()).toMatchObject({
      message: BILLING_MESSAGES.planChangeCancelled,
      subscription: { plan: "monthly", next_plan: null },
    });
    expect(standIn.subscription(subscriptionId)?.schedule ?? null).toBeNull();
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(10_680);
    const none = await call(dr, "DELETE", PLAN);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(BILLING_MESSAGES.noPlanChange);

    // Planned again, then « Résilier »: the change goes first (a schedule refuses a cancellation).
    expect((await call(dr, "POST", PLAN, { plan: "yearly" })).statusCode).toBe(200);
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({ cancel_at_period_end: true, next_plan: null });
    expect(standIn.subscription(subscriptionId)?.schedule ?? null).toBeNull();
    const refused = await call(dr, "POST", PLAN, { plan: "yearly" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(BILLING_MESSAGES.planChangeUnavailable);
    // Reactivated, then renewed at the period's end: monthly, as before.
    expect((await call(dr, "POST", "/api/dentist/subscription/reactivate")).statusCode).toBe(200);
    now = new Date((await rowOf(dr)).current_period_end?.getTime() ?? 0);
    now = new Date(now.getTime() + 60_000);
    await standIn.tick();
    await expect
      .poll(async () => (await invoicesOf(dr)).map((i) => i.amount_ttc_cents))
      .toEqual([10_680, 10_680]);
    expect((await rowOf(dr)).plan).toBe("monthly");

    // In a trial without a subscription, nothing to change: the plan is chosen at checkout.
    const trial = await dentistInTrial("Clémence");
    const inTrial = await call(trial, "POST", PLAN, { plan: "yearly" });
    expect(inTrial.statusCode).toBe(409);
    expect(inTrial.json().error.message).toBe(BILLING_MESSAGES.planChangeUnavailable);
  });
});

describe("refunds at the provider → Sourio's credit notes (ADR 079)", () => {
  /** The official SDK on the stand-in, as an operator's dashboard would act at Stripe. */
  const stripe = () =>
    new Stripe(standIn.secretKey, {
      host: "127.0.0.1",
      port: Number(new URL(standIn.baseUrl).port),
      protocol: "http",
    });
  const documentsOf = (who: Who) =>
    ctx.app.db
      .selectFrom("invoices")
      .selectAll()
      .where("dentist_id", "=", who.id)
      .orderBy("kind", "desc")
      .orderBy("sequence")
      .execute();
  const errorsLogged = (text: string) =>
    logLines.filter((line) => line.includes(text) && line.includes('"level":50'));

  it("a credit note on a paid invoice is Sourio's credit note on its invoice: partial then the rest, e-mailed, listed, once each", async () => {
    const dr = await payingDentist("Pauline");
    const [invoice] = await documentsOf(dr);
    expect(invoice).toMatchObject({ kind: "invoice", amount_ttc_cents: 10680 });
    const providerInvoice = invoice?.payment_ref as string;

    // 50 € TTC refunded: 41,67 € HT + 8,33 € of TVA (20 %) = 50,00 €.
    const first = await stripe().creditNotes.create({
      invoice: providerInvoice,
      amount: 5000,
      refund_amount: 5000,
      reason: "product_unsatisfactory",
      memo: "Geste commercial",
    });
    const [, note] = await documentsOf(dr);
    expect(note).toMatchObject({
      kind: "credit_note",
      refers_to: invoice?.id,
      payment_ref: first.id,
      amount_ht_cents: 4167,
      vat_cents: 833,
      amount_ttc_cents: 5000,
      reason: "Service non satisfaisant (Geste commercial)",
    });
    expect(note?.number).toMatch(/^AV-\d{6}$/);
    // (after the commit, beside the PDF's making) the body names both documents
    await expect
      .poll(
        () =>
          ctx
            .outbox()
            .some(
              (m) =>
                m.includes(
                  `Un avoir a été émis sur votre facture ${invoice?.number}. L'avoir ${note?.number} est disponible`,
                ) && m.includes(`To: ${dr.email}`),
            ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const list = await call(dr, "GET", "/api/dentist/invoices");
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain(note?.number as string);
    const pdf = await call(dr, "GET", `/api/dentist/invoices/${note?.id}/pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers["content-type"]).toContain("application/pdf");
    expect(pdf.headers["content-disposition"]).toContain(`avoir-${note?.number}.pdf`);
    // the same event again: nothing more
    const created = standIn.events.findLast((e) => e.type === "credit_note.created") as StandInEvent;
    expect(await standIn.send(created)).toBe(200);
    expect(await documentsOf(dr)).toHaveLength(2);

    // The rest, 56,80 € TTC: its HT is what is left of the invoice's (89,00 − 41,67 = 47,33 €), so the
    // two credit notes give back exactly the invoice, HT and TTC.
    await stripe().creditNotes.create({
      invoice: providerInvoice,
      amount: 5680,
      refund_amount: 5680,
      reason: "duplicate",
    });
    const [, , last] = await documentsOf(dr);
    expect(last).toMatchObject({
      amount_ht_cents: 4733,
      vat_cents: 947,
      amount_ttc_cents: 5680,
      reason: "Paiement en double",
    });
    // nothing left to credit: the provider refuses, Sourio issues nothing
    await expect(
      stripe().creditNotes.create({ invoice: providerInvoice, amount: 1, refund_amount: 1 }),
    ).rejects.toThrow(/at most/);
    expect(await documentsOf(dr)).toHaveLength(3);
  });

  it("the last of three equal refunds takes what is left of the HT; its cent of TTC short is told to the operator", async () => {
    // 106,80 € in three refunds of 35,60 €: each 29,67 € HT alone (3 × 29,67 = 89,01 € > 89,00 €, the
    // third refused). The third takes the 29,66 € left: its TVA, 20 % rounded (5,93 €), makes 35,59 €
    // TTC, a cent short of the refund (a TVA of 5,94 € would break the rule TVA = HT × 20 %, EN 16931
    // BR-CO-17); the operator reads it in the log, as for an invoice.
    const dr = await payingDentist("Quentin");
    const [invoice] = await documentsOf(dr);
    for (let i = 0; i < 3; i += 1)
      await stripe().creditNotes.create({
        invoice: invoice?.payment_ref as string,
        amount: 3560,
        refund_amount: 3560,
      });
    const notes = (await documentsOf(dr)).filter((d) => d.kind === "credit_note");
    expect(notes.map((n) => [n.amount_ht_cents, n.amount_ttc_cents])).toEqual([
      [2967, 3560],
      [2967, 3560],
      [2966, 3559],
    ]);
    expect(notes.reduce((sum, n) => sum + n.amount_ht_cents, 0)).toBe(8900);
    expect(errorsLogged("d'un centime différent du remboursement")).toHaveLength(1);
  });

  it("a last cent refunded once the invoice's HT is all credited issues nothing and tells the operator (never a failing webhook)", async () => {
    // 35,60 + 35,60 + 35,59 €: 29,67 + 29,67 + 29,66 € HT, the invoice's 89,00 € all credited; the last
    // cent at the provider has no HT left to credit.
    const dr = await payingDentist("Sacha");
    const [invoice] = await documentsOf(dr);
    for (const amount of [3560, 3560, 3559, 1])
      await stripe().creditNotes.create({
        invoice: invoice?.payment_ref as string,
        amount,
        refund_amount: amount,
      });
    const notes = (await documentsOf(dr)).filter((d) => d.kind === "credit_note");
    expect(notes.map((n) => n.amount_ht_cents)).toEqual([2967, 2967, 2966]);
    expect(standIn.deliveries.at(-1)?.status).toBe(200);
    expect(errorsLogged("supérieur au restant de la facture")).toHaveLength(1);
  });

  it("a credit note on an invoice Sourio never issued, or one voided at the provider, issues nothing and tells the operator", async () => {
    const dr = await dentistEndingTrial("Romane");
    // The payment's invoice.paid is lost (never delivered): Sourio has no invoice of it.
    standIn.hold();
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const held = standIn.held.splice(0);
    await standIn.release();
    for (const event of held.filter((e) => e.type !== "invoice.paid"))
      expect(await standIn.send(event)).toBe(200);
    expect(await documentsOf(dr)).toHaveLength(0);
    const paid = held.find((e) => e.type === "invoice.paid") as StandInEvent;
    const providerInvoice = (JSON.parse(paid.payload) as { data: { object: { id: string } } }).data.object.id;
    await stripe().creditNotes.create({ invoice: providerInvoice, amount: 1000, out_of_band_amount: 1000 });
    expect(await documentsOf(dr)).toHaveLength(0);
    expect(errorsLogged("sur une facture que Sourio n'a pas émise")).toHaveLength(1);
    expect(standIn.deliveries.at(-1)?.status).toBe(200);

    // Voided at the provider after Sourio issued its own: Sourio's stays (documents never change).
    await standIn.send(paid);
    const note = await stripe().creditNotes.create({
      invoice: providerInvoice,
      amount: 2000,
      credit_amount: 2000,
    });
    expect((await documentsOf(dr)).map((d) => d.kind)).toEqual(["invoice", "credit_note"]);
    await stripe().creditNotes.voidCreditNote(note.id);
    expect((await documentsOf(dr)).map((d) => d.kind)).toEqual(["invoice", "credit_note"]);
    expect(errorsLogged("avoir annulé chez le prestataire")).toHaveLength(1);
  });
});

describe("payment failed → past due → limited after the grace", () => {
  it("keeps working 14 days, then no new requests nor offers while patients' things stay; fixing the card restores it", async () => {
    const dr = await dentistInTrial("Gaston");
    const alice = await patient(ctx.app, { first_name: "Alice" });
    // Alice chose Dr Gaston on one request; another of her requests is still open.
    const chosenRequest = await newRequestId(ctx.app, alice.cookie);
    const sent = await call(dr, "POST", `/api/dentist/requests/${chosenRequest}/offers`, offerBody());
    expect(sent.statusCode, sent.body).toBe(201);
    const accepted = await call(alice, "POST", `/api/patient/offers/${sent.json().offer.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const openRequest = await newRequestId(ctx.app, alice.cookie);

    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const row = await rowOf(dr);
    standIn.setPaymentWorks(row.customer_id as string, false);
    await advance(31); // the renewal fails
    expect((await subscriptionOf(dr)).subscription).toMatchObject({
      status: "past_due",
      phase: "past_due",
      limited: false,
    });
    await expect
      .poll(() => ctx.outbox().some((m) => m.includes("n'a pas abouti") && m.includes(`To: ${dr.email}`)))
      .toBe(true);
    const listed = async () =>
      ((await call(dr, "GET", "/api/dentist/requests")).json().items as { id: string }[]).map((i) => i.id);
    expect(await listed()).toContain(openRequest);

    await advance(14); // the grace is over
    const limited = (await subscriptionOf(dr)).subscription;
    expect(limited).toMatchObject({ status: "past_due", phase: "limited", limited: true });
    expect((await call(dr, "GET", "/api/me")).json().subscription.limited).toBe(true);
    // no new requests, no offers…
    expect(await listed()).not.toContain(openRequest);
    expect(await listed()).toContain(chosenRequest);
    expect((await call(dr, "GET", `/api/dentist/requests/${openRequest}`)).statusCode).toBe(404);
    const offer = await call(dr, "POST", `/api/dentist/requests/${openRequest}/offers`, offerBody());
    expect(offer.statusCode).toBe(404);
    const onChosen = await call(dr, "POST", `/api/dentist/requests/${chosenRequest}/offers`, offerBody());
    expect(onChosen.statusCode).toBe(403);
    expect(onChosen.json().error.message).toContain("Réactivez votre abonnement");
    // …but the accepted request, its documents and the conversation stay.
    expect((await call(dr, "GET", `/api/dentist/requests/${chosenRequest}`)).statusCode).toBe(200);
    const conversations = (await call(dr, "GET", "/api/conversations")).json();
    expect(JSON.stringify(conversations)).toContain(chosenRequest);

    // 'Gérer mon moyen de paiement': the stand-in's portal, "Paiement accepté" pays what is due.
    const portal = await call(dr, "POST", "/api/dentist/subscription/portal");
    expect(portal.statusCode, portal.body).toBe(200);
    const fixed = await fetch(portal.json().url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "outcome=accepted",
    });
    expect(fixed.status).toBe(303);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "active", limited: false });
    expect(await listed()).toContain(openRequest);

    // Subscribed during the trial, its end was the first renewal, refused: as at Stripe it started its
    // period all the same, and the invoice paid late is that period's only one — not the trial's, and
    // not followed at once by another. Nothing more is charged before that period ends.
    const periods = async () =>
      (
        await ctx.app.db
          .selectFrom("invoices")
          .select(["period_start", "period_end"])
          .where("dentist_id", "=", dr.id)
          .where("kind", "=", "invoice")
          .execute()
      ).map((i) => iso(new Date(i.period_start as unknown as string)).slice(0, 10));
    await expect.poll(async () => (await periods()).length).toBe(1);
    const trialEnd = (await subscriptionOf(dr)).subscription.trial_ends_at as string;
    expect(await periods()).toEqual([trialEnd.slice(0, 10)]);
    await standIn.tick();
    expect(await periods()).toHaveLength(1);
    const next = (await subscriptionOf(dr)).subscription.current_period_end as string;
    expect(new Date(next).getTime()).toBeGreaterThan(now.getTime());
  });
});

describe("cancelled while a payment is overdue", () => {
  it("says the subscription ends with the period under way, not that it stays paid", async () => {
    const dr = await dentistInTrial("Firmin");
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    standIn.setPaymentWorks((await rowOf(dr)).customer_id as string, false);
    await advance(31); // the renewal at the trial's end fails
    expect((await subscriptionOf(dr)).subscription.status).toBe("past_due");
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().message).toBe(BILLING_MESSAGES.canceledPastDue);
  });
});

describe("cancel and reactivate", () => {
  it("cancels at the period's end and reactivates in one click", async () => {
    const dr = await dentistEndingTrial("Camille");
    expect((await call(dr, "POST", "/api/dentist/subscription/cancel")).statusCode).toBe(409);
    expect((await checkout(dr, "yearly", "accepted")).status).toBe(303);

    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({
      status: "active",
      phase: "ending",
      cancel_at_period_end: true,
    });
    expect(cancelled.json().message).toContain("reste actif jusqu'à la fin de la période payée");
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBeNull();

    const back = await call(dr, "POST", "/api/dentist/subscription/reactivate");
    expect(back.json().subscription).toMatchObject({ phase: "active", cancel_at_period_end: false });
    expect((await subscriptionOf(dr)).next_payment_ttc_cents).toBe(106800);
  });

  it("a dentist whose verification is withdrawn: his renewal stopped, the portal still his, no subscribing again", async () => {
    const dr = await payingDentist("Valère");
    const admin = await signInAdmin(ctx.app);
    const withdrawn = await call(admin, "POST", `/api/admin/dentists/${dr.id}/verification`, {
      decision: "unverify",
      reason: "Numéro RPPS à vérifier de nouveau.",
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);

    // Stopped by the withdrawal (ADR 093; below, « a dentist whose verification is withdrawn »).
    expect((await subscriptionOf(dr)).subscription).toMatchObject({
      has_provider_subscription: true,
      phase: "ending",
      cancel_at_period_end: true,
    });
    const portal = await call(dr, "POST", "/api/dentist/subscription/portal");
    expect(portal.statusCode, portal.body).toBe(200);

    const back = await call(dr, "POST", "/api/dentist/subscription/reactivate");
    expect(back.statusCode).toBe(403);
    expect(back.json().error.message).toContain("dentistes vérifiés");
    expect(
      (await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "yearly" })).statusCode,
    ).toBe(403);
  });

  it("a cancelled subscription ends at the period's end (an e-mail says so), cannot be reactivated, comes back by a new checkout", async () => {
    // A monthly plan: the stand-in's clock moves every subscription of this file with it, and a year
    // would renew each monthly one twelve times (an invoice each), a minute of a loaded machine.
    const dr = await payingDentist("Capucine");
    expect((await call(dr, "POST", "/api/dentist/subscription/cancel")).statusCode).toBe(200);
    await advance(27);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "active", phase: "ending" });
    await advance(5);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({ status: "canceled", limited: true });
    await expect
      .poll(() =>
        ctx
          .outbox()
          .some((m) => m.includes("Votre abonnement à Sourio est terminé") && m.includes(`To: ${dr.email}`)),
      )
      .toBe(true);
    expect((await call(dr, "POST", "/api/dentist/subscription/reactivate")).statusCode).toBe(409);

    expect((await checkout(dr, "yearly", "accepted")).status).toBe(303);
    expect((await subscriptionOf(dr)).subscription).toMatchObject({
      status: "active",
      plan: "yearly",
      limited: false,
    });
  });
});

describe("webhooks: signature, replay, order", () => {
  const eventCount = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from billing_events`.execute(ctx.app.db)).rows[0]?.n;

  it("a tampered or forged webhook is 400 and changes nothing; a replay is acknowledged and applied once", async () => {
    const dr = await payingDentist("Victor");
    const before = await rowOf(dr);
    const created = standIn.events.findLast(
      (e) => e.type === "customer.subscription.created",
    ) as StandInEvent;
    const cancelled = created.payload.replace('"status":"active"', '"status":"canceled"');
    const count = await eventCount();

    // the body changed after signing: the signature no longer matches
    const tampered = await standIn.send(created, { tamper: () => cancelled });
    expect(tampered).toBe(400);
    // signed with another secret
    const forged = await standIn.send({ ...created, id: "evt_forged" }, { secret: "whsec_notthesecret" });
    expect(forged).toBe(400);
    const unsigned = await ctx.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json" },
      payload: cancelled,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().error.message).toBe("Signature du webhook invalide.");
    expect(await eventCount()).toBe(count);
    expect(await rowOf(dr)).toEqual(before);

    // every event of the checkout sent again: 200, nothing stored or changed
    for (const event of standIn.events.filter((e) => e.payload.includes(before.subscription_id as string)))
      expect(await standIn.send(event)).toBe(200);
    expect(await eventCount()).toBe(count);
    expect(await rowOf(dr)).toEqual(before);
  });

  it("events out of order never move a subscription back; duplicates in the middle change nothing", async () => {
    const dr = await dentistInTrial("Octave");
    standIn.hold();
    const started = await call(dr, "POST", "/api/dentist/subscription/checkout", { plan: "monthly" });
    const sessionId = new URL(started.json().url).pathname.split("/").pop() as string;
    expect(await standIn.pay(sessionId, true)).toBe(true);
    const session = standIn.lastCheckoutSession();
    const subscriptionId = session?.subscriptionId as string;
    // renewal refused (past due), then, a day later, a payment method that works (active again)
    standIn.setPaymentWorks(session?.customerId as string, false);
    await advance(31);
    expect(standIn.subscription(subscriptionId)?.status).toBe("past_due");
    standIn.setPaymentWorks(session?.customerId as string, true);
    await advance(1);
    expect(standIn.subscription(subscriptionId)?.status).toBe("active");
    const periodEnd = standIn.subscription(subscriptionId)?.periodEnd as number;
    // nothing arrived yet: the dentist is still in trial
    expect((await rowOf(dr)).status).toBe("trialing");
    // latest first, each event twice
    await standIn.release((events) => [...events].reverse().flatMap((e) => [e, e]));
    const row = await rowOf(dr);
    expect(row.status).toBe("active");
    expect(row.subscription_id).toBe(subscriptionId);
    expect(row.customer_id).toBe(session?.customerId);
    expect(new Date(row.current_period_end as Date).getTime()).toBe(periodEnd * 1000);
    expect(standIn.deliveries.slice(-4).every((d) => d.status === 200)).toBe(true);
  });

  it("the daily reconciliation re-reads every subscription: a lost webhook is made good", async () => {
    const dr = await dentistInTrial("Rita");
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const row = await rowOf(dr);
    // the provider cancelled it, and its webhook never came
    standIn.hold();
    const { runDailyReconciliation } = await import("./billing.service");
    await ctx.app.billing.provider().then((p) => p.setCancelAtPeriodEnd(row.subscription_id as string, true));
    standIn.held.splice(0);
    await standIn.release();
    expect((await rowOf(dr)).cancel_at_period_end).toBe(false);
    const deps = {
      db: ctx.app.db,
      mailer: ctx.app.mailer,
      config: ctx.app.config,
      clock: () => now,
      log: ctx.app.log,
      provider: () => ctx.app.billing.provider(),
    };
    expect(await runDailyReconciliation(deps)).toBe(true);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(true);
    // once a day, whichever instance comes first
    expect(await runDailyReconciliation(deps)).toBe(false);
  });
});

describe("admin: Abonnements", () => {
  it("counts by state, the monthly recurring revenue HT, the list with search; admins only", async () => {
    const admin = await signInAdmin(ctx.app);
    const response = await call(admin, "GET", "/api/admin/subscriptions");
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const rows = await ctx.app.db.selectFrom("subscriptions").select(["status", "plan"]).execute();
    const paying = rows.filter((r) => r.status === "active" || r.status === "past_due");
    const expected =
      paying.filter((r) => r.plan === "monthly").length * 8900 +
      paying.filter((r) => r.plan === "yearly").length * 7417;
    expect(paying.length).toBeGreaterThan(0);
    expect(body.mrr_ht_cents).toBe(expected);
    // every subscription counted once (trials whose end passed under « trial_ended », see below)
    expect(Object.keys(body.counts).sort()).toEqual(
      ["active", "canceled", "past_due", "trial_ended", "trialing", "unpaid"].sort(),
    );
    expect(Object.values(body.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(rows.length);
    const search = await call(admin, "GET", "/api/admin/subscriptions?search=Camille");
    expect(search.json().items.map((i: { full_name: string }) => i.full_name.split(" ")[0])).toEqual([
      "Camille",
    ]);
    const dr = await dentistInTrial("Zoe");
    expect((await call(dr, "GET", "/api/admin/subscriptions")).statusCode).toBe(403);
  });
});

describe("admin: Abonnements at the app's clock", () => {
  type Line = {
    dentist_id: string;
    status: string;
    phase: string;
    limited: boolean;
    changes_at: string | null;
  };
  type Answer = { counts: Record<string, number>; items: Line[]; has_more: boolean };

  it("a trial whose end has passed is counted, listed and filtered as « trial_ended », not « trialing »; a renewal is no end", async () => {
    const admin = await signInAdmin(ctx.app);
    const list = async (query: Record<string, string>): Promise<Answer> => {
      const response = await call(admin, "GET", `/api/admin/subscriptions?${new URLSearchParams(query)}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const lineOf = async (who: Who) =>
      (await list({ search: who.email })).items.find((i) => i.dentist_id === who.id);
    /** Every line the filter gives, page after page. */
    const filtered = async (status: string) => {
      const lines: Line[] = [];
      for (let page = 1; ; page++) {
        const answer = await list({ status, page: String(page) });
        lines.push(...answer.items);
        if (!answer.has_more) return lines;
      }
    };

    const dr = await dentistInTrial("Octave");
    const renewing = await payingDentist("Renaud");
    const leaving = await dentistEndingTrial("Solange");
    expect((await checkout(leaving, "yearly", "accepted")).status).toBe(303);
    expect((await call(leaving, "POST", "/api/dentist/subscription/cancel")).statusCode).toBe(200);
    expect(await lineOf(dr)).toMatchObject({
      status: "trialing",
      phase: "trial",
      limited: false,
      changes_at: iso(inDays(30)),
    });

    // The clock passes the trial's end; nothing writes the row, which still says « trialing ».
    await advance(31);
    expect((await rowOf(dr)).status).toBe("trialing");
    expect(await lineOf(dr)).toMatchObject({
      status: "trial_ended",
      phase: "limited",
      limited: true,
      changes_at: null,
    });

    // The counts at the app's clock: an ended trial is no « Essai gratuit ».
    const rows = await ctx.app.db.selectFrom("subscriptions").select(["status", "trial_ends_at"]).execute();
    const ended = rows.filter((r) => r.status === "trialing" && new Date(r.trial_ends_at) <= now);
    const { counts } = await list({});
    expect(counts.trial_ended).toBe(ended.length);
    expect(counts.trialing).toBe(rows.filter((r) => r.status === "trialing").length - ended.length);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(rows.length);
    // The filter agrees with the counts, state by state, and with each line's state.
    for (const [status, count] of Object.entries(counts)) {
      const lines = await filtered(status);
      expect(lines, status).toHaveLength(count);
      expect(lines.every((line) => line.status === status)).toBe(true);
    }
    expect((await filtered("trial_ended")).map((l) => l.dentist_id)).toContain(dr.id);
    expect((await filtered("trialing")).map((l) => l.dentist_id)).not.toContain(dr.id);

    // Renewing by itself: « active » up to the next renewal; cancelled: « ending » at the period's end.
    const renewed = await rowOf(renewing);
    expect(new Date(renewed.current_period_end as Date).getTime()).toBeGreaterThan(now.getTime());
    expect(await lineOf(renewing)).toMatchObject({
      status: "active",
      phase: "active",
      changes_at: iso(new Date(renewed.current_period_end as Date)),
    });
    expect(await lineOf(leaving)).toMatchObject({
      status: "active",
      phase: "ending",
      changes_at: iso(new Date((await rowOf(leaving)).current_period_end as Date)),
    });
  });
});

describe("a subscribed dentist's new e-mail address (ADR 083)", () => {
  it("is given to his customer at the provider, whose own e-mails go there", async () => {
    const dr = await dentistInTrial("Gaston");
    expect((await checkout(dr, "monthly", "accepted")).status).toBe(303);
    const customer = (await rowOf(dr)).customer_id as string;
    expect(standIn.customerEmail(customer)).toBe(dr.email);

    const next = uniqueEmail("cabinet");
    const asked = await call(dr, "POST", "/api/account/email", {
      new_email: next,
      current_password: "Sourire-Sain-2026",
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = (await ctx.mails())
      .filter((mail) => mail.includes(`To: ${next}`))
      .map((mail) => mail.match(/confirm-email\?token=([\w-]+)/)?.[1])
      .at(-1);
    expect(token).toBeTruthy();
    expect(standIn.customerEmail(customer)).toBe(dr.email);
    const confirmed = await call(undefined, "POST", "/api/account/email/confirm", { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(standIn.customerEmail(customer)).toBe(next);
  });
});

describe("account erasure of a subscribed dentist", () => {
  it("cancels the subscription now at the provider, says so, and keeps the invoices (re-attached to the pseudonym)", async () => {
    const dr = await payingDentist("Edgar");
    const { subscription_id } = await rowOf(dr);
    expect(subscription_id).toBeTruthy();
    const invoices = await ctx.app.db
      .selectFrom("invoices")
      .select(["id", "number"])
      .where("dentist_id", "=", dr.id)
      .execute();
    expect(invoices).toHaveLength(1);

    const erased = await call(dr, "POST", "/api/account/delete", { password: "Sourire-Sain-2026" });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().message).toBe(
      "Votre compte a été supprimé. Vos données ont été effacées et votre abonnement est résilié\u202f: plus aucun paiement ne sera prélevé.",
    );
    // At the provider: ended now, not at the period's end; nothing more is billed when it comes.
    expect(standIn.subscription(subscription_id as string)).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: false,
    });
    const billed = () =>
      standIn.events.filter(
        (e) => e.type === "invoice.paid" && e.payload.includes(subscription_id as string),
      );
    expect(billed()).toHaveLength(1);
    await advance(40);
    expect(billed()).toHaveLength(1);
    // The subscription's row went with the profile; its late webhook changed nothing and was acknowledged.
    expect(
      await ctx.app.db
        .selectFrom("subscriptions")
        .select("dentist_id")
        .where("dentist_id", "=", dr.id)
        .execute(),
    ).toEqual([]);
    expect(standIn.deliveries.at(-1)?.status).toBe(200);
    // The invoice stays, as issued, on the erased dentist's pseudonym.
    const kept = await ctx.app.db
      .selectFrom("invoices")
      .innerJoin("profiles", "profiles.id", "invoices.dentist_id")
      .select(["invoices.id", "invoices.number", "profiles.erased_at"])
      .where("invoices.id", "=", invoices[0]?.id as string)
      .executeTakeFirstOrThrow();
    expect(kept.number).toBe(invoices[0]?.number);
    expect(kept.erased_at).not.toBeNull();
  });

  it("a dentist in trial (nothing at the provider) is erased with the usual message", async () => {
    const dr = await dentistInTrial("Irene");
    const erased = await call(dr, "POST", "/api/account/delete", { password: "Sourire-Sain-2026" });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().message).toBe("Votre compte a été supprimé. Vos données ont été effacées.");
  });

  it("the provider failing stops the erasure before anything is erased (French 503); an admin's erasure cancels too", async () => {
    const dr = await payingDentist("Hector");
    const provider = await ctx.app.billing.provider();
    const failing = vi.spyOn(provider, "cancelNow").mockRejectedValue(new Error("connection refused"));
    try {
      const refused = await call(dr, "POST", "/api/account/delete", { password: "Sourire-Sain-2026" });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.message).toBe(
        "Votre abonnement n'a pas pu être résilié auprès du service de paiement, votre compte n'a donc pas été supprimé. Veuillez réessayer dans quelques minutes.",
      );
    } finally {
      failing.mockRestore();
    }
    const row = await rowOf(dr);
    expect(row.status).toBe("active");
    expect((await call(dr, "GET", "/api/me")).statusCode).toBe(200);

    const admin = await signInAdmin(ctx.app);
    const byAdmin = await call(admin, "POST", `/api/admin/users/${dr.id}/erase`);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().message).toBe("Le compte a été supprimé et son abonnement résilié.");
    expect(standIn.subscription(row.subscription_id as string)?.status).toBe("canceled");
  });
});

describe("a suspended dentist (ADR 092)", () => {
  const suspend = (admin: Who, dr: Who) =>
    call(admin, "POST", `/api/admin/users/${dr.id}/suspension`, {
      reason: "Numéro RPPS d'un autre praticien.",
    });

  it("is billed no more: his subscription ends with the period paid, and his e-mail says when", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await payingDentist("Sylvain");
    const before = await rowOf(dr);
    expect(before).toMatchObject({ status: "active", cancel_at_period_end: false });
    const subscriptionId = before.subscription_id as string;

    const suspended = await suspend(admin, dr);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toEqual({
      changed: true,
      renewal: "stopped",
      message: ADMIN_MESSAGES.suspendedRenewalStopped,
    });
    expect(standIn.subscription(subscriptionId)?.cancelAtPeriodEnd).toBe(true);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(true);
    const [told] = (await ctx.mails()).filter(
      (m) => m.includes(`To: ${dr.email}`) && m.includes("a suspendu votre compte"),
    );
    expect(told).toContain(
      `Votre abonnement ne sera pas renouvelé\u202f: il prend fin le ${formatDetailDate(before.current_period_end as Date)}`,
    );

    // Past the period: not charged again, the subscription ended.
    const billed = () =>
      standIn.events.filter((e) => e.type === "invoice.paid" && e.payload.includes(subscriptionId));
    const paid = billed().length;
    await advance(40);
    expect(billed()).toHaveLength(paid);
    expect((await rowOf(dr)).status).toBe("canceled");
    // Suspending again changes nothing, and asks nothing of the provider.
    expect((await suspend(admin, dr)).json()).toMatchObject({ changed: false, renewal: null });
    // Lifted: he is told where to take a plan again (nothing renews by itself).
    const lifted = await ctx.app.inject({
      method: "DELETE",
      url: `/api/admin/users/${dr.id}/suspension`,
      headers: { cookie: admin.cookie },
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    const [back] = (await ctx.mails()).filter(
      (m) => m.includes(`To: ${dr.email}`) && m.includes("a levé la suspension"),
    );
    expect(back).toContain("Si votre abonnement a été arrêté par la suspension, réactivez-le");
    expect((await rowOf(dr)).status).toBe("canceled");
  });

  it("is suspended all the same when the provider fails; the team is told to stop the renewal there", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await payingDentist("Timothée");
    const suspended = await whileRenewalFails(() => suspend(admin, dr));
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toEqual({
      changed: true,
      renewal: "failed",
      message: ADMIN_MESSAGES.suspendedRenewalFailed,
    });
    expect((await call(dr, "GET", "/api/me")).statusCode).toBe(401);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(false);
    expect(logLines.some((line) => line.includes("renouvellement non arrêté à la suspension"))).toBe(true);
    const [told] = (await ctx.mails()).filter(
      (m) => m.includes(`To: ${dr.email}`) && m.includes("a suspendu votre compte"),
    );
    expect(told).not.toContain("abonnement");
  });

  it("a dentist in trial, with nothing at the provider, is suspended with the usual message", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await dentistInTrial("Ursule");
    expect((await suspend(admin, dr)).json()).toEqual({
      changed: true,
      renewal: null,
      message: ADMIN_MESSAGES.suspended,
    });
  });
});

describe("a dentist whose verification is withdrawn (ADR 093)", () => {
  const decide = async (admin: Who, dr: Who, decision: "unverify" | "verify") => {
    const body =
      decision === "verify"
        ? await verifyBody(ctx.app, dr.id)
        : { decision, reason: "Numéro RPPS inactif au répertoire" };
    return call(admin, "POST", `/api/admin/dentists/${dr.id}/verification`, body);
  };
  const mailsTo = async (dr: Who, subject: string) =>
    (await ctx.mails()).filter((m) => m.includes(`To: ${dr.email}`) && m.includes(subject));

  it("is billed no more while he cannot use Sourio; verified again, he may reactivate it", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await payingDentist("Wilfried");
    await givePractice(ctx.app, dr.id);
    const before = await rowOf(dr);
    const subscriptionId = before.subscription_id as string;

    const withdrawn = await decide(admin, dr, "unverify");
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toEqual({
      changed: true,
      is_verified: false,
      renewal: "stopped",
      message: ADMIN_MESSAGES.unverifiedRenewalStopped,
    });
    expect(standIn.subscription(subscriptionId)?.cancelAtPeriodEnd).toBe(true);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(true);
    const [told] = await mailsTo(dr, "a retiré la vérification");
    expect(told).toContain(
      `Votre abonnement ne sera pas renouvelé\u202f: il prend fin le ${formatDetailDate(before.current_period_end as Date)}, et rien ne vous sera plus prélevé.`,
    );
    // Not verified, he may not take it up again (he may still stop paying: « Résilier », the portal).
    const refused = await call(dr, "POST", "/api/dentist/subscription/reactivate");
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.message).toBe(BILLING_MESSAGES.notVerified);

    // Withdrawing again changes nothing, and asks nothing of the provider.
    expect((await decide(admin, dr, "unverify")).json()).toMatchObject({ changed: false, renewal: null });

    // Verified again within the period: his e-mail says where to take it up, and he can.
    const verified = await decide(admin, dr, "verify");
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({
      is_verified: true,
      renewal: null,
      message: ADMIN_MESSAGES.verified,
    });
    const [back] = await mailsTo(dr, "Bonne nouvelle");
    expect(back).toContain("Votre abonnement n'est plus renouvelé\u202f: réactivez-le");
    const reactivated = await call(dr, "POST", "/api/dentist/subscription/reactivate");
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    expect(standIn.subscription(subscriptionId)?.cancelAtPeriodEnd).toBe(false);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(false);
  });

  it("is withdrawn all the same when the provider fails; the team is told to stop the renewal there", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await payingDentist("Xavière");
    const withdrawn = await whileRenewalFails(() => decide(admin, dr, "unverify"));
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toEqual({
      changed: true,
      is_verified: false,
      renewal: "failed",
      message: ADMIN_MESSAGES.unverifiedRenewalFailed,
    });
    expect((await rowOf(dr)).cancel_at_period_end).toBe(false);
    expect(
      logLines.some((line) => line.includes("renouvellement non arrêté au retrait de la vérification")),
    ).toBe(true);
    const [told] = await mailsTo(dr, "a retiré la vérification");
    expect(told).not.toContain("abonnement");
    // Not verified, he can still stop paying himself.
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({ phase: "ending", cancel_at_period_end: true });
  });

  it("a dentist in trial, with nothing at the provider, is withdrawn with the usual message", async () => {
    const admin = await signInAdmin(ctx.app);
    const dr = await dentistInTrial("Yolande");
    await givePractice(ctx.app, dr.id);
    const withdrawn = await decide(admin, dr, "unverify");
    expect(withdrawn.json()).toEqual({
      changed: true,
      is_verified: false,
      renewal: null,
      message: ADMIN_MESSAGES.unverified,
    });
    const [told] = await mailsTo(dr, "a retiré la vérification");
    expect(told).not.toContain("abonnement");
    // Verified again, with nothing to take up: his e-mail does not speak of a subscription.
    expect((await decide(admin, dr, "verify")).statusCode).toBe(200);
    const [back] = await mailsTo(dr, "Bonne nouvelle");
    expect(back).not.toContain("abonnement");
  });
});
