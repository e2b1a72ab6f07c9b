import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applySnapshot,
  DEFAULT_PLAN_PRICES_HT_CENTS,
  isLimited,
  limitedFrom,
  mayMove,
  monthlyRecurringRevenue,
  phaseOf,
  planName,
  planPrice,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TRANSITIONS,
  type SubscriptionSnapshot,
  type SubscriptionState,
  type SubscriptionStatus,
  standingOf,
  startTrial,
  TRIAL_KEPT_MIN_MS,
  trialKeptAtCheckout,
} from "./subscription";

const day = 24 * 60 * 60 * 1000;
const at = (iso: string) => new Date(iso);
const verified = at("2026-11-02T09:00:00Z");

describe("plans: HT, TVA 20 % and TTC", () => {
  it("worked example with the default prices: 89 € HT a month, 890 € HT a year", () => {
    const monthly = planPrice("monthly", DEFAULT_PLAN_PRICES_HT_CENTS);
    // 89,00 € HT + 17,80 € TVA (20 %) = 106,80 € TTC
    expect(monthly).toMatchObject({ htCents: 8900, vatCents: 1780, ttcCents: 10680, monthlyHtCents: 8900 });
    expect(planName("Sourio", "monthly")).toBe("Sourio Cabinet — mensuel");
    expect(planName("Dentalia", "yearly")).toBe("Dentalia Cabinet — annuel");
    expect(planName("Dentalia")).toBe("Dentalia Cabinet");
    const yearly = planPrice("yearly", DEFAULT_PLAN_PRICES_HT_CENTS);
    // 890,00 € HT + 178,00 € TVA = 1 068,00 € TTC; 74,17 € HT a month (about two months free)
    expect(yearly).toMatchObject({ htCents: 89000, vatCents: 17800, ttcCents: 106800, monthlyHtCents: 7417 });
  });

  it("prices come from the config given, with the TVA rounded to the cent", () => {
    const plan = planPrice("monthly", { monthly: 4999, yearly: 49990 });
    // 49,99 € HT → 9,998 € → 10,00 € TVA → 59,99 € TTC
    expect(plan).toMatchObject({ htCents: 4999, vatCents: 1000, ttcCents: 5999 });
  });

  it("monthly recurring revenue: 3 monthly and 2 yearly subscribers = 3 × 89 + 2 × 74,17 = 415,34 € HT", () => {
    const mrr = monthlyRecurringRevenue(
      [
        { plan: "monthly", count: 3 },
        { plan: "yearly", count: 2 },
      ],
      DEFAULT_PLAN_PRICES_HT_CENTS,
    );
    expect(mrr).toBe(41534);
  });
});

describe("the state machine", () => {
  it("nothing goes back to the trial, and an ended subscription stays ended", () => {
    for (const from of SUBSCRIPTION_STATUSES) {
      expect(mayMove(from, from)).toBe(true);
      if (from !== "trialing") expect(mayMove(from, "trialing")).toBe(false);
    }
    expect(SUBSCRIPTION_TRANSITIONS.canceled).toEqual([]);
    expect(mayMove("past_due", "active")).toBe(true);
    expect(mayMove("canceled", "active")).toBe(false);
  });

  it("a trial lasts 30 days from the verification", () => {
    const trial = startTrial(verified);
    expect(trial.status).toBe("trialing");
    expect(trial.trialEndsAt.toISOString()).toBe("2026-12-02T09:00:00.000Z");
  });

  it("a late event of an old subscription never replaces the live one; a new checkout after an end does", () => {
    const trial = startTrial(verified);
    const snap = (over: Partial<SubscriptionSnapshot>): SubscriptionSnapshot => ({
      subscriptionId: "sub_1",
      status: "active",
      at: at("2026-11-10T00:00:00Z"),
      plan: "monthly",
      currentPeriodEnd: at("2026-12-10T00:00:00Z"),
      cancelAtPeriodEnd: false,
      ...over,
    });
    const active = applySnapshot(trial, snap({})) as SubscriptionState;
    expect(active.status).toBe("active");
    expect(
      applySnapshot(active, snap({ subscriptionId: "sub_0", at: at("2026-11-11T00:00:00Z") })),
    ).toBeNull();
    const ended = applySnapshot(active, snap({ status: "canceled", at: at("2026-12-10T00:00:00Z") }));
    expect(ended?.status).toBe("canceled");
    // the same subscription does not come back…
    expect(applySnapshot(ended as SubscriptionState, snap({ at: at("2026-12-11T00:00:00Z") }))).toBeNull();
    // …a new one does
    const again = applySnapshot(
      ended as SubscriptionState,
      snap({ subscriptionId: "sub_2", at: at("2026-12-11T00:00:00Z"), plan: "yearly" }),
    );
    expect(again).toMatchObject({ status: "active", subscriptionId: "sub_2", plan: "yearly" });
    // a checkout still under way says nothing
    expect(applySnapshot(trial, snap({ status: "incomplete" }))).toBeNull();
  });
});

describe("the access rule", () => {
  const state = (status: SubscriptionStatus, since: string) => ({
    ...startTrial(verified),
    status,
    statusSince: at(since),
    currentPeriodEnd: at("2026-12-10T00:00:00Z"),
  });

  it("trial: full until its 30th day, with the banner in its last 7 days; then limited", () => {
    const trial = startTrial(verified);
    expect(phaseOf(trial, at("2026-11-20T00:00:00Z"))).toEqual({
      phase: "trial",
      changesAt: trial.trialEndsAt,
    });
    expect(phaseOf(trial, at("2026-11-25T09:00:00Z")).phase).toBe("trial_ending");
    expect(isLimited(limitedFrom(trial), at("2026-12-02T08:59:59Z"))).toBe(false);
    expect(isLimited(limitedFrom(trial), at("2026-12-02T09:00:00Z"))).toBe(true);
    expect(phaseOf(trial, at("2026-12-03T00:00:00Z"))).toEqual({ phase: "limited", changesAt: null });
  });

  it("subscribed during the trial (ADR 085): never limited ahead of the provider's charge, no banner; cancelled, the trial's end again", () => {
    const trial = { ...startTrial(verified), subscriptionId: "sub_1", plan: "monthly" as const };
    const afterEnd = at("2026-12-02T09:00:01Z");
    expect(limitedFrom(trial)).toBeNull();
    expect(phaseOf(trial, at("2026-11-25T09:00:00Z"))).toEqual({
      phase: "trial",
      changesAt: trial.trialEndsAt,
    });
    expect(phaseOf(trial, afterEnd).phase).toBe("trial");
    expect(standingOf(trial, afterEnd)).toBe("trialing");
    const cancelled = { ...trial, cancelAtPeriodEnd: true };
    expect(limitedFrom(cancelled)).toEqual(trial.trialEndsAt);
    expect(phaseOf(cancelled, afterEnd).phase).toBe("limited");
    expect(standingOf(cancelled, afterEnd)).toBe("trial_ended");
  });

  it("a checkout keeps the trial only when it ends 49 hours ahead or more (the provider wants 48)", () => {
    const trial = startTrial(verified);
    const end = trial.trialEndsAt.getTime();
    expect(trialKeptAtCheckout(trial, new Date(end - TRIAL_KEPT_MIN_MS))).toEqual(trial.trialEndsAt);
    expect(trialKeptAtCheckout(trial, new Date(end - TRIAL_KEPT_MIN_MS + 1))).toBeNull();
    expect(trialKeptAtCheckout({ ...trial, status: "active" }, verified)).toBeNull();
  });

  it("standing: a trial whose end has passed is « trial_ended », from the very instant it limits access", () => {
    const trial = startTrial(verified);
    for (const now of [at("2026-12-02T08:59:59Z"), at("2026-12-02T09:00:00Z"), at("2027-03-01T00:00:00Z")])
      expect(standingOf(trial, now) === "trial_ended").toBe(isLimited(limitedFrom(trial), now));
    expect(standingOf(trial, at("2026-12-02T08:59:59Z"))).toBe("trialing");
    expect(standingOf(trial, at("2026-12-02T09:00:00Z"))).toBe("trial_ended");
    // Every other status is its own standing, whatever the dates.
    for (const status of SUBSCRIPTION_STATUSES.filter((s) => s !== "trialing"))
      expect(standingOf({ ...trial, status }, at("2027-03-01T00:00:00Z"))).toBe(status);
  });

  it("active: never limited ahead; its next payment is the end of the period", () => {
    const active = state("active", "2026-11-10T00:00:00Z");
    expect(limitedFrom(active)).toBeNull();
    expect(phaseOf(active, at("2027-06-01T00:00:00Z"))).toEqual({
      phase: "active",
      changesAt: at("2026-12-10T00:00:00Z"),
    });
    expect(phaseOf({ ...active, cancelAtPeriodEnd: true }, at("2026-11-20T00:00:00Z")).phase).toBe("ending");
  });

  it("past due: 14 days of grace from the failed payment, then limited", () => {
    const pastDue = state("past_due", "2026-12-10T00:00:00Z");
    expect(phaseOf(pastDue, at("2026-12-23T23:59:59Z"))).toEqual({
      phase: "past_due",
      changesAt: at("2026-12-24T00:00:00Z"),
    });
    expect(phaseOf(pastDue, at("2026-12-24T00:00:00Z")).phase).toBe("limited");
  });

  it("cancelled and unpaid: limited from then on", () => {
    for (const status of ["canceled", "unpaid"] as const) {
      const ended = state(status, "2026-12-10T00:00:00Z");
      expect(isLimited(limitedFrom(ended), at("2026-12-10T00:00:00Z"))).toBe(true);
      expect(isLimited(limitedFrom(ended), at("2026-12-09T23:59:59Z"))).toBe(false);
    }
  });
});

/** A real history of one subscription: a walk on the state machine, one event per step, in time order. */
const history = fc
  .array(fc.constantFrom<SubscriptionStatus>("active", "past_due", "unpaid", "canceled"), {
    minLength: 1,
    maxLength: 12,
  })
  .map((steps) => {
    const statuses: SubscriptionStatus[] = [];
    let current: SubscriptionStatus = "trialing";
    for (const next of steps) {
      if (!mayMove(current, next) || next === current) continue;
      statuses.push(next);
      current = next;
      if (next === "canceled") break;
    }
    if (statuses.length === 0) statuses.push("active");
    return statuses.map((status, i) => ({
      id: `evt_${i}`,
      snapshot: {
        subscriptionId: "sub_1",
        status,
        at: new Date(verified.getTime() + (i + 1) * day),
        plan: i % 2 === 0 ? ("monthly" as const) : ("yearly" as const),
        currentPeriodEnd: new Date(verified.getTime() + (i + 31) * day),
        cancelAtPeriodEnd: i % 3 === 0,
      },
    }));
  });

describe("webhook events duplicated and reordered (fast-check)", () => {
  it("the final state is the latest event's, and no event is applied twice", () => {
    fc.assert(
      fc.property(
        history.chain((events) =>
          fc.tuple(
            fc.constant(events),
            // each event delivered one to three times, in any order
            fc.shuffledSubarray(
              events.flatMap((e) => [e, e, e]),
              { minLength: events.length * 3, maxLength: events.length * 3 },
            ),
            fc.array(fc.nat({ max: 2 }), { minLength: events.length, maxLength: events.length }),
          ),
        ),
        ([events, shuffled, extra]) => {
          // keep 1 + extra[i] copies of event i (at least one delivery each)
          const left = new Map(events.map((e, i) => [e.id, 1 + (extra[i] ?? 0)]));
          const deliveries = shuffled.filter((e) => {
            const n = left.get(e.id) ?? 0;
            left.set(e.id, n - 1);
            return n > 0;
          });
          const seen = new Set<string>();
          const applied: string[] = [];
          let state = startTrial(verified);
          for (const delivery of deliveries) {
            // the event id is stored once: a duplicate is acknowledged and changes nothing
            if (seen.has(delivery.id)) continue;
            seen.add(delivery.id);
            const next = applySnapshot(state, delivery.snapshot);
            if (next) {
              applied.push(delivery.id);
              state = next;
            }
          }
          const latest = events[events.length - 1] as (typeof events)[number];
          expect(state.status).toBe(latest.snapshot.status);
          expect(state.lastEventAt).toEqual(latest.snapshot.at);
          expect(state.plan).toBe(latest.snapshot.plan);
          expect(state.cancelAtPeriodEnd).toBe(latest.snapshot.cancelAtPeriodEnd);
          expect(new Set(applied).size).toBe(applied.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
