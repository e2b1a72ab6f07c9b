import { sql } from "kysely";
import {
  FIRST_OFFER_WINDOW_DAYS,
  type MeasuredFigures,
  PUBLIC_FIGURE_MIN_SAMPLE,
  roundedDownBelow,
} from "../../../shared/schemas/publicStats";
import type { Db } from "../../db/index";

/*
 * System reads for the public figures (no actor: nobody's data leaves, only counts, medians and an
 * average over many people). A figure measured on fewer than PUBLIC_FIGURE_MIN_SAMPLE cases is null.
 */

/** Patients who have sent at least one request. */
export async function systemCountPatientsWithRequest(db: Db): Promise<number> {
  const row = await db
    .selectFrom("requests")
    .select(sql<number>`count(distinct patient_id)::int`.as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const enough = (sample: number) => sample >= PUBLIC_FIGURE_MIN_SAMPLE;
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** Median hours from a request of the last FIRST_OFFER_WINDOW_DAYS days to its first offer. */
export async function systemFirstOfferDelay(
  db: Db,
  now: Date,
): Promise<MeasuredFigures["first_offer_hours"]> {
  const since = new Date(now.getTime() - FIRST_OFFER_WINDOW_DAYS * 86_400_000);
  const { rows } = await sql<{ median: number | null; sample: number }>`
    select percentile_cont(0.5) within group (order by hours)::float8 as median, count(*)::int as sample
    from (
      select extract(epoch from (min(o.created_at) - r.created_at)) / 3600 as hours
      from requests r join offers o on o.request_id = r.id
      where r.created_at >= ${since} and r.created_at <= ${now}
      group by r.id, r.created_at
    ) delays`.execute(db);
  const row = rows[0];
  if (!row || row.median === null || !enough(Number(row.sample))) return null;
  return { median: oneDecimal(Number(row.median)), sample: Number(row.sample) };
}

/**
 * Median saving of accepted offers against the devis, like with like: against the price of the devis
 * lines each offer treats (`compared_quote_cents`, written at acceptance), not the whole devis (an
 * offer for one crown of three is not two crowns saved); an offer whose devis or own lines are unknown
 * is not measured.
 */
export async function systemMedianSaving(db: Db): Promise<MeasuredFigures["saving"]> {
  const { rows } = await sql<{ cents: number | null; percent: number | null; sample: number }>`
    select
      percentile_cont(0.5) within group (order by o.compared_quote_cents - o.amount_cents)::float8 as cents,
      percentile_cont(0.5) within group (
        order by (o.compared_quote_cents - o.amount_cents)::float8 * 100 / o.compared_quote_cents
      )::float8 as percent,
      count(*)::int as sample
    from offers o
    where o.status = 'accepted' and o.compared_quote_cents is not null`.execute(db);
  const row = rows[0];
  if (!row || row.cents === null || row.percent === null || !enough(Number(row.sample))) return null;
  return {
    median_cents: Math.round(Number(row.cents)),
    median_percent: Math.round(Number(row.percent)),
    sample: Number(row.sample),
  };
}

/** Verified dentists, now (an erased one is not a dentist any more). */
export async function systemCountVerifiedDentists(db: Db): Promise<number> {
  const row = await db
    .selectFrom("profiles")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("role", "=", "dentist")
    .where("is_verified", "=", true)
    .where("erased_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The average overall mark of the reviews patients read: published, about a verified dentist (the
 * reviews of one pending or withdrawn are shown to nobody, D6). Its sample, and so the threshold,
 * counts the same reviews.
 */
export async function systemAverageRating(db: Db): Promise<MeasuredFigures["rating"]> {
  const row = await db
    .selectFrom("reviews as v")
    .innerJoin("profiles as dp", "dp.id", "v.dentist_id")
    .select([
      sql<number | null>`avg(v.rating)::float8`.as("average"),
      sql<number>`count(*)::int`.as("sample"),
    ])
    .where("v.status", "=", "published")
    .where("dp.role", "=", "dentist")
    .where("dp.is_verified", "=", true)
    .where("dp.erased_at", "is", null)
    .executeTakeFirstOrThrow();
  if (row.average === null || !enough(Number(row.sample))) return null;
  return { average: oneDecimal(Number(row.average)), sample: Number(row.sample) };
}

/** Every public figure at `now`. */
export async function systemPublicStats(db: Db, now: Date): Promise<MeasuredFigures> {
  const [patients, first_offer_hours, saving, verified_dentists, rating] = await Promise.all([
    systemCountPatientsWithRequest(db),
    systemFirstOfferDelay(db, now),
    systemMedianSaving(db),
    systemCountVerifiedDentists(db),
    systemAverageRating(db),
  ]);
  return { patients: roundedDownBelow(patients), first_offer_hours, saving, verified_dentists, rating };
}
