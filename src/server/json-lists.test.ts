import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { parisToday } from "../shared/policies/offers";
import type { Actor } from "./access/actor";
import { dentistRequestsRepo } from "./modules/dentists/dentists.repo";
import { listQuery } from "./modules/requests/requests.repo";
import { summary } from "./modules/requests/summary";
import { appPerFile, postRequest } from "./testing/harness";
import { api, dentist, patient, signInAdmin, type Who } from "./testing/people";

/*
 * The patient's list, the dentist's list and the admin's user list read their page as one JSON array
 * (issue 38, ADR 057, addendum of 29/11): their dates come from PostgreSQL's JSON (ISO text with
 * microseconds and the session's offset) instead of the driver's Date. Each answer must be the one
 * the rows read through the driver gave: here compared with those rows, on dates PostgreSQL keeps to
 * the microsecond (cut, never rounded, to the millisecond: .999999 stays in its second).
 */

const ctx = appPerFile();
const { get } = api(ctx);

/**
 * Microsecond times, newest first, later than anything else of this file (so first in every list);
 * each test moves them `years` later than the one before.
 */
const at = (times: string[], years: number) =>
  times.map((t) => `${Number(t.slice(0, 4)) + years}${t.slice(4)}`);
const TIMES = [
  "2031-03-30T00:59:59.999999Z",
  "2031-03-29T23:30:00.000001Z",
  "2031-01-01T00:00:00.5Z",
  "2030-12-31T23:59:59.123987Z",
];
const SHOWN = [
  "2031-03-30T00:59:59.999Z",
  "2031-03-29T23:30:00.000Z",
  "2031-01-01T00:00:00.500Z",
  "2030-12-31T23:59:59.123Z",
];

async function setCreatedAt(table: "requests" | "profiles", id: string, at: string) {
  await sql`update ${sql.table(table)} set created_at = ${at}::timestamptz where id = ${id}`.execute(
    ctx.app.db,
  );
}

async function requestsOf(who: Who, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await postRequest(ctx.app, who.cookie, { treatment_type: "implant", consent: "true" });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id as string);
  }
  return ids;
}

describe("lists read as one JSON array: the same answers as rows read through the driver", () => {
  it("the patient's list: dates cut to the millisecond, order and journeys as from the rows", async () => {
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const ids = await requestsOf(paula, 4);
    for (const [i, id] of ids.entries()) await setCreatedAt("requests", id, TIMES[i] as string);
    const now = new Date();
    for (const [page, pageSize] of [
      [1, 10],
      [1, 3],
      [2, 3],
      [3, 3],
    ] as const) {
      const body = (await get(`/api/patient/requests?page=${page}&page_size=${pageSize}`, paula)).json();
      // The rows as the driver reads them (Date objects), made into the answer as the route makes it.
      const rows = await listQuery(
        ctx.app.db,
        paula.id,
        parisToday(now),
        { page, pageSize },
        undefined,
      ).execute();
      expect(body.items).toEqual(rows.map((row) => summary(row, now)));
      expect(body.total).toBe(4);
    }
    const first = (await get("/api/patient/requests?page_size=10", paula)).json();
    expect(first.items.map((i: { id: string; created_at: string }) => [i.id, i.created_at])).toEqual(
      ids.map((id, i) => [id, SHOWN[i]]),
    );
  });

  it("the dentist's list: dates cut to the millisecond, the same items as from the rows", async () => {
    const quentin = await patient(ctx.app, { first_name: "Quentin" });
    const drA = await dentist(ctx.app, { first_name: "Anne" });
    const ids = await requestsOf(quentin, 4);
    for (const [i, id] of ids.entries()) await setCreatedAt("requests", id, at(TIMES, 2)[i] as string);
    const actor = {
      userId: drA.id,
      profile: { role: "dentist", is_verified: true },
      limited: false,
    } as Actor;
    const repo = dentistRequestsRepo(ctx.app.db, actor);
    for (const status of ["all", "pending"] as const)
      for (const [page, pageSize] of [
        [1, 3],
        [2, 3],
        [1, 20],
      ] as const) {
        const response = await get(
          `/api/dentist/requests?status=${status}&page=${page}&page_size=${pageSize}`,
          drA,
        );
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json();
        const query = repo.listQuery({ search: "", status, page, pageSize });
        const rows = query ? await query.execute() : [];
        const pick = (i: Record<string, unknown>) => [i.id, i.created_at, i.budget, i.my_status, i.is_new];
        expect(body.items.map(pick)).toEqual(
          rows
            .slice(0, pageSize)
            .map((r) => pick({ ...r, created_at: new Date(r.created_at).toISOString() })),
        );
        expect(body.has_more).toBe(rows.length > pageSize);
      }
    const first = (await get("/api/dentist/requests?page_size=4", drA)).json();
    expect(first.items.map((i: { id: string; created_at: string }) => [i.id, i.created_at])).toEqual(
      ids.map((id, i) => [id, at(SHOWN, 2)[i]]),
    );
    expect(first.treatments).toContain("implant");
  });

  it("the admin's user list: dates cut to the millisecond, the same page as from the rows", async () => {
    const admin = await signInAdmin(ctx.app);
    const people: Who[] = [];
    for (const name of ["Rose", "Simon", "Tara", "Ugo"])
      people.push(await patient(ctx.app, { first_name: name }));
    for (const [i, who] of people.entries()) await setCreatedAt("profiles", who.id, TIMES[i] as string);
    const body = (await get("/api/admin/users?role=patient&page_size=10", admin)).json();
    const rows = await ctx.app.db
      .selectFrom("profiles")
      .select(["id", "created_at"])
      .where("role", "=", "patient")
      .where("is_admin", "=", false)
      .where("erased_at", "is", null)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(10)
      .execute();
    expect(body.items.map((i: { id: string; created_at: string }) => [i.id, i.created_at])).toEqual(
      rows.map((r) => [r.id, new Date(r.created_at).toISOString()]),
    );
    expect(
      body.items.slice(0, 4).map((i: { id: string; created_at: string }) => [i.id, i.created_at]),
    ).toEqual(people.map((who, i) => [who.id, SHOWN[i]]));
  });
});
