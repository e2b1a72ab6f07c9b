import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { offerStateOf } from "../../../shared/policies/offers";
import { appPerFile, postRequest } from "../../testing/harness";
import { api, peoplePerFile, USUAL_CAST, type Who } from "../../testing/people";
import { queriesDuring } from "../../testing/queries";

/*
 * 'Mes propositions' by state (issue 38, migration 043): the list reads a page of one status in
 * order from `offers_dentist_status_created_idx` on its generic plan. Its answers must be what a
 * straightforward reading of the dentist's offers gives, through every way an offer changes state
 * (sent, accepted, accepted then un-accepted, closed by another's acceptance or a cancellation,
 * withdrawn, expired), and offers sent at the same instant keep their order (id, descending).
 */

// A movable clock: Saturday 21 November 2026, 10:00 in Paris (09:00 UTC) to begin with.
const START = new Date("2026-11-21T09:00:00Z");
let now = START;

// The computed answers (the response cache would keep the day's answer when only the clock moves).
const ctx = appPerFile({ clock: () => now, env: { RESPONSE_CACHE: "off" } });
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, USUAL_CAST);

const STATES = ["sent", "accepted", "closed", "expired", "withdrawn"] as const;

async function createRequest(patient: Who) {
  const response = await postRequest(ctx.app, patient.cookie, {
    treatment_type: "crown",
    consent: "true",
    quote_amount: "1200",
    document_types: '["quote"]',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

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

async function expectListsAsRead(dentist: Who) {
  for (const state of [undefined, ...STATES])
    expect(await listed(dentist, state), `state ${state}`).toEqual(await expected(dentist, state));
}

describe("'Mes propositions' by state (migration 043)", () => {
  it("lists what the dentist's offers are, through acceptances, withdrawals, closings and expiry", async () => {
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
    await expectListsAsRead(drA);
    const sentPages = await listed(drA, "sent");
    expect(sentPages).toHaveLength(14);

    // Accepted (drA chosen on requests 2, 4, 6, 10), one of them then un-accepted.
    for (const i of [2, 4, 6, 10]) await expectOk(`/api/patient/offers/${mine[i]}/accept`, paula);
    await expectOk(`/api/patient/offers/${mine[4]}/unaccept`, paula);
    // drB chosen on request 1 (drA's offer closed), request 3 cancelled (closed too).
    await expectOk(`/api/patient/offers/${theirs.get(requests[1] as string)}/accept`, quentin);
    await expectOk(`/api/patient/requests/${requests[3]}/cancel`, quentin);
    // Withdrawn by drA.
    await expectOk(`/api/dentist/offers/${mine[5]}/withdraw`, drA);
    await expectListsAsRead(drA);
    await expectListsAsRead(drB);
    expect((await listed(drA, "accepted")).map((o) => o.id)).toEqual([mine[10], mine[6], mine[2]]);

    // Two days later, the offers valid until the 22nd have expired (9, and 4 sent again).
    now = new Date("2026-11-23T09:00:00Z");
    await expectListsAsRead(drA);
    expect((await listed(drA, "expired")).map((o) => o.id)).toEqual([mine[9], mine[4]]);
    // Un-accepted after that: the offer is sent again, listed with the sent ones.
    await expectOk(`/api/patient/offers/${mine[6]}/unaccept`, paula);
    await expectListsAsRead(drA);
    expect((await listed(drA, "accepted")).map((o) => o.id)).toEqual([mine[10], mine[2]]);
  });

  it("reads a page of one state in order from its index, with no sort and no re-planning", async () => {
    const drA = who.drA as Who;
    const { queries } = await queriesDuring(ctx.app, () => get("/api/dentist/offers?state=accepted", drA));
    const [page] = queries;
    expect(page).toMatch(/^select .* from "offers" as "o"/);
    // The plan the app runs (its generic plan: the statement is marked so), seen with sequential scans
    // off: the test's tables are so small that reading them whole would be cheaper than any index.
    expect(page?.endsWith("/* sourio: generic plan */")).toBe(true);
    // Its parameters: the dentist, the status, the page's limit and offset.
    expect(page?.match(/\$\d+/g)).toEqual(["$1", "$2", "$3", "$4"]);
    const plan = await ctx.app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await sql.raw(`prepare offers_by_state as ${page}`).execute(trx);
      try {
        const { rows } = await sql<{
          "QUERY PLAN": unknown;
        }>`explain (format json) execute offers_by_state(${sql.lit(drA.id)}, 'accepted', 11, 0)`.execute(trx);
        return JSON.stringify(rows[0]?.["QUERY PLAN"]);
      } finally {
        await sql`deallocate offers_by_state`.execute(trx);
      }
    });
    expect(plan).toContain('"Index Name":"offers_dentist_status_created_idx"');
    expect(plan).toMatch(/"Index Cond":"\(\(dentist_id = \$1\) AND \(status = \$2\)\)"/);
    expect(plan).not.toMatch(/"Node Type":"(Incremental )?Sort"/);
  });
});
