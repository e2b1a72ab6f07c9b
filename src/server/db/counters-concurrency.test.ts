import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { dentist, patient, type Who } from "../testing/people";
import type { Database } from "./types";

/*
 * The counters the database keeps (migrations 038, 039, 040, 041) stay right when two transactions write
 * for the same row at once, on PostgreSQL (TEST_DATABASE_URL runs; PGlite has a single connection,
 * nothing runs at once there). The second transaction is held, by the database, inside its write
 * while the first one is open, and goes on only once the first has committed: without the lock the
 * triggers take first (`lockFirst`), its recount used a snapshot that missed the first's row, and the
 * count stayed one short.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let ctx: TestContext;
let alice: Who;
let drMartin: Who;
let drLeroy: Who;
let requestId: string;
let conversationId: string;

beforeAll(async () => {
  if (!onPostgres) return;
  ctx = await createTestContext();
  alice = await patient(ctx.app);
  drMartin = await dentist(ctx.app);
  drLeroy = await dentist(ctx.app);
  requestId = (
    await ctx.app.db
      .insertInto("requests")
      .values({ patient_id: alice.id, treatment_type: "crown", urgency: "low", status: "in_review" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  conversationId = (
    await ctx.app.db
      .insertInto("conversations")
      .values({ request_id: requestId, patient_id: alice.id, dentist_id: drMartin.id })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await ctx?.close();
});

/** Resolves once a transaction of this database waits for a lock (asked every 20 ms, up to 30 s). */
async function someoneWaitsForALock(db: Kysely<Database>): Promise<void> {
  for (let tries = 0; tries < 1500; tries += 1) {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("aucune transaction n'attend de verrou");
}

/**
 * `first` runs in a transaction left open until `second`, started meanwhile in another transaction,
 * waits for a lock; then the first commits, and the second finishes.
 */
async function atOnce(
  first: (trx: Kysely<Database>) => Promise<unknown>,
  second: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<void> {
  const db = ctx.app.db;
  let written!: () => void;
  const firstWrote = new Promise<void>((resolve) => {
    written = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const one = db.transaction().execute(async (trx) => {
    await first(trx);
    written();
    await released;
  });
  await firstWrote;
  const two = db.transaction().execute(async (trx) => {
    await second(trx);
  });
  try {
    await someoneWaitsForALock(db);
  } finally {
    release();
  }
  await Promise.all([one, two]);
}

describe.runIf(onPostgres)("counters kept by the database, written at once by two transactions", () => {
  it("count both messages sent at once in one conversation (migration 040)", async () => {
    const message = (trx: Kysely<Database>, body: string) =>
      trx
        .insertInto("messages")
        .values({ conversation_id: conversationId, sender_id: drMartin.id, body })
        .execute();
    await atOnce(
      (trx) => message(trx, "Bonjour"),
      (trx) => message(trx, "Mardi ?"),
    );
    const { rows } = await sql<{ kept: number; counted: number }>`
      select c.patient_unread as kept,
        (select count(*)::int from messages m where m.conversation_id = c.id and m.read_at is null
          and m.sender_id <> c.patient_id) as counted
      from conversations c where c.id = ${conversationId}`.execute(ctx.app.db);
    expect(rows[0]).toEqual({ kept: 2, counted: 2 });
  });

  it("count both offers sent at once on one request by two dentists (migration 039)", async () => {
    const offer = (trx: Kysely<Database>, dentistId: string) =>
      trx
        .insertInto("offers")
        .values({ request_id: requestId, dentist_id: dentistId, amount_cents: 90_000, status: "sent" })
        .execute();
    await atOnce(
      (trx) => offer(trx, drMartin.id),
      (trx) => offer(trx, drLeroy.id),
    );
    const { rows } = await sql<{ kept: number; counted: number }>`
      select r.sent_offers as kept,
        (select count(*)::int from offers o where o.request_id = r.id and o.status = 'sent') as counted
      from requests r where r.id = ${requestId}`.execute(ctx.app.db);
    expect(rows[0]).toEqual({ kept: 2, counted: 2 });
  });

  it("count both confirmations of one dentist at once on two requests (migration 041)", async () => {
    const other = await newRequest();
    // He answered both this month; his month's row exists.
    await ctx.app.db
      .insertInto("request_dentists")
      .values(
        [requestId, other].map((id) => ({
          request_id: id,
          dentist_id: drLeroy.id,
          status: "responded" as const,
          replied_at: new Date(),
        })),
      )
      .execute();
    const confirm = (trx: Kysely<Database>, id: string) =>
      trx
        .updateTable("request_dentists")
        .set({ status: "confirmed", updated_at: new Date() })
        .where("request_id", "=", id)
        .where("dentist_id", "=", drLeroy.id)
        .execute();
    await atOnce(
      (trx) => confirm(trx, requestId),
      (trx) => confirm(trx, other),
    );
    expect(await dentistTallies(drLeroy.id)).toEqual({ kept: [2, 2, 2], counted: [2, 2, 2] });
  });

  it("count a request closed while its dentist answers it (migration 041)", async () => {
    const closing = await newRequest();
    await ctx.app.db
      .insertInto("request_dentists")
      .values({ request_id: closing, dentist_id: drMartin.id, status: "pending" })
      .execute();
    await atOnce(
      (trx) => trx.updateTable("requests").set({ status: "cancelled" }).where("id", "=", closing).execute(),
      (trx) =>
        trx
          .updateTable("request_dentists")
          .set({ status: "responded", replied_at: new Date() })
          .where("request_id", "=", closing)
          .where("dentist_id", "=", drMartin.id)
          .execute(),
    );
    const { kept, counted } = await dentistTallies(drMartin.id);
    expect(kept).toEqual(counted);
  });

  it("keep a reply's response time while its request's creation is changed (migration 042)", async () => {
    // His row written with his reply (a row the other transaction cannot see, so no row lock to wait
    // on): without the trigger's `for share` on the request, the change of its creation committed
    // meanwhile left the row's time computed from the old one.
    const moving = await newRequest();
    await atOnce(
      (trx) =>
        trx
          .insertInto("request_dentists")
          // The database's clock, as the request's creation: the test's own, truncated to the
          // millisecond, could read a few microseconds before it (CI: 17 999.999928 s for 5 h).
          .values({ request_id: moving, dentist_id: drLeroy.id, status: "responded", replied_at: sql`now()` })
          .execute(),
      (trx) =>
        sql`update requests set created_at = created_at - interval '5 hours' where id = ${moving}`.execute(
          trx,
        ),
    );
    const { rows } = await sql<{ kept: string; counted: string }>`
      select rd.response_seconds::text as kept, extract(epoch from (rd.replied_at - r.created_at))::text as counted
      from request_dentists rd join requests r on r.id = rd.request_id
      where rd.request_id = ${moving} and rd.dentist_id = ${drLeroy.id}`.execute(ctx.app.db);
    expect(Number(rows[0]?.kept)).toBeGreaterThan(5 * 3600);
    expect(rows[0]?.kept).toBe(rows[0]?.counted);
  });
});

/** A dentist's kept answered count, this month's replies and confirmations, and the same counted from his rows. */
/** Another request of Alice's, in review. */
async function newRequest(): Promise<string> {
  const { id } = await ctx.app.db
    .insertInto("requests")
    .values({ patient_id: alice.id, treatment_type: "crown", urgency: "low", status: "in_review" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function dentistTallies(dentistId: string) {
  const { rows } = await sql<{
    answered: number;
    replies: number;
    confirmations: number;
    answered_counted: number;
    replies_counted: number;
    confirmations_counted: number;
  }>`
    select
      coalesce((select answered from dentist_tallies where dentist_id = ${dentistId}), 0) as answered,
      coalesce((select sum(replies)::int from dentist_month_tallies where dentist_id = ${dentistId}
        and month >= date_trunc('month', now() at time zone 'Europe/Paris')::date), 0) as replies,
      coalesce((select sum(confirmations)::int from dentist_month_tallies where dentist_id = ${dentistId}
        and month >= date_trunc('month', now() at time zone 'Europe/Paris')::date), 0) as confirmations,
      (select count(*)::int from request_dentists rd join requests r on r.id = rd.request_id
        where rd.dentist_id = ${dentistId} and rd.status in ('responded', 'confirmed') and r.status in ('new', 'in_review')
          and (r.recipient_dentist_id is null or r.recipient_dentist_id = ${dentistId})) as answered_counted,
      (select count(*)::int from request_dentists rd where rd.dentist_id = ${dentistId}
        and rd.replied_at >= date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris') as replies_counted,
      (select count(*)::int from request_dentists rd where rd.dentist_id = ${dentistId} and rd.status = 'confirmed'
        and rd.updated_at >= date_trunc('month', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris') as confirmations_counted
  `.execute(ctx.app.db);
  const row = rows[0];
  if (!row) throw new Error("aucune ligne");
  return {
    kept: [row.answered, row.replies, row.confirmations],
    counted: [row.answered_counted, row.replies_counted, row.confirmations_counted],
  };
}
