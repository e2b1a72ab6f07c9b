import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startTrialOnVerification } from "../../access/subscription";
import { appPerFile } from "../../testing/harness";
import { dentist, type Who } from "../../testing/people";
import { reconcileSubscriptions } from "./billing.service";
import { BillingRuntime, STAND_IN_STATE_FILE } from "./runtime";
import type { StripeStandIn } from "./stand-in";

/*
 * Issue 35, ADR 044: the local payment stand-in keeps its customers and subscriptions in
 * DATA_DIR/stripe-stand-in.json (0600), so `npm start` again after a checkout finds the
 * subscription the database holds: re-read, cancelled, renewed as before. A restart is the billing
 * runtime closed and made again on the same DATA_DIR and database.
 */

const DAY = 24 * 60 * 60 * 1000;
let now = new Date("2026-11-21T09:00:00Z");
const ctx = appPerFile({ clock: () => now });
/** A trial started 29 days ago: a checkout now is paid at once (ADR 085), its period starts today. */
const trialEndingTomorrow = () => new Date(now.getTime() - 29 * 24 * 60 * 60 * 1000);
const stateFile = () => path.join(ctx.dataDir, STAND_IN_STATE_FILE);

const call = (who: Who, method: "GET" | "POST", url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

const rowOf = (who: Who) =>
  ctx.app.db
    .selectFrom("subscriptions")
    .selectAll()
    .where("dentist_id", "=", who.id)
    .executeTakeFirstOrThrow();

/** 'S'abonner', then "Paiement accepté" on the stand-in's page (its HTML form). */
async function subscribe(who: Who) {
  const started = await call(who, "POST", "/api/dentist/subscription/checkout", { plan: "monthly" });
  expect(started.statusCode, started.body).toBe(200);
  const paid = await fetch(started.json().url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ method: "card", outcome: "accepted" }).toString(),
  });
  expect(paid.status).toBe(303);
}

/** `npm start` again: the billing runtime closed, then made again (a new stand-in, a new port). */
async function restart(): Promise<StripeStandIn> {
  await ctx.app.billing.close();
  (ctx.app as { billing: BillingRuntime }).billing = new BillingRuntime(ctx.app);
  const standIn = await ctx.app.billing.standIn();
  if (!standIn) throw new Error("no stand-in");
  return standIn;
}

/** The reconciliation as the daily job runs it, with what it logs. */
async function reconcile() {
  const errors: string[] = [];
  const changed = await reconcileSubscriptions({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.app.config,
    clock: () => now,
    log: { error: (_obj, msg) => errors.push(msg) },
    provider: () => ctx.app.billing.provider(),
  });
  return { changed, errors };
}

describe("the local stand-in across restarts", () => {
  it("a subscription paid before a restart is re-read, cancelled and ended after it", async () => {
    const dr = await dentist(ctx.app, { first_name: "Rémi" });
    await startTrialOnVerification(ctx.app.db, dr.id, trialEndingTomorrow());
    const before = await ctx.app.billing.standIn();
    await subscribe(dr);
    const { subscription_id, current_period_end } = await rowOf(dr);
    expect(subscription_id).toBeTruthy();

    // Kept under DATA_DIR, readable by the server's user only, without the dentist's e-mail or name.
    expect(statSync(stateFile()).mode & 0o777).toBe(0o600);
    const kept = readFileSync(stateFile(), "utf8");
    expect(kept).toContain(subscription_id);
    expect(kept).not.toContain(dr.email);
    expect(kept).not.toContain("Rémi");

    const after = await restart();
    expect(after).not.toBe(before);
    expect(after.subscription(subscription_id as string)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
    });
    // The daily reconciliation reads it again: nothing to change, nothing failed.
    expect(await reconcile()).toEqual({ changed: 0, errors: [] });

    // 'Gérer mon moyen de paiement' and 'Résilier' reach the same subscription.
    const portal = await call(dr, "POST", "/api/dentist/subscription/portal");
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toContain(after.baseUrl);
    const cancelled = await call(dr, "POST", "/api/dentist/subscription/cancel");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await rowOf(dr)).cancel_at_period_end).toBe(true);

    // Restarted once more, its clock past the paid period: it ends, and the app hears it.
    const third = await restart();
    expect(third.subscription(subscription_id as string)?.cancelAtPeriodEnd).toBe(true);
    now = new Date(new Date(current_period_end as Date).getTime() + DAY);
    await third.tick();
    expect(await rowOf(dr)).toMatchObject({ status: "canceled", subscription_id });
  });

  it("without the kept state (the file removed), the subscription cannot be re-read: what the file prevents", async () => {
    const dr = await dentist(ctx.app, { first_name: "Sacha" });
    await startTrialOnVerification(ctx.app.db, dr.id, trialEndingTomorrow());
    await subscribe(dr);
    rmSync(stateFile());
    await restart();
    const { errors } = await reconcile();
    expect(errors).toContain("paiement : abonnement non relu");
    expect((await rowOf(dr)).status).toBe("active");
  });

  it("a state file that cannot be read is set aside, and the stand-in starts empty", async () => {
    writeFileSync(stateFile(), "{ pas du JSON", { mode: 0o600 });
    const standIn = await restart();
    expect(existsSync(`${stateFile()}.illisible`)).toBe(true);
    const dr = await dentist(ctx.app, { first_name: "Yann" });
    await startTrialOnVerification(ctx.app.db, dr.id, trialEndingTomorrow());
    await subscribe(dr);
    const { subscription_id } = await rowOf(dr);
    expect(standIn.subscription(subscription_id as string)?.status).toBe("active");
    expect(readFileSync(stateFile(), "utf8")).toContain(subscription_id);
  });
});
