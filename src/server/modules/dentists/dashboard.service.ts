import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { TreatmentType } from "../../../shared/domain/treatments";
import { type DentistTodoCount, TODO_LIMIT } from "../../../shared/schemas/dentist";
import type { Actor } from "../../access/actor";
import { conversationVisibleTo } from "../../access/objects";
import { isVerifiedDentist, mayTakeNewWork } from "../../access/rules";
import { runCompiled } from "../../db/compiled";
import type { Db } from "../../db/index";
import { isoOf } from "../../db/iso";
import { conversationsRepo } from "../conversations/conversations.repo";
import { dentistRequestsRepo, pageOf } from "./dentists.repo";

/**
 * The dentist menu's counters, in one select. The requests he still has to answer: the open requests
 * he sees (tallies kept by triggers, migration 013: a request settled — accepted, completed,
 * cancelled — is not open, so not counted) minus those he answered and those he set aside (migration
 * 055), two index lookups whatever the number of requests. The appointments waiting for his
 * confirmation (the dashboard's « Rendez-vous à confirmer »), served by the live appointments' index.
 * None before he is verified (D6).
 */
export async function dentistTodoCount(db: Db, actor: Actor): Promise<DentistTodoCount> {
  if (!isVerifiedDentist(actor.profile)) return { requests: 0, appointments: 0 };
  const row = await toAnswerCounts(db, actor.userId)
    .select((eb) =>
      eb
        .selectFrom("appointments as ap")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("ap.dentist_id", "=", actor.userId)
        .where("ap.status", "=", "pending")
        .where("ap.awaiting", "=", "dentist")
        .as("appointments"),
    )
    .executeTakeFirstOrThrow();
  return {
    // A lapsed subscription has no request to answer (issue 35); his appointments stay his to confirm.
    requests: mayTakeNewWork(actor) ? stillToAnswer(row.visible, row) : 0,
    appointments: Number(row.appointments ?? 0),
  };
}

/** The open requests he sees less those he answered or set aside. */
const stillToAnswer = (visible: number, own: { answered: number; set_aside: number }) =>
  Math.max(0, visible - own.answered - own.set_aside);

/** The counts of the requests to answer (visible open requests, those answered, those set aside), as one select. */
function toAnswerCounts(db: Db, me: string) {
  return db
    .selectFrom([
      db
        .selectFrom("request_tallies")
        .select(sql<number>`coalesce(sum(requests), 0)::int`.as("visible"))
        .where("audience", "in", ["all", me])
        .as("t"),
      // His rows answered or set aside on requests still open to him, kept by the database
      // (migrations 041 and 055).
      ownTalliesOf(db, me).as("a"),
    ])
    .select(["t.visible", "a.answered", "a.set_aside"]);
}

/**
 * His rows answered (responded or confirmed), and his rows still pending that he set aside, on
 * requests still open to him, kept by the database (migrations 041, 055); one row, 0 when he has none.
 */
function ownTalliesOf(db: Db, me: string) {
  return db
    .selectFrom("dentist_tallies as d")
    .select([
      sql<number>`coalesce(max(d.answered), 0)::int`.as("answered"),
      sql<number>`coalesce(max(d.set_aside), 0)::int`.as("set_aside"),
    ])
    .where("d.dentist_id", "=", me);
}

/** Its lists' dates come as JSON text (db/iso.ts). */
const iso = isoOf;

/** A list inside the dashboard's query: its rows as a JSON array (none when there is no query). */
const arrayOf = <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O> | null): RawBuilder<O[]> =>
  query ? (jsonArrayFrom(query) as unknown as RawBuilder<O[]>) : sql<O[]>`'[]'::json`;

/**
 * The whole dashboard of a dentist in one round trip (issue 38): its numbers, the five latest
 * requests, the "À faire" (issue 16: requests to answer, appointments waiting for this dentist's
 * confirmation, conversations with unread messages) and the latest messages, each part the query it
 * was on its own, here a column of one select (lists as JSON arrays). Everything bound to this dentist.
 */
export async function dentistDashboardScreen(db: Db, actor: Actor) {
  const verified = isVerifiedDentist(actor.profile);
  // Built and compiled once per kind of dentist (db/compiled.ts): only his id varies.
  const shape = `dentist-dashboard:${actor.profile.role}:${verified}:${actor.limited === true}`;
  // Its generic plan: planned again on each call, it cost more than it ran at 100 000 requests.
  const [row] = await runCompiled(
    db,
    shape,
    { me: actor.userId },
    ({ me }) => dashboardQuery(db, { ...actor, userId: me }),
    { genericPlan: true },
  );
  if (!row) throw new Error("tableau de bord : aucune ligne");
  const conversations = conversationsRepo(db, actor);
  const numbers = row.numbers as DashboardNumbers;
  const counts = row.counts as { appointments: number; conversations: number };
  const recent = pageOf(row.recent, 5).items;
  const toAnswer = pageOf(row.to_answer, TODO_LIMIT).items;
  const recentMessages = conversations
    .pageOf(row.messages, TODO_LIMIT)
    .items.filter((c) => c.last_message !== null)
    .map((c) => ({
      id: c.id,
      conversation_id: c.id,
      patient_name: c.other.full_name,
      body: c.last_message?.body || (c.last_message?.attachment_count ? "Pièce jointe" : ""),
      created_at: c.last_message?.created_at ?? c.last_message_at,
      read: c.unread_count === 0,
      from_me: c.last_message?.from_me ?? false,
    }));
  const visible = mayTakeNewWork(actor) ? (numbers.visible ?? 0) : 0;
  const answered = numbers.answered ?? 0;
  // A dentist whose subscription lapsed has no open request to answer (issue 35): visible is 0.
  const toAnswerCount = stillToAnswer(visible, { answered, set_aside: numbers.set_aside ?? 0 });
  const averageMinutes = numbers.average_minutes ?? null;
  return {
    verified,
    todo: {
      requests: { count: toAnswerCount, items: toAnswer },
      appointments: {
        count: counts.appointments,
        items: row.appointments.map((a) => ({
          id: a.id,
          request_id: a.request_id,
          patient_name: a.patient_name || "Patient",
          treatment_type: a.treatment_type as TreatmentType,
          first_option: a.first_option ? iso(a.first_option) : null,
          options_count: Number(a.options_count ?? 0),
          created_at: iso(a.created_at),
        })),
      },
      conversations: {
        count: counts.conversations,
        items: row.unread.map((c) => ({
          id: c.id,
          patient_name: c.patient_name || "Patient",
          treatment_type: c.treatment_type as TreatmentType,
          last_message_at: iso(c.last_message_at),
          unread_count: c.unread_count ?? 0,
        })),
      },
    },
    // None open to him (unverified, lapsed, or none at all): no rate rather than 0 %.
    response_rate: visible === 0 ? null : Math.round((100 * answered) / visible),
    unread_messages: numbers.unread,
    recent_requests: recent,
    recent_messages: recentMessages,
    monthly: {
      received: numbers.received ?? 0,
      replies: numbers.replies ?? 0,
      confirmations: numbers.confirmations ?? 0,
    },
    average_response_minutes: averageMinutes === null ? null : Math.round(Number(averageMinutes)),
  };
}

/**
 * The dashboard's one select: each part the query it was on its own, here a column (lists as JSON
 * arrays), everything bound to this dentist.
 */
function dashboardQuery(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = isVerifiedDentist(actor.profile);
  const requests = dentistRequestsRepo(db, actor);
  const conversations = conversationsRepo(db, actor);
  const recentQuery = requests.listQuery({ search: "", status: "all", page: 1, pageSize: 5 });
  const toAnswerQuery = requests.listQuery({ search: "", status: "pending", page: 1, pageSize: TODO_LIMIT });
  const messagesQuery = conversations.listQuery({ search: "", limit: TODO_LIMIT });
  const pendingAppointments = db
    .selectFrom("appointments as a")
    .where("a.dentist_id", "=", me)
    .where("a.status", "=", "pending")
    .where("a.awaiting", "=", "dentist");
  // His conversations (none before he is verified, D6).
  const unreadConversations = db
    .selectFrom("conversations as c")
    .where((eb) => conversationVisibleTo(eb, actor))
    // His unread messages, kept on the conversation by the messages' triggers (migration 038).
    .where("c.dentist_unread", ">", 0);
  const unreadCount = unreadConversations.select(sql<number>`count(*)::int`.as("n"));
  // The requests to answer are the numbers' visible minus answered and set aside (the same counts as
  // the menu's, dentistTodoCount), made below from them rather than counted twice.
  const todoCounts = verified
    ? db
        .selectFrom([
          pendingAppointments.select(sql<number>`count(*)::int`.as("n")).as("ap"),
          unreadCount.as("uc"),
        ])
        .select(["ap.n as appointments", "uc.n as conversations"])
    : db
        .selectFrom(unreadCount.as("uc"))
        .select([sql<number>`0`.as("appointments"), "uc.n as conversations"]);
  const appointmentsQuery = verified
    ? pendingAppointments
        .innerJoin("requests as r", "r.id", "a.request_id")
        .innerJoin("profiles as p", "p.id", "a.patient_id")
        .select((eb) => [
          "a.id",
          "a.request_id",
          "a.created_at",
          "r.treatment_type",
          "p.full_name as patient_name",
          eb
            .selectFrom("appointment_options as o")
            .select(sql<Date | null>`min(o.starts_at)`.as("first"))
            .whereRef("o.appointment_id", "=", "a.id")
            .as("first_option"),
          eb
            .selectFrom("appointment_options as o")
            .select(sql<number>`count(*)::int`.as("n"))
            .whereRef("o.appointment_id", "=", "a.id")
            .as("options_count"),
        ])
        .orderBy("a.created_at", "asc")
        .orderBy("a.id", "asc")
        .limit(TODO_LIMIT)
    : null;
  const unreadQuery = unreadConversations
    .innerJoin("requests as r", "r.id", "c.request_id")
    .innerJoin("profiles as p", "p.id", "c.patient_id")
    .select([
      "c.id",
      "c.last_message_at",
      "r.treatment_type",
      "p.full_name as patient_name",
      "c.dentist_unread as unread_count",
    ])
    .orderBy("c.last_message_at", "desc")
    .orderBy("c.id", "desc")
    .limit(TODO_LIMIT);
  return db.selectNoFrom(() => [
    jsonObjectFrom(dashboardNumbers(db, actor)).as("numbers"),
    jsonObjectFrom(todoCounts).as("counts"),
    arrayOf(recentQuery).as("recent"),
    arrayOf(toAnswerQuery).as("to_answer"),
    arrayOf(appointmentsQuery).as("appointments"),
    jsonArrayFrom(unreadQuery).as("unread"),
    jsonArrayFrom(messagesQuery).as("messages"),
  ]);
}

type DashboardNumbers = { unread: number } & Partial<{
  visible: number;
  received: number;
  answered: number;
  set_aside: number;
  replies: number;
  confirmations: number;
  average_minutes: number | null;
}>;

/**
 * The numbers of the dentist dashboard, all for this dentist, whatever the number of requests: the
 * visible count is a sum over request_tallies (kept by triggers, migration 008), this month's
 * received one over request_month_tallies (migration 065),
 * his answered rows, replies and confirmations read from dentist_tallies and dentist_month_tallies
 * (kept by triggers, migration 041), his unread messages from his conversations (migration 038); only
 * the 30-day average response time reads his rows (those replied to in the last 30 days, each with
 * its response time kept by a trigger, migration 042). One row.
 */
function dashboardNumbers(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = isVerifiedDentist(actor.profile);
  // This month in Europe/Paris, where the product's dates are shown. Each bound is a sub-select:
  // computed once per execution, not once per row (a prepared statement's generic plan evaluated
  // the time zone conversions for every row it counted: 12 ms of 20 at 100 000 requests).
  const month = sql<string>`(select date_trunc('month', now() at time zone 'Europe/Paris')::date)`;
  const thirtyDaysAgo = sql<Date>`(select now() - interval '30 days')`;
  // His unread messages: the counts the messages' triggers keep on his conversations (migration 038).
  const unread = db
    .selectFrom("conversations as c")
    .select(sql<number>`coalesce(sum(c.dentist_unread), 0)::int`.as("unread"))
    .where((eb) => conversationVisibleTo(eb, actor));
  // Open requests (sent to every verified dentist or to me, new or in review).
  const tallies = db
    .selectFrom("request_tallies")
    .select(sql<number>`coalesce(sum(requests), 0)::int`.as("visible"))
    .where("audience", "in", ["all", me]);
  // Received this month (sent to all or to me), whatever became of them since, but withdrawn ones
  // (migration 065): an accepted offer no longer takes one off.
  const received = db
    .selectFrom("request_month_tallies")
    .select(sql<number>`coalesce(sum(received), 0)::int`.as("received"))
    .where("audience", "in", ["all", me])
    .where("month", ">=", month);
  // My own rows: answered (among the open requests), this month's replies and confirmations, kept
  // by the database (migration 041: triggers on request_dentists and requests), and the average
  // response time over the last 30 days, from the rows replied to since (their response times kept
  // on them, migration 042, in an index on replied_at).
  const months = db
    .selectFrom("dentist_month_tallies as m")
    .select([
      sql<number>`coalesce(sum(m.replies), 0)::int`.as("replies"),
      sql<number>`coalesce(sum(m.confirmations), 0)::int`.as("confirmations"),
    ])
    .where("m.dentist_id", "=", me)
    .where("m.month", ">=", month);
  // Each row's response time kept on it by the database (migration 042), carried by the index on
  // his replied rows: the last 30 days' entries of that index, no request read.
  const average = db
    .selectFrom("request_dentists as rd")
    .select(sql<number | null>`(avg(rd.response_seconds) / 60)::float8`.as("average_minutes"))
    .where("rd.dentist_id", "=", me)
    .where("rd.replied_at", ">=", thirtyDaysAgo);
  return verified
    ? db
        .selectFrom([
          unread.as("u"),
          tallies.as("t"),
          received.as("r"),
          ownTalliesOf(db, me).as("a"),
          months.as("m"),
          average.as("v"),
        ])
        .selectAll(["u", "t", "r", "a", "m", "v"])
    : db.selectFrom(unread.as("u")).selectAll("u");
}
