import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableChange } from "../realtime/bus";
import { createTestContext, type TestContext } from "../testing/harness";
import { api, dentist, patient, type Who } from "../testing/people";
import * as m055 from "./migrations/055_requests_set_aside";

/*
 * The dentist dashboard's own figures, kept by the database (migration 041, issue 38, ADR 057
 * addendum): his rows answered on requests still open to him, and per month in Europe/Paris his
 * replies and confirmations, whoever writes `request_dentists` and `requests` (here an operator's
 * SQL: inserts, updates, deletes, a truncate; and the API's replies), equal at every commit to a
 * recount; the dashboard's numbers equal to what its statement counted before over his rows; and the
 * tallies' own writes notify nobody.
 */

let ctx: TestContext;
let alice: Who;
let drMartin: Who;
let drLeroy: Who;
const seen: TableChange[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await patient(ctx.app);
  drMartin = await dentist(ctx.app);
  drLeroy = await dentist(ctx.app);
  await ctx.app.bus.listening();
  ctx.app.bus.onTableChange((change) => seen.push(change));
});
afterAll(async () => {
  await ctx?.close();
});

const newRequest = async (status: string, recipient: string | null = null) =>
  (
    await ctx.app.db
      .insertInto("requests")
      .values({
        patient_id: alice.id,
        treatment_type: "crown",
        urgency: "low",
        status,
        recipient_dentist_id: recipient,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;

/** Every replied row's kept response time equal to its reply's time from its request's creation. */
async function expectResponseTimesKept() {
  const { rows } = await sql<{ wrong: number; replied: number }>`
    select count(*) filter (where rd.response_seconds is distinct from
        extract(epoch from (rd.replied_at - r.created_at)))::int as wrong,
      count(*) filter (where rd.replied_at is not null)::int as replied
    from request_dentists rd join requests r on r.id = rd.request_id`.execute(ctx.app.db);
  expect(rows[0]?.wrong).toBe(0);
  expect(rows[0]?.replied).toBeGreaterThan(0);
}

interface Tallies {
  answered: number;
  months: { month: string; replies: number; confirmations: number }[];
}

/** A dentist's kept tallies. */
async function kept(dentistId: string): Promise<Tallies> {
  const answered = await ctx.app.db
    .selectFrom("dentist_tallies")
    .select("answered")
    .where("dentist_id", "=", dentistId)
    .executeTakeFirst();
  const months = await ctx.app.db
    .selectFrom("dentist_month_tallies")
    .select(["month", "replies", "confirmations"])
    .where("dentist_id", "=", dentistId)
    .orderBy("month")
    .execute();
  return { answered: answered?.answered ?? 0, months: months.map((m) => ({ ...m, month: String(m.month) })) };
}

/** The same figures counted from his rows, as the dashboard counted them before migration 041. */
async function counted(dentistId: string): Promise<Tallies> {
  const { rows: answered } = await sql<{ answered: number }>`
    select count(*)::int as answered from request_dentists rd join requests r on r.id = rd.request_id
    where rd.dentist_id = ${dentistId} and rd.status in ('responded', 'confirmed')
      and r.status in ('new', 'in_review')
      and (r.recipient_dentist_id is null or r.recipient_dentist_id = ${dentistId})`.execute(ctx.app.db);
  const { rows: months } = await sql<{ month: string; replies: number; confirmations: number }>`
    select month::text, sum(replies)::int as replies, sum(confirmations)::int as confirmations from (
      select date_trunc('month', replied_at at time zone 'Europe/Paris')::date as month, 1 as replies, 0 as confirmations
      from request_dentists where dentist_id = ${dentistId} and replied_at is not null
      union all
      select date_trunc('month', updated_at at time zone 'Europe/Paris')::date, 0, 1
      from request_dentists where dentist_id = ${dentistId} and status = 'confirmed'
    ) x group by month order by month`.execute(ctx.app.db);
  return { answered: answered[0]?.answered ?? 0, months };
}

async function expectKeptEqualsCounted(dentistId: string): Promise<Tallies> {
  const figures = await kept(dentistId);
  expect(figures).toEqual(await counted(dentistId));
  return figures;
}

const row = (
  requestId: string,
  dentistId: string,
  status: string,
  repliedAt: string | null,
  updatedAt: string,
) =>
  sql`insert into request_dentists (request_id, dentist_id, status, replied_at, updated_at)
      values (${requestId}, ${dentistId}, ${status}, ${repliedAt}, ${updatedAt})`.execute(ctx.app.db);

describe("a dentist's tallies kept by the database (migration 041)", () => {
  it("count his rows by month in Paris, through inserts, updates and deletes in SQL (a worked example)", async () => {
    const a = await newRequest("in_review");
    const b = await newRequest("new");
    const c = await newRequest("in_review", drMartin.id);
    // 31 October 2026, 23:30 in Paris (winter time since the 25th, UTC+1): October.
    await row(a, drMartin.id, "responded", "2026-10-31T22:30:00Z", "2026-10-31T22:30:00Z");
    // 1 November 2026, 00:30 in Paris: November; confirmed on 1 December, 00:00 in Paris: December.
    await row(b, drMartin.id, "confirmed", "2026-10-31T23:30:00Z", "2026-11-30T23:00:00Z");
    // Opened, not answered: counted nowhere.
    await row(c, drMartin.id, "pending", null, "2026-11-02T10:00:00Z");
    // Another dentist's row on the same request: his own tallies.
    await row(a, drLeroy.id, "responded", "2026-11-15T10:00:00Z", "2026-11-15T10:00:00Z");
    expect(await expectKeptEqualsCounted(drMartin.id)).toEqual({
      answered: 2,
      months: [
        { month: "2026-10-01", replies: 1, confirmations: 0 },
        { month: "2026-11-01", replies: 1, confirmations: 0 },
        { month: "2026-12-01", replies: 0, confirmations: 1 },
      ],
    });
    expect(await expectKeptEqualsCounted(drLeroy.id)).toEqual({
      answered: 1,
      months: [{ month: "2026-11-01", replies: 1, confirmations: 0 }],
    });

    // He answers the request sent to him by name.
    await sql`update request_dentists set status = 'responded', replied_at = '2026-11-02T11:00:00Z'
      where request_id = ${c} and dentist_id = ${drMartin.id}`.execute(ctx.app.db);
    expect((await expectKeptEqualsCounted(drMartin.id)).answered).toBe(3);
    // The request is accepted: no longer open, no longer counted as answered.
    await sql`update requests set status = 'accepted' where id = ${b}`.execute(ctx.app.db);
    expect((await expectKeptEqualsCounted(drMartin.id)).answered).toBe(2);
    // Sent by name to Dr Leroy: no longer open to Dr Martin, now open to Dr Leroy alone.
    await sql`update requests set recipient_dentist_id = ${drLeroy.id} where id = ${a}`.execute(ctx.app.db);
    expect((await expectKeptEqualsCounted(drMartin.id)).answered).toBe(1);
    expect((await expectKeptEqualsCounted(drLeroy.id)).answered).toBe(1);
    await sql`update requests set recipient_dentist_id = null where id = ${a}`.execute(ctx.app.db);
    expect((await expectKeptEqualsCounted(drMartin.id)).answered).toBe(2);
    // Back to responded: his December confirmation goes, and its month with it.
    await sql`update request_dentists set status = 'responded' where request_id = ${b} and dentist_id = ${drMartin.id}`.execute(
      ctx.app.db,
    );
    expect((await expectKeptEqualsCounted(drMartin.id)).months.map((m) => m.month)).toEqual([
      "2026-10-01",
      "2026-11-01",
    ]);
    // A row moved to another request, then deleted.
    const moved = await newRequest("accepted");
    await sql`update request_dentists set request_id = ${moved} where request_id = ${c} and dentist_id = ${drMartin.id}`.execute(
      ctx.app.db,
    );
    expect((await expectKeptEqualsCounted(drMartin.id)).answered).toBe(1);
    await sql`delete from request_dentists where request_id = ${a} and dentist_id = ${drMartin.id}`.execute(
      ctx.app.db,
    );
    await expectKeptEqualsCounted(drMartin.id);
    // A request deleted: its rows go in cascade, and his tallies with them.
    await sql`delete from requests where id = ${a}`.execute(ctx.app.db);
    expect(await expectKeptEqualsCounted(drLeroy.id)).toEqual({ answered: 0, months: [] });
    await expectKeptEqualsCounted(drMartin.id);
  });

  it("leave a row's other writes (opened, a timestamp of an unconfirmed row) uncounted and the tallies untouched", async () => {
    const d = await newRequest("in_review");
    await row(d, drLeroy.id, "responded", "2026-11-20T10:00:00Z", "2026-11-20T10:00:00Z");
    const before = await ctx.app.db
      .selectFrom("dentist_tallies")
      .select(sql<string>`xmin::text`.as("version"))
      .where("dentist_id", "=", drLeroy.id)
      .executeTakeFirstOrThrow();
    await sql`update request_dentists set opened_at = now(), updated_at = now()
      where request_id = ${d} and dentist_id = ${drLeroy.id}`.execute(ctx.app.db);
    const after = await ctx.app.db
      .selectFrom("dentist_tallies")
      .select(sql<string>`xmin::text`.as("version"))
      .where("dentist_id", "=", drLeroy.id)
      .executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version);
    await expectKeptEqualsCounted(drLeroy.id);
  });

  it("notify nobody of their own writes: a row's write tells its dentist and patient, as before", async () => {
    const e = await newRequest("in_review");
    await ctx.app.bus.sync();
    seen.length = 0;
    await row(e, drLeroy.id, "responded", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z");
    await ctx.app.bus.sync();
    const tables = [...new Set(seen.map((change) => change.table))].sort();
    expect(tables).toEqual(["request_dentists"]);
    expect([...new Set(seen.flatMap((change) => change.userIds ?? ["*"]))].sort()).toEqual(
      [alice.id, drLeroy.id].sort(),
    );
    // The tallies changed, silently.
    expect((await expectKeptEqualsCounted(drLeroy.id)).answered).toBeGreaterThan(0);
  });

  it("give the dashboard the numbers its statement counted over his rows before, month boundary included", async () => {
    const { get, post } = api(ctx);
    const drNoel = await dentist(ctx.app);
    /** The dashboard's numbers as its one statement counted them over his rows before migration 041. */
    const before = async () => {
      const { rows } = await sql<{
        answered: number;
        replies: number;
        confirmations: number;
        average_minutes: number | null;
      }>`
        select
          count(*) filter (where rd.status in ('responded', 'confirmed') and r.status in ('new', 'in_review')
            and (r.recipient_dentist_id is null or r.recipient_dentist_id = ${drNoel.id}))::int as answered,
          count(*) filter (where rd.replied_at >= (select date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris'))::int as replies,
          count(*) filter (where rd.status = 'confirmed' and rd.updated_at >= (select date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris'))::int as confirmations,
          (avg(extract(epoch from (rd.replied_at - r.created_at))) filter (where rd.replied_at >= (select now() - interval '30 days')) / 60)::float8 as average_minutes
        from request_dentists rd join requests r on r.id = rd.request_id
        where rd.dentist_id = ${drNoel.id} and (rd.status <> 'pending' or rd.replied_at is not null)`.execute(
        ctx.app.db,
      );
      const numbers = rows[0];
      if (!numbers) throw new Error("aucune ligne");
      const visible = await sql<{ visible: number }>`
        select coalesce(sum(requests), 0)::int as visible from request_tallies where audience in ('all', ${drNoel.id})`.execute(
        ctx.app.db,
      );
      const open = visible.rows[0]?.visible ?? 0;
      return {
        pending_count: Math.max(0, open - numbers.answered),
        response_rate: open === 0 ? null : Math.round((100 * numbers.answered) / open),
        monthly_replies: numbers.replies,
        monthly_confirmations: numbers.confirmations,
        average_response_minutes:
          numbers.average_minutes === null ? null : Math.round(Number(numbers.average_minutes)),
      };
    };
    const now = async () => {
      const dashboard = (await get("/api/dentist/dashboard", drNoel)).json();
      const badge = (await get("/api/dentist/todo-count", drNoel)).json();
      return {
        numbers: {
          pending_count: dashboard.todo.requests.count,
          response_rate: dashboard.response_rate,
          monthly_replies: dashboard.monthly.replies,
          monthly_confirmations: dashboard.monthly.confirmations,
          average_response_minutes: dashboard.average_response_minutes,
        },
        badge,
      };
    };
    const same = async () => {
      const expected = await before();
      const { numbers, badge } = await now();
      expect(numbers).toEqual(expected);
      // No appointment in this test: 0 to confirm.
      expect(badge).toEqual({ requests: expected.pending_count, appointments: 0 });
      return numbers;
    };
    const empty = await same();
    expect(empty.monthly_replies).toBe(0);

    // Through the API: two replies now.
    const f = await newRequest("in_review");
    const g = await newRequest("new", drNoel.id);
    for (const id of [f, g])
      expect(
        (await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, drNoel)).statusCode,
      ).toBe(201);
    const replied = await same();
    expect(replied.monthly_replies).toBe(empty.monthly_replies + 2);
    expect(replied.average_response_minutes).toBe(0);

    // The month's first midnight in Paris: a reply one second before it is last month's, one at it this month's.
    const h = await newRequest("in_review");
    const i = await newRequest("in_review");
    await sql`insert into request_dentists (request_id, dentist_id, status, replied_at, updated_at)
      select x.id, ${drNoel.id}, 'confirmed', x.at, x.at from (values
        (${h}::uuid, (date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris') - interval '1 second'),
        (${i}::uuid, date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris')
      ) as x(id, at)`.execute(ctx.app.db);
    const boundary = await same();
    expect(boundary.monthly_replies).toBe(replied.monthly_replies + 1);
    expect(boundary.monthly_confirmations).toBe(replied.monthly_confirmations + 1);

    // A request accepted, another cancelled: fewer answered, as before.
    await sql`update requests set status = 'accepted' where id = ${f}`.execute(ctx.app.db);
    await sql`update requests set status = 'cancelled' where id = ${h}`.execute(ctx.app.db);
    await same();
    await expectKeptEqualsCounted(drNoel.id);

    // The 30-day average from the response times kept on his rows (migration 042): replies 29 and
    // 31 days ago to requests made hours before (microseconds included), a request's creation moved,
    // a reply moved, a response time written by hand; the same average as over his rows joined to
    // their requests, and each kept time equal to its row's.
    const j = await newRequest("in_review");
    const k = await newRequest("in_review");
    await sql`update requests set created_at = now() - interval '29 days 7 hours 13 minutes 0.000123 seconds'
      where id = ${j}`.execute(ctx.app.db);
    await sql`update requests set created_at = now() - interval '33 days' where id = ${k}`.execute(
      ctx.app.db,
    );
    await sql`insert into request_dentists (request_id, dentist_id, status, replied_at, updated_at)
      values (${j}, ${drNoel.id}, 'responded', now() - interval '29 days', now()),
        (${k}, ${drNoel.id}, 'responded', now() - interval '31 days', now())`.execute(ctx.app.db);
    const averaged = await same();
    // The request made 7 h 13 min before its reply counts; the one replied 31 days ago does not.
    expect(averaged.average_response_minutes).not.toBe(boundary.average_response_minutes);
    await expectResponseTimesKept();
    await sql`update requests set created_at = created_at - interval '3 hours 0.5 seconds' where id = ${j}`.execute(
      ctx.app.db,
    );
    const moved = await same();
    expect(moved.average_response_minutes).toBeGreaterThan(averaged.average_response_minutes as number);
    await sql`update request_dentists set replied_at = now() - interval '2 days' where request_id = ${k}`.execute(
      ctx.app.db,
    );
    await same();
    await sql`update request_dentists set response_seconds = 1 where dentist_id = ${drNoel.id}`.execute(
      ctx.app.db,
    );
    await same();
    await expectResponseTimesKept();
  });

  it("count his pending rows set aside on requests still open to him (migration 055, a worked example)", async () => {
    const keptAside = async (who: Who) =>
      (
        await ctx.app.db
          .selectFrom("dentist_tallies")
          .select("set_aside")
          .where("dentist_id", "=", who.id)
          .executeTakeFirst()
      )?.set_aside ?? 0;
    /** The same count from his rows: pending, set aside, on a request open to him. */
    const countedAside = async (who: Who) =>
      (
        await sql<{ n: number }>`
          select count(*)::int as n from request_dentists rd join requests r on r.id = rd.request_id
          where rd.dentist_id = ${who.id} and rd.status = 'pending' and rd.set_aside_at is not null
            and r.status in ('new', 'in_review')
            and (r.recipient_dentist_id is null or r.recipient_dentist_id = ${who.id})`.execute(ctx.app.db)
      ).rows[0]?.n;
    const expectAside = async (who: Who, n: number) => {
      expect(await keptAside(who)).toBe(n);
      expect(await countedAside(who)).toBe(n);
    };
    const base = await keptAside(drLeroy);
    const f = await newRequest("new");
    const g = await newRequest("in_review");
    const at = "2026-11-20T10:00:00Z";
    await sql`insert into request_dentists (request_id, dentist_id, set_aside_at, updated_at)
      values (${f}, ${drLeroy.id}, ${at}, ${at}), (${g}, ${drLeroy.id}, ${at}, ${at})`.execute(ctx.app.db);
    await expectAside(drLeroy, base + 2);
    // His answered rows are answered, not set aside: counted once, in `answered`.
    const answeredBefore = (await kept(drLeroy.id)).answered;
    await sql`update request_dentists set status = 'responded', replied_at = ${at}
      where request_id = ${g} and dentist_id = ${drLeroy.id}`.execute(ctx.app.db);
    await expectAside(drLeroy, base + 1);
    expect((await expectKeptEqualsCounted(drLeroy.id)).answered).toBe(answeredBefore + 1);
    // Sent by name to another: no longer open to him; back to all: counted again.
    await sql`update requests set recipient_dentist_id = ${drMartin.id} where id = ${f}`.execute(ctx.app.db);
    await expectAside(drLeroy, base);
    await sql`update requests set recipient_dentist_id = null where id = ${f}`.execute(ctx.app.db);
    await expectAside(drLeroy, base + 1);
    // Put back (set_aside_at cleared alone), set aside again, then the request closed.
    await sql`update request_dentists set set_aside_at = null where request_id = ${f} and dentist_id = ${drLeroy.id}`.execute(
      ctx.app.db,
    );
    await expectAside(drLeroy, base);
    await sql`update request_dentists set set_aside_at = now() where request_id = ${f} and dentist_id = ${drLeroy.id}`.execute(
      ctx.app.db,
    );
    await expectAside(drLeroy, base + 1);
    await sql`update requests set status = 'cancelled' where id = ${f}`.execute(ctx.app.db);
    await expectAside(drLeroy, base);
  });

  it("are emptied by a truncate of the rows they count", async () => {
    await sql`insert into request_dentists (request_id, dentist_id, set_aside_at)
      values (${await newRequest("new")}, ${drMartin.id}, now())`.execute(ctx.app.db);
    expect(
      (
        await ctx.app.db
          .selectFrom("dentist_tallies")
          .select("set_aside")
          .where("dentist_id", "=", drMartin.id)
          .executeTakeFirst()
      )?.set_aside,
    ).toBeGreaterThan(0);
    await sql`truncate request_dentists`.execute(ctx.app.db);
    expect(
      (
        await sql<{ n: number }>`select count(*)::int as n from dentist_tallies where set_aside <> 0`.execute(
          ctx.app.db,
        )
      ).rows[0]?.n,
    ).toBe(0);
    for (const who of [drMartin, drLeroy])
      expect(await expectKeptEqualsCounted(who.id)).toEqual({ answered: 0, months: [] });
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from dentist_month_tallies`.execute(ctx.app.db))
        .rows[0]?.n,
    ).toBe(0);
  });
});

describe("migration 055", () => {
  it("goes down to 041's tallies, which still count, and up again, counting the rows set aside", async () => {
    const untyped = ctx.app.db as unknown as Kysely<unknown>;
    await m055.down(untyped);
    const h = await newRequest("new");
    await row(h, drMartin.id, "responded", "2026-11-25T10:00:00Z", "2026-11-25T10:00:00Z");
    await expectKeptEqualsCounted(drMartin.id);
    await m055.up(untyped);
    const before = (await expectKeptEqualsCounted(drMartin.id)).answered;
    await sql`insert into request_dentists (request_id, dentist_id, set_aside_at)
      values (${await newRequest("in_review")}, ${drMartin.id}, now())`.execute(ctx.app.db);
    const tallies = await ctx.app.db
      .selectFrom("dentist_tallies")
      .select(["answered", "set_aside"])
      .where("dentist_id", "=", drMartin.id)
      .executeTakeFirstOrThrow();
    expect(tallies).toEqual({ answered: before, set_aside: 1 });
  });
});
