import { describe, expect, it } from "vitest";
import { sessionsChanged } from "./access/session-cache";
import { createTestContext, type TestContext } from "./testing/harness";
import { api, dentist } from "./testing/people";
import { queriesDuring } from "./testing/queries";
import { type PersonName, setUpWorld, type World } from "./testing/world";

/*
 * Computed reads are cheap (issue 38, ADR 051): each screen a person reloads all day costs one SQL
 * round trip (an empty page too, ADR 057 and 060), counted through the driver layer on a world where every
 * screen has rows (conversations, offers, appointments, unread messages). Before: the dentist's
 * dashboard 7, the lists 2 each. The session is read first, so that only the screen's own queries
 * are counted (the session cache keeps it afterwards).
 */

let w: World;
// The world is about a hundred API calls: a loaded machine may take more than the default 2 minutes.
setUpWorld((world) => {
  w = world;
}, 300_000);

/** The screen's queries: asked once (session, caches), then counted on a URL the cache never saw. */
async function queriesOf(who: PersonName, url: string) {
  // Read afresh by the first call: an entry cached by an earlier screen could otherwise reach the
  // session cache's 30 s (ADR 026) between the calls below on a slow machine.
  await sessionsChanged(w.ctx.app.db, w.people[who].id);
  const first = await w.call(who, { method: "GET", url });
  expect(first.statusCode, `${url}: ${first.body}`).toBe(200);
  // What the world's last writes notify (the admin's sign-in writes his profile) may reach the
  // session cache after that call filled it, and empty it again: handled here, then the session read
  // once more, so that the count below is the screen's own (it failed once in CI, 3 for 1).
  await w.ctx.app.bus.sync();
  expect((await w.call(who, { method: "GET", url })).statusCode).toBe(200);
  // A parameter the route ignores: never an entry of the response cache (ADR 030).
  const fresh = `${url}${url.includes("?") ? "&" : "?"}counted=${Math.random()}`;
  const { result, queries } = await queriesDuring(w.ctx.app, () =>
    w.call(who, { method: "GET", url: fresh }),
  );
  expect(result.statusCode).toBe(200);
  expect(result.json()).toEqual(first.json());
  return queries;
}

describe("each screen's round trips", () => {
  it.each([
    ["patientA", "/api/patient/requests", 1],
    ["chosen", "/api/dentist/requests", 1],
    ["chosen", "/api/dentist/requests?status=pending", 1],
    ["chosen", "/api/dentist/requests?status=responded", 1],
    ["chosen", "/api/dentist/dashboard", 1],
    ["chosen", "/api/conversations", 1],
    ["patientA", "/api/conversations", 1],
    ["admin", "/api/admin/users?role=patient", 1],
    ["admin", "/api/admin/users?role=dentist", 1],
    // A page past the end: the total and the treatment types are columns of the screen's one row
    // beside its JSON array of rows (ADR 057, addendum of 29/11), not carried by the rows.
    ["patientA", "/api/patient/requests?page=50", 1],
    ["chosen", "/api/dentist/requests?page=50", 1],
    ["chosen", "/api/dentist/requests?search=zzzz", 1],
    // The conversations' unread total beside their JSON array, not on each row (ADR 060): an empty
    // search too.
    ["patientA", "/api/conversations?search=zzzz", 1],
    ["chosen", "/api/conversations?search=zzzz", 1],
    // 'Mes propositions': the page with its lines, slots and taken slots as JSON arrays (migration
    // 043's addendum); they were four queries.
    ["chosen", "/api/dentist/offers", 1],
    ["chosen", "/api/dentist/offers?state=accepted", 1],
  ] as const)("%s GET %s: at most %i", async (who, url, most) => {
    const queries = await queriesOf(who, url);
    expect(queries.length, queries.join("\n\n")).toBeLessThanOrEqual(most);
  });

  it("the screens show what they showed: rows in every part of the dentist's dashboard", async () => {
    const body = (await w.call("chosen", { method: "GET", url: "/api/dentist/dashboard" })).json();
    expect(body.recent_requests.length).toBeGreaterThan(0);
    expect(body.recent_messages.length).toBeGreaterThan(0);
    expect(body.todo.requests.count + body.todo.conversations.count).toBeGreaterThan(0);
    const offers = (
      await w.call("chosen", { method: "GET", url: "/api/dentist/offers?state=accepted" })
    ).json();
    expect(offers.items.length).toBeGreaterThan(0);
    expect(offers.items[0].lines.length + offers.items[0].slots.length).toBeGreaterThan(0);
    const list = (await w.call("chosen", { method: "GET", url: "/api/dentist/requests" })).json();
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.treatments.length).toBeGreaterThan(0);
    const conversations = (await w.call("patientA", { method: "GET", url: "/api/conversations" })).json();
    expect(conversations.items.length).toBeGreaterThan(0);
    expect(conversations.unread_total).toBeGreaterThan(0);
  });

  it("an empty page still tells the totals", async () => {
    const list = await w.call("patientA", { method: "GET", url: "/api/patient/requests?page=50" });
    expect(list.json().items).toEqual([]);
    expect(list.json().total).toBeGreaterThan(0);
    const search = await w.call("chosen", { method: "GET", url: "/api/dentist/requests?search=zzzz" });
    expect(search.json().items).toEqual([]);
    expect(search.json().treatments.length).toBeGreaterThan(0);
    const none = await w.call("patientA", { method: "GET", url: "/api/conversations?search=zzzz" });
    expect(none.json().items).toEqual([]);
    expect(none.json().unread_total).toBeGreaterThan(0);
  });
});

describe("RESPONSE_CACHE=off", () => {
  let ctx: TestContext;
  it("computes every answer: the same list asked twice runs its query twice", async () => {
    ctx = await createTestContext({ env: { RESPONSE_CACHE: "off" } });
    try {
      const { cookie } = await dentist(ctx.app);
      await ctx.app.bus.sync();
      const first = await api(ctx).get("/api/dentist/requests", cookie);
      expect(first.statusCode).toBe(200);
      const { result, queries } = await queriesDuring(ctx.app, () =>
        api(ctx).get("/api/dentist/requests", cookie),
      );
      expect(result.json()).toEqual(first.json());
      expect(queries.length).toBeGreaterThan(0);
      expect(ctx.app.responseCache.stats).toMatchObject({ hits: 0, stored: 0 });
    } finally {
      await ctx.close();
    }
  });
});
