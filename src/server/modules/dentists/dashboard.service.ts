import { sql } from "kysely";
import type { Db } from "../../db/index";
import type { Actor } from "../../session";
import { visibleToDentist } from "../requests/requests.repo";

/** The numbers of the dentist dashboard (spec §2), all for this dentist. */
export async function dentistDashboard(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = actor.profile.role === "dentist" && actor.profile.is_verified;
  const [unread, recentMessages] = await Promise.all([
    db
      .selectFrom("messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("c.dentist_id", "=", me)
      .where("m.sender_id", "!=", me)
      .where("m.read_at", "is", null)
      .executeTakeFirstOrThrow(),
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
  if (!verified) {
    return {
      verified,
      counts: { visible: 0, answered: 0 },
      unread: unread.n,
      recentMessages,
      monthly: { received: 0, replies: 0, confirmations: 0 },
      averageResponseMinutes: null,
    };
  }
  // This month in Europe/Paris (D16).
  const monthStart = sql<Date>`(date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris')`;
  const [counts, mine] = await Promise.all([
    db
      .selectFrom("requests as r")
      .leftJoin("request_dentists as rd", (join) =>
        join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", me),
      )
      .where((eb) => visibleToDentist(eb, me))
      .select([
        sql<number>`count(*)::int`.as("visible"),
        sql<number>`count(*) filter (where rd.status in ('responded', 'confirmed'))::int`.as("answered"),
        sql<number>`count(*) filter (where r.created_at >= ${monthStart})::int`.as("received"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("request_dentists as rd")
      .innerJoin("requests as r", "r.id", "rd.request_id")
      .where("rd.dentist_id", "=", me)
      .select([
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
      .executeTakeFirstOrThrow(),
  ]);
  return {
    verified,
    counts,
    unread: unread.n,
    recentMessages,
    monthly: { received: counts.received, replies: mine.replies, confirmations: mine.confirmations },
    averageResponseMinutes: mine.average_minutes === null ? null : Math.round(Number(mine.average_minutes)),
  };
}
