import { sql } from "kysely";
import type { Actor } from "../../access/actor";
import { requestOpenToDentist } from "../../access/requests";
import { isVerifiedDentist } from "../../access/rules";
import type { Db } from "../../db/index";

/**
 * The numbers of the dentist dashboard (spec §2), all for this dentist, in two queries whatever the
 * number of requests: the visible and this month's counts are sums over request_tallies (kept by
 * triggers, migration 008); the rest comes from this dentist's own rows and conversations.
 */
export async function dentistDashboard(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = isVerifiedDentist(actor.profile);
  // This month in Europe/Paris (D16).
  const monthStart = sql<Date>`(date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris')`;
  const month = sql<string>`date_trunc('month', now() at time zone 'Europe/Paris')::date`;
  const unread = db
    .selectFrom("messages as m")
    .innerJoin("conversations as c", "c.id", "m.conversation_id")
    .select(sql<number>`count(*)::int`.as("unread"))
    .where("c.dentist_id", "=", me)
    .where("m.sender_id", "!=", me)
    .where("m.read_at", "is", null);
  // Open requests (sent to every verified dentist or to me, new or in review) and received this month.
  const tallies = db
    .selectFrom("request_tallies")
    .select([
      sql<number>`coalesce(sum(requests), 0)::int`.as("visible"),
      sql<number>`coalesce(sum(requests) filter (where month >= ${month}), 0)::int`.as("received"),
    ])
    .where("audience", "in", ["all", me]);
  // My own rows: answered (among the open requests), this month's replies and confirmations,
  // and the average response time over the last 30 days.
  const mine = db
    .selectFrom("request_dentists as rd")
    .innerJoin("requests as r", "r.id", "rd.request_id")
    .select((eb) => [
      eb
        .cast<number>(
          eb.fn
            .countAll()
            .filterWhere((eb) =>
              eb.and([eb("rd.status", "in", ["responded", "confirmed"]), requestOpenToDentist(eb, me)]),
            ),
          "integer",
        )
        .as("answered"),
      sql<number>`count(*) filter (where rd.replied_at >= ${monthStart})::int`.as("replies"),
      sql<number>`count(*) filter (where rd.status = 'confirmed' and rd.updated_at >= ${monthStart})::int`.as(
        "confirmations",
      ),
      sql<
        number | null
      >`(avg(extract(epoch from (rd.replied_at - r.created_at))) filter (where rd.replied_at >= now() - interval '30 days') / 60)::float8`.as(
        "average_minutes",
      ),
    ])
    .where("rd.dentist_id", "=", me)
    // Only the rows these numbers count (not those merely opened).
    .where((eb) => eb.or([eb("rd.status", "!=", "pending"), eb("rd.replied_at", "is not", null)]));
  const [row, recentMessages] = await Promise.all([
    (verified
      ? db.selectFrom([unread.as("u"), tallies.as("t"), mine.as("a")]).selectAll(["u", "t", "a"])
      : db.selectFrom(unread.as("u")).selectAll("u")
    ).executeTakeFirstOrThrow() as Promise<
      { unread: number } & Partial<{
        visible: number;
        received: number;
        answered: number;
        replies: number;
        confirmations: number;
        average_minutes: number | null;
      }>
    >,
    db
      .selectFrom("messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .innerJoin("profiles as p", "p.id", "c.patient_id")
      .select([
        "m.id",
        "m.conversation_id",
        "p.full_name as patient_name",
        "m.body",
        "m.created_at",
        "m.read_at",
      ])
      .where("c.dentist_id", "=", me)
      .where("m.sender_id", "!=", me)
      .orderBy("m.created_at", "desc")
      .limit(5)
      .execute(),
  ]);
  const averageMinutes = row.average_minutes ?? null;
  return {
    verified,
    counts: { visible: row.visible ?? 0, answered: row.answered ?? 0 },
    unread: row.unread,
    recentMessages,
    monthly: {
      received: row.received ?? 0,
      replies: row.replies ?? 0,
      confirmations: row.confirmations ?? 0,
    },
    averageResponseMinutes: averageMinutes === null ? null : Math.round(Number(averageMinutes)),
  };
}
