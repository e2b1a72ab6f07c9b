import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import {
  isLimited,
  limitedFrom,
  phaseOf,
  type SubscriptionState,
  startTrial,
} from "../../shared/domain/subscription";
import type { SubscriptionSummary } from "../../shared/schemas/billing";
import type { Database, SubscriptionsTable } from "../db/types";

/**
 * A dentist's subscription as the access wing reads it (issue 35, ADR 044), beside "verified": the
 * row (migration 033), what it lets him do now, and the trial a verification starts. The billing
 * module writes the row from the provider's events; everything that decides access reads it here.
 */
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/**
 * SQL: the dentist of this `profiles` row takes new requests at `now` — no subscription row limits
 * him (its `limited_from` passed). The twin of the actor's `limited` for dentists other than the
 * actor: whom a patient may address a request to.
 */
export function takingNewRequests(eb: ExpressionBuilder<Database, "profiles">, now: Date) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom("subscriptions as s")
        .select(sql.lit(1).as("one"))
        .whereRef("s.dentist_id", "=", "profiles.id")
        .where("s.limited_from", "<=", now),
    ),
  );
}

/**
 * SQL: the `profiles` row is a dentist a patient may address a request to at `now`, and whom a
 * request addressed to him reaches: verified (D6) and taking new requests (issue 35).
 */
export function addressableDentist(eb: ExpressionBuilder<Database, "profiles">, now: Date) {
  return eb.and([
    eb("profiles.role", "=", "dentist"),
    eb("profiles.is_verified", "=", true),
    takingNewRequests(eb, now),
  ]);
}

/** The row's state in the domain's terms. */
export function stateOfRow(row: SubscriptionRow): SubscriptionState {
  return {
    status: row.status,
    statusSince: new Date(row.status_since),
    trialEndsAt: new Date(row.trial_ends_at),
    plan: row.plan,
    subscriptionId: row.subscription_id,
    currentPeriodEnd: row.current_period_end ? new Date(row.current_period_end) : null,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    lastEventAt: row.last_event_at ? new Date(row.last_event_at) : null,
  };
}

/** The columns a state is written with, `limited_from` computed by the domain's rule. */
export function columnsOfState(state: SubscriptionState, now: Date) {
  return {
    status: state.status,
    status_since: state.statusSince,
    trial_ends_at: state.trialEndsAt,
    limited_from: limitedFrom(state),
    plan: state.plan,
    subscription_id: state.subscriptionId,
    current_period_end: state.currentPeriodEnd,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    last_event_at: state.lastEventAt,
    updated_at: now,
  };
}

/**
 * The 30-day trial a verification starts (no card asked), in the verification's transaction; a
 * dentist verified again keeps the subscription he has.
 */
export async function startTrialOnVerification(db: Kysely<Database>, dentistId: string, verifiedAt: Date) {
  await db
    .insertInto("subscriptions")
    .values({
      dentist_id: dentistId,
      ...columnsOfState(startTrial(verifiedAt), verifiedAt),
      created_at: verifiedAt,
    })
    .onConflict((oc) => oc.column("dentist_id").doNothing())
    .execute();
}

export function findSubscription(db: Kysely<Database>, dentistId: string) {
  return db.selectFrom("subscriptions").selectAll().where("dentist_id", "=", dentistId).executeTakeFirst();
}

/** What the dentist's screens and /api/me show: state, phase, whether he is limited, the next date. */
export function summaryOf(row: SubscriptionRow, now: Date): SubscriptionSummary {
  const state = stateOfRow(row);
  const { phase, changesAt } = phaseOf(state, now);
  return {
    status: state.status,
    phase,
    limited: isLimited(limitedFrom(state), now),
    changes_at: changesAt?.toISOString() ?? null,
    trial_ends_at: state.trialEndsAt.toISOString(),
    plan: state.plan,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    current_period_end: state.currentPeriodEnd?.toISOString() ?? null,
    has_provider_subscription: state.subscriptionId !== null && state.status !== "canceled",
    next_plan:
      row.next_plan && row.next_plan_at
        ? { plan: row.next_plan, starts_at: new Date(row.next_plan_at).toISOString() }
        : null,
  };
}

/** The dentist's summary, or null (not a dentist, not verified yet: no subscription). */
export async function subscriptionSummaryOf(
  db: Kysely<Database>,
  dentistId: string,
  now: Date,
): Promise<SubscriptionSummary | null> {
  const row = await findSubscription(db, dentistId);
  return row ? summaryOf(row, now) : null;
}
