import { type Kysely, sql } from "kysely";
import {
  PLAN_IDS,
  type PlanId,
  SUBSCRIPTION_STANDINGS,
  type SubscriptionStanding,
  type SubscriptionState,
} from "../../../shared/domain/subscription";
import type { Actor } from "../../access/actor";
import { columnsOfState, type SubscriptionRow } from "../../access/subscription";
import type { Db } from "../../db/index";
import { nameOrEmailContains } from "../../db/paging";
import type { Database } from "../../db/types";

type Tx = Kysely<Database>;

/** The actor's own subscription row, locked until the transaction ends (undefined: none). */
export function lockOwnSubscription(trx: Tx, actor: Actor) {
  return trx
    .selectFrom("subscriptions")
    .selectAll()
    .where("dentist_id", "=", actor.userId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The row a provider event is about, locked (system: the provider names it, not a person): by the
 * provider's subscription, else by the dentist the event names, else by the customer.
 */
export async function systemLockForEvent(
  trx: Tx,
  keys: { subscriptionId?: string | null; dentistId?: string | null; customerId?: string | null },
): Promise<SubscriptionRow | undefined> {
  const by = async (
    column: "subscription_id" | "dentist_id" | "customer_id",
    value: string | null | undefined,
  ) =>
    value
      ? trx.selectFrom("subscriptions").selectAll().where(column, "=", value).forUpdate().executeTakeFirst()
      : undefined;
  return (
    (await by("subscription_id", keys.subscriptionId)) ??
    (keys.dentistId && /^[0-9a-f-]{36}$/i.test(keys.dentistId)
      ? await by("dentist_id", keys.dentistId)
      : undefined) ??
    (await by("customer_id", keys.customerId))
  );
}

export async function writeState(trx: Tx, dentistId: string, state: SubscriptionState, now: Date) {
  // A change of plan asked for (ADR 096) stays while the subscription goes on towards it: not once
  // it ends or is cancelled, nor once it is on the new plan or renewed past the change's instant.
  const pending =
    state.status !== "canceled" && !state.cancelAtPeriodEnd
      ? sql<boolean>`next_plan is distinct from ${state.plan}
          and (${state.currentPeriodEnd}::timestamptz is null or ${state.currentPeriodEnd}::timestamptz <= next_plan_at)`
      : sql<boolean>`false`;
  await trx
    .updateTable("subscriptions")
    .set({
      ...columnsOfState(state, now),
      next_plan: sql<PlanId | null>`case when ${pending} then next_plan end`,
      next_plan_at: sql<Date | null>`case when ${pending} then next_plan_at end`,
    })
    .where("dentist_id", "=", dentistId)
    .execute();
}

/**
 * The change of plan asked for (ADR 096): `plan` from `at` (the paid period's end), or none (null).
 * Resolves to the row as written.
 */
export function setNextPlan(trx: Tx, dentistId: string, next: { plan: PlanId; at: Date } | null, now: Date) {
  return trx
    .updateTable("subscriptions")
    .set({ next_plan: next?.plan ?? null, next_plan_at: next?.at ?? null, updated_at: now })
    .where("dentist_id", "=", dentistId)
    .returningAll()
    .executeTakeFirst();
}

export async function setCustomer(trx: Tx, dentistId: string, customerId: string, now: Date) {
  await trx
    .updateTable("subscriptions")
    .set({ customer_id: customerId, updated_at: now })
    .where("dentist_id", "=", dentistId)
    .where("customer_id", "is", null)
    .execute();
}

/**
 * How long a checkout being opened holds its lease: longer than its provider calls can last (up to
 * four, each 20 s with two retries: provider.ts), so that it is never taken from a live one.
 */
export const CHECKOUT_LEASE_MS = 5 * 60_000;

/**
 * Takes the dentist's checkout lease (migration 045) until `now` + CHECKOUT_LEASE_MS: its end when
 * taken, undefined while another checkout of his is being opened (its lease not yet over). One
 * statement, so two at the same instant cannot both take it.
 */
export async function takeCheckoutLease(db: Db, actor: Actor, now: Date): Promise<Date | undefined> {
  const until = new Date(now.getTime() + CHECKOUT_LEASE_MS);
  const taken = await db
    .insertInto("checkout_leases")
    .values({ dentist_id: actor.userId, until })
    .onConflict((oc) =>
      oc.column("dentist_id").doUpdateSet({ until }).where("checkout_leases.until", "<=", now),
    )
    .returning("until")
    .executeTakeFirst();
  return taken ? until : undefined;
}

/** Gives the lease back, if it is still the one taken (`until`), not a later one. */
export async function releaseCheckoutLease(db: Db, actor: Actor, until: Date): Promise<void> {
  await db
    .deleteFrom("checkout_leases")
    .where("dentist_id", "=", actor.userId)
    .where("until", "=", until)
    .execute();
}

/** Stores a provider event id once: false when it was already there (a redelivery). */
export async function storeEventOnce(trx: Tx, id: string, type: string, now: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto("billing_events")
    .values({ id, type, received_at: now })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The subscriptions the reconciliation re-reads: every one the provider holds. */
export function systemProviderSubscriptions(db: Db) {
  return db
    .selectFrom("subscriptions")
    .select(["dentist_id", "subscription_id"])
    .where("subscription_id", "is not", null)
    .orderBy("dentist_id")
    .execute();
}

/** Trials ending within `days` whose e-mail has not gone yet, with the dentist's address. */
export function systemTrialsEnding(db: Db, now: Date, until: Date) {
  return db
    .selectFrom("subscriptions as s")
    .innerJoin("profiles as p", "p.id", "s.dentist_id")
    .select(["s.dentist_id", "s.trial_ends_at", "p.email", "p.first_name"])
    .where("s.status", "=", "trialing")
    .where("s.subscription_id", "is", null)
    .where("s.trial_warned_at", "is", null)
    .where("s.trial_ends_at", ">", now)
    .where("s.trial_ends_at", "<=", until)
    .where("p.erased_at", "is", null)
    .execute();
}

export async function systemMarkTrialWarned(db: Db, dentistId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("subscriptions")
    .set({ trial_warned_at: now })
    .where("dentist_id", "=", dentistId)
    .where("trial_warned_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The dentist's address and first name, for the e-mails a provider event sends. */
export function systemDentistContact(db: Db, dentistId: string) {
  return db
    .selectFrom("profiles")
    .select(["email", "first_name"])
    .where("id", "=", dentistId)
    .where("erased_at", "is", null)
    .executeTakeFirst();
}

// ─── Admin ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Counts by standing at `now` (a trial whose end has passed is « trial_ended »: nothing rewrites its
 * row), and the paying subscriptions (active, past due) by plan, for the MRR.
 */
export async function adminCounts(db: Db, now: Date) {
  const rows = await db
    .selectFrom("subscriptions")
    .select((eb) => [
      "status",
      "plan",
      sql<number>`count(*)::int`.as("n"),
      // A trial limits from its end, unless subscribed during it (ADR 085): its `limited_from`.
      sql<number>`(count(*) filter (where ${eb.ref("limited_from")} <= ${now}))::int`.as("ended"),
    ])
    .groupBy(["status", "plan"])
    .execute();
  const counts = Object.fromEntries(SUBSCRIPTION_STANDINGS.map((s) => [s, 0])) as Record<
    SubscriptionStanding,
    number
  >;
  const paying = Object.fromEntries(PLAN_IDS.map((p) => [p, 0])) as Record<PlanId, number>;
  for (const row of rows) {
    if (row.status === "trialing") {
      counts.trial_ended += row.ended;
      counts.trialing += row.n - row.ended;
    } else counts[row.status] += row.n;
    if ((row.status === "active" || row.status === "past_due") && row.plan) paying[row.plan] += row.n;
  }
  return { counts, paying };
}

/**
 * A page of the list, by standing at `now` (standingOf's rule in SQL: the trial's `limited_from`
 * compared with the bound, beside the status the index starts with).
 */
export async function adminList(
  db: Db,
  options: {
    search: string;
    status: SubscriptionStanding | "all";
    now: Date;
    offset: number;
    limit: number;
  },
) {
  let query = db
    .selectFrom("subscriptions as s")
    .innerJoin("profiles as p", "p.id", "s.dentist_id")
    .selectAll("s")
    .select(["p.full_name", "p.email"]);
  if (options.status === "trialing")
    query = query
      .where("s.status", "=", "trialing")
      .where((eb) => eb.or([eb("s.limited_from", "is", null), eb("s.limited_from", ">", options.now)]));
  else if (options.status === "trial_ended")
    query = query.where("s.status", "=", "trialing").where("s.limited_from", "<=", options.now);
  else if (options.status !== "all") query = query.where("s.status", "=", options.status);
  if (options.search) {
    query = query.where(nameOrEmailContains("p.full_name", "p.email", options.search));
  }
  return query
    .orderBy("s.updated_at", "desc")
    .orderBy("s.dentist_id")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}
