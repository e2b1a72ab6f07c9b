import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { offerStateOf } from "../../../shared/policies/offers";
import { requestVisibleToDentist } from "../../access/requests";
import { sessionsChanged } from "../../access/session-cache";
import { appPerFile, newRequestId } from "../../testing/harness";
import { api, peoplePerFile, USUAL_CAST, type Who } from "../../testing/people";
import { queriesDuring } from "../../testing/queries";

/*
 * Two lists that read all of a dentist's accepted offers on every call (issue 38, migration 043):
 *
 * - 'Mes propositions' by state reads a page of one status in order from
 *   `offers_dentist_status_created_idx` on its generic plan;
 * - the dentist's list ('Toutes') reads the requests whose accepted offer is his from
 *   `requests.chosen_dentist_id`, kept by the database, in list order.
 *
 * Their answers must be what a straightforward reading of the offers gives, and the kept column what
 * a recount gives, through every way an offer changes state (sent, accepted, accepted then
 * un-accepted, closed by another's acceptance or a cancellation, withdrawn, expired) and what an
 * operator's SQL may do (an offer deleted or given to another dentist, a request deleted, the
 * offers truncated); offers sent at the same instant keep their order (id, descending).
 */

// A movable clock: Saturday 21 November 2026, 10:00 in Paris (09:00 UTC) to begin with.
const START = new Date("2026-11-21T09:00:00Z");
let now = START;

// The computed answers (the response cache would keep the day's answer when only the clock moves).
const ctx = appPerFile({ clock: () => now, env: { RESPONSE_CACHE: "off" } });
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, USUAL_CAST);

const STATES = ["sent", "accepted", "closed", "expired", "withdrawn"] as const;

const createRequest = (patient: Who) =>
  newRequestId(ctx.app, patient.cookie, undefined, { quote_amount: "1200", document_types: '["quote"]' });

async function sendOffer(requestId: string, as: Who, validUntil: string | null = "2026-12-31") {
  const response = await post(
    `/api/dentist/requests/${requestId}/offers`,
    { amount_cents: 90_000, valid_until: validUntil },
    as,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().offer.id as string;
}

async function expectOk(url: string, as: Who) {
  const response = await post(url, undefined, as);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
}

/** Every page of the list as the dentist reads it: ids and the state shown, in order. */
async function listed(dentist: Who, state: string | undefined) {
  const items: { id: string; state: string }[] = [];
  for (let page = 1; ; page += 1) {
    const response = await get(`/api/dentist/offers?${state ? `state=${state}&` : ""}page=${page}`, dentist);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    items.push(...body.items.map((o: { id: string; state: string }) => ({ id: o.id, state: o.state })));
    if (!body.has_more) return items;
  }
}

/** The same, read straightforwardly: all of the dentist's offers, filtered and sorted here. */
async function expected(dentist: Who, state: string | undefined) {
  const { rows } = await sql<{
    id: string;
    status: "sent" | "accepted" | "closed" | "withdrawn";
    valid_until: string | null;
    created_at: Date;
  }>`select id, status, to_char(valid_until, 'YYYY-MM-DD') as valid_until, created_at
     from offers where dentist_id = ${dentist.id}`.execute(ctx.app.db);
  return rows
    .map((row) => ({ ...row, state: offerStateOf(row, now) }))
    .filter((row) => state === undefined || row.state === state)
    .sort(
      (a, b) =>
        new Date(b.created_at).getTime() - new Date(a.created_at).getTime() ||
        (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    )
    .map((row) => ({ id: row.id, state: row.state }));
}

/** The dentist's 'Toutes', every page: the requests' ids in order. */
async function dentistList(dentist: Who) {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await get(`/api/dentist/requests?page=${page}&page_size=5`, dentist);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    ids.push(...body.items.map((r: { id: string }) => r.id));
    if (!body.has_more) return ids;
  }
}

/** The same, read straightforwardly: every request he may see (access/requests.ts, on `offers`), sorted. */
async function dentistListAsRead(dentist: Who) {
  const rows = await ctx.app.db
    .selectFrom("requests as r")
    .select("r.id")
    .where((eb) => requestVisibleToDentist(eb, dentist.id))
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map((row) => row.id);
}

/** The requests whose kept chosen dentist is not the dentist of their accepted offer. */
async function chosenMismatches() {
  const { rows } = await sql<{ id: string }>`
    select r.id from requests r
    where r.chosen_dentist_id is distinct from
      (select o.dentist_id from offers o where o.request_id = r.id and o.status = 'accepted')`.execute(
    ctx.app.db,
  );
  return rows;
}

async function expectListsAsRead(...dentists: Who[]) {
  expect(await chosenMismatches()).toEqual([]);
  for (const dentist of dentists) {
    for (const state of [undefined, ...STATES])
      expect(await listed(dentist, state), `state ${state}`).toEqual(await expected(dentist, state));
    expect(await dentistList(dentist)).toEqual(await dentistListAsRead(dentist));
  }
}

type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };

/** The node types from the plan's root down to the scan of `index` (empty when it is not used). */
function pathTo(node: PlanNode, index: string): string[] {
  if (node["Index Name"] === index) return [node["Node Type"]];
  for (const child of node.Plans ?? []) {
    const below = pathTo(child, index);
    if (below.length) return [node["Node Type"], ...below];
  }
  return [];
}

/**
 * The plan the app runs for a statement it sent (its generic plan: the statement is marked so),
 * seen with sequential scans off: the test's tables are so small that reading them whole would be
 * cheaper than any index. Planned only (its parameters null).
 */
async function genericPlanOf(text: string) {
  expect(text.endsWith("/* sourio: generic plan */")).toBe(true);
  const count = Math.max(...(text.match(/\$\d+/g) ?? ["$0"]).map((p) => Number(p.slice(1))));
  return ctx.app.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`prepare planned as ${text}`).execute(trx);
    try {
      const nulls = Array.from({ length: count }, () => "null").join(", ");
      const { rows } = await sql<{ "QUERY PLAN": unknown }>`explain (format json) execute planned(${sql.raw(
        nulls,
      )})`.execute(trx);
      return JSON.stringify(rows[0]?.["QUERY PLAN"]);
    } finally {
      await sql`deallocate planned`.execute(trx);
    }
  });
}

/**
 * The screen's own queries: his session read afresh and cached by a first call, so that an entry
 * cached earlier in the file cannot reach the session cache's 30 s (ADR 026) before the counted one.
 */
async function screenQueries(url: string, as: Who | undefined) {
  await sessionsChanged(ctx.app.db, (as as Who).id);
  expect((await get(url, as)).statusCode).toBe(200);
  return queriesDuring(ctx.app, () => get(url, as));
}

describe("lists of accepted offers in list order (migration 043)", () => {
  it("list what the dentist's offers are, through acceptances, withdrawals, closings and expiry", async () => {
    const paula = who.Paula as Who;
    const quentin = who.Quentin as Who;
    const drA = who.drA as Who;
    const drB = who.drB as Who;
    // 14 requests, 7 each; drA offers on all (three of them at one instant), drB on every other one.
    const requests: string[] = [];
    const mine: string[] = [];
    const theirs = new Map<string, string>();
    for (let i = 0; i < 14; i += 1) {
      now = new Date(START.getTime() + (i < 3 ? 0 : i) * 60_000);
      const requestId = await createRequest(i % 2 === 0 ? paula : quentin);
      requests.push(requestId);
      mine.push(
        await sendOffer(requestId, drA, i % 5 === 4 ? "2026-11-22" : i % 3 === 0 ? null : "2026-12-31"),
      );
      if (i % 2 === 1) theirs.set(requestId, await sendOffer(requestId, drB));
    }
    await expectListsAsRead(drA, drB);
    expect(await listed(drA, "sent")).toHaveLength(14);

    // Accepted (drA chosen on requests 2, 4, 6, 10), one of them then un-accepted.
    for (const i of [2, 4, 6, 10]) await expectOk(`/api/patient/offers/${mine[i]}/accept`, paula);
    await expectOk(`/api/patient/offers/${mine[4]}/unaccept`, paula);
    // drB chosen on request 1 (drA's offer closed), request 3 cancelled (closed too).
    await expectOk(`/api/patient/offers/${theirs.get(requests[1] as string)}/accept`, quentin);
    await expectOk(`/api/patient/requests/${requests[3]}/cancel`, quentin);
    // Withdrawn by drA.
    await expectOk(`/api/dentist/offers/${mine[5]}/withdraw`, drA);
    await expectListsAsRead(drA, drB);
    expect((await listed(drA, "accepted")).map((o) => o.id)).toEqual([mine[10], mine[6], mine[2]]);
    for (const i of [2, 6, 10]) expect(await dentistList(drA)).toContain(requests[i]);
    expect(await dentistList(drB)).toContain(requests[1]);

    // Two days later, the offers valid until the 22nd have expired (9, and 4 sent again).
    now = new Date("2026-11-23T09:00:00Z");
    await expectListsAsRead(drA, drB);
    expect((await listed(drA, "expired")).map((o) => o.id)).toEqual([mine[9], mine[4]]);
    // Un-accepted after that: the offer is sent again, listed with the sent ones, the request open.
    await expectOk(`/api/patient/offers/${mine[6]}/unaccept`, paula);
    await expectListsAsRead(drA, drB);
    expect((await listed(drA, "accepted")).map((o) => o.id)).toEqual([mine[10], mine[2]]);

    // An operator's SQL: drA's accepted offer on request 10 given to drB, the one on request 2
    // deleted, drB's chosen request 1 deleted with its offers.
    await sql`update offers set dentist_id = ${drB.id} where id = ${mine[10]}`.execute(ctx.app.db);
    await sql`delete from offers where id = ${mine[2]}`.execute(ctx.app.db);
    await sql`delete from requests where id = ${requests[1]}`.execute(ctx.app.db);
    await expectListsAsRead(drA, drB);
    expect((await listed(drA, "accepted")).map((o) => o.id)).toEqual([]);
    expect((await listed(drB, "accepted")).map((o) => o.id)).toEqual([mine[10]]);
  });

  it("reads a page of one state in order from its index, with no sort and no re-planning", async () => {
    const { queries } = await screenQueries("/api/dentist/offers?state=accepted", who.drB);
    const [page] = queries;
    expect(page).toMatch(/^select .* from "offers" as "o"/);
    const plan = await genericPlanOf(page as string);
    expect(plan).toContain('"Index Name":"offers_dentist_status_created_idx"');
    expect(plan).toMatch(/"Index Cond":"\(\(dentist_id = \$\d+\) AND \(status = \$\d+\)\)"/);
    // No sort between the page's Limit and the index scan (its lines' and slots' lookups aside).
    expect(pathTo(JSON.parse(plan)[0].Plan, "offers_dentist_status_created_idx")).not.toContain("Sort");
    expect(pathTo(JSON.parse(plan)[0].Plan, "offers_dentist_status_created_idx")).not.toContain(
      "Incremental Sort",
    );
  });

  it("reads the requests whose accepted offer is his in list order, from the kept column's index", async () => {
    const { queries } = await screenQueries("/api/dentist/requests?page=1", who.drB);
    const [list] = queries;
    expect(list).toMatch(/"r"."chosen_dentist_id" = \$\d+/);
    const plan = JSON.parse(await genericPlanOf(list as string));
    // The branch: a Limit over the index scan, in order (no sort below the Limit). The same index
    // gives the treatment filter the types of his accepted requests (ADR 009's addendum of 07/12),
    // outside any Limit.
    const branches: { "Node Type": string; Plans?: unknown[] }[] = [];
    let unlimited = 0;
    const walk = (
      node: { "Node Type": string; "Index Name"?: string; Plans?: unknown[] },
      limit: unknown,
    ) => {
      if (node["Index Name"] === "requests_chosen_created_idx") {
        if (limit) branches.push(limit as never);
        else unlimited += 1;
      }
      for (const child of (node.Plans ?? []) as (typeof node)[])
        walk(child, node["Node Type"] === "Limit" ? node : limit);
    };
    walk(plan[0].Plan, null);
    expect(branches).toHaveLength(1);
    expect(JSON.stringify(branches[0])).not.toMatch(/"Node Type":"(Incremental )?Sort"/);
    expect(unlimited).toBe(1);
  });

  it("empties the kept column when the offers are truncated", async () => {
    expect(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from requests where chosen_dentist_id is not null`.execute(ctx.app.db)
      ).rows[0]?.n,
    ).toBeGreaterThan(0);
    await sql`truncate offers cascade`.execute(ctx.app.db);
    expect(await chosenMismatches()).toEqual([]);
    expect(await dentistList(who.drB as Who)).toEqual(await dentistListAsRead(who.drB as Who));
  });
});
