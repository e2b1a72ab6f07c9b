import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import {
  appPerFile,
  postRequest,
  signUpPatient,
  type TestContext,
  twoInstancesPerFile,
} from "./testing/harness";
import { api, dentist, postForm, signInAdmin, type Who } from "./testing/people";

/*
 * The response cache (ADR 030, ADR 052) never shows what changed: a write, whoever makes it and on
 * whichever instance, is in the next answer of everyone it concerns; and it leaves everyone else's
 * answers in place. Run on one instance (PGlite or PostgreSQL) and, with TEST_DATABASE_URL, on two
 * instances of one PostgreSQL database, the write going through one and the read through the other.
 * Each scenario first proves the answer was served from the cache, so that the freshness it checks
 * is the cache's and not a fresh query's; and that the uninvolved dentist's next answer is a hit.
 * (Dropping nothing on a change fails the freshness checks; emptying the whole cache on every change,
 * as ADR 030 did, fails the hits.)
 */

const DAY = 24 * 60 * 60 * 1000;
/** A Paris wall-clock slot `days` from now, at 10:00. */
const slotIn = (days: number) => `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T10:00`;

function scenarios(instances: () => { a: TestContext; b: TestContext }) {
  const get = (ctx: TestContext, url: string, cookie: string) => api(ctx).get(url, cookie);
  const verifiedDentist = (ctx: TestContext) => dentist(ctx.app);

  /** Asks twice; the second answer must come from the cache and equal the first. */
  async function cachedOn(ctx: TestContext, url: string, cookie: string) {
    // The setup's own writes reach this instance's listener first (a change arriving while the
    // first answer is computed rightly keeps it out of the cache).
    await ctx.app.bus.sync();
    const first = await get(ctx, url, cookie);
    expect(first.statusCode).toBe(200);
    const hits = ctx.app.responseCache.stats.hits;
    const second = await get(ctx, url, cookie);
    expect(second.statusCode).toBe(200);
    expect(ctx.app.responseCache.stats.hits).toBe(hits + 1);
    expect(second.headers["content-type"]).toMatch(/^application\/json/);
    expect(second.json()).toEqual(first.json());
    return second.json();
  }

  /**
   * The next answers come from the cache, unchanged: the write did not concern this person. And they
   * are still right: computed again without the cache, they are the same.
   */
  async function keptOn(ctx: TestContext, who: Who, answers: Record<string, unknown>) {
    const hits = ctx.app.responseCache.stats.hits;
    for (const [url, expected] of Object.entries(answers)) {
      const again = await get(ctx, url, who.cookie);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(expected);
    }
    expect(ctx.app.responseCache.stats.hits, "servi par le cache").toBe(hits + Object.keys(answers).length);
    ctx.app.responseCache.forget([who.id]);
    for (const [url, expected] of Object.entries(answers))
      expect((await get(ctx, url, who.cookie)).json()).toEqual(expected);
  }

  /** The next answer is computed again (the write concerned this person): its body. */
  async function recomputedOn(ctx: TestContext, url: string, cookie: string) {
    const hits = ctx.app.responseCache.stats.hits;
    const again = await get(ctx, url, cookie);
    expect(ctx.app.responseCache.stats.hits, `${url} recalculé`).toBe(hits);
    return again;
  }

  /**
   * Dr Martin, whom no scenario's write concerns, and the patient who writes: signed up once per
   * instance pair (sign-ups per address are limited); each scenario has its own Dr Leroy.
   */
  const shared = new WeakMap<TestContext, Promise<{ martin: Who; patient: Who }>>();
  function martinAndPatient(ctx: TestContext) {
    let cast = shared.get(ctx);
    if (!cast) {
      cast = Promise.all([verifiedDentist(ctx), signUpPatient(ctx.app)]).then(([martin, patient]) => ({
        martin,
        patient: { cookie: patient.cookie, id: patient.response.json().profile.id as string, email: "" },
      }));
      shared.set(ctx, cast);
    }
    return cast;
  }

  /** Two verified dentists and a patient, and a request the patient sent to Dr Leroy alone. */
  async function leroyAndMartin(ctx: TestContext) {
    const [leroy, { martin, patient }] = await Promise.all([verifiedDentist(ctx), martinAndPatient(ctx)]);
    const sent = await postRequest(ctx.app, patient.cookie, {
      treatment_type: "crown",
      consent: "true",
      recipient: leroy.id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    return { leroy, martin, patient, requestId: sent.json().id as string };
  }

  async function sendOffer(ctx: TestContext, requestId: string, as: Who) {
    const response = await api(ctx).post(
      `/api/dentist/requests/${requestId}/offers`,
      { amount_cents: 90_000, valid_until: slotIn(30).slice(0, 10), slots: [slotIn(10), slotIn(11)] },
      as,
    );
    expect(response.statusCode, response.body).toBe(201);
    return {
      offerId: response.json().offer.id as string,
      conversationId: response.json().conversation_id as string,
    };
  }

  it("a request sent by name to one dentist is in his next list and counter, and leaves another's in place", async () => {
    const { a, b } = instances();
    const [leroy, { martin, patient }] = await Promise.all([verifiedDentist(a), martinAndPatient(a)]);
    const martinsList = await cachedOn(a, "/api/dentist/requests", martin.cookie);
    const martinsCount = await cachedOn(a, "/api/dentist/todo-count", martin.cookie);
    const leroysCount = await cachedOn(a, "/api/dentist/todo-count", leroy.cookie);
    await cachedOn(a, "/api/dentist/requests", leroy.cookie);
    const sent = await postRequest(b.app, patient.cookie, {
      treatment_type: "crown",
      consent: "true",
      recipient: leroy.id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await keptOn(a, martin, {
      "/api/dentist/requests": martinsList,
      "/api/dentist/todo-count": martinsCount,
    });
    const list = (await recomputedOn(a, "/api/dentist/requests", leroy.cookie)).json();
    expect(list.items.map((r: { id: string }) => r.id)).toContain(sent.json().id);
    const count = (await recomputedOn(a, "/api/dentist/todo-count", leroy.cookie)).json();
    expect(count.requests).toBe(leroysCount.requests + 1);
  });

  it("a message to one dentist is in his next dashboard, and leaves another's in place", async () => {
    const { a, b } = instances();
    const { leroy, martin, patient, requestId } = await leroyAndMartin(a);
    const { conversationId } = await sendOffer(a, requestId, leroy);
    const martins = await cachedOn(a, "/api/dentist/dashboard", martin.cookie);
    const leroys = await cachedOn(a, "/api/dentist/dashboard", leroy.cookie);
    const written = await postForm(b.app, `/api/conversations/${conversationId}/messages`, patient.cookie, {
      body: "Bonjour docteur, est-ce possible un samedi ?",
    });
    expect(written.statusCode, written.body).toBe(201);
    await keptOn(a, martin, { "/api/dentist/dashboard": martins });
    const dashboard = (await recomputedOn(a, "/api/dentist/dashboard", leroy.cookie)).json();
    expect(dashboard.unread_messages).toBe(leroys.unread_messages + 1);
    expect(dashboard.todo.conversations.items.map((c: { id: string }) => c.id)).toContain(conversationId);
  });

  it("an offer is in its dentist's next list of offers, and leaves another's in place", async () => {
    const { a, b } = instances();
    const { leroy, martin, requestId } = await leroyAndMartin(a);
    const martins = await cachedOn(a, "/api/dentist/offers", martin.cookie);
    const leroys = await cachedOn(a, "/api/dentist/offers", leroy.cookie);
    expect(leroys.items).toEqual([]);
    const { offerId } = await sendOffer(b, requestId, leroy);
    await keptOn(a, martin, { "/api/dentist/offers": martins });
    const offers = (await recomputedOn(a, "/api/dentist/offers", leroy.cookie)).json();
    expect(offers.items.map((o: { id: string }) => o.id)).toEqual([offerId]);
  });

  it("an offer on a request open to every dentist leaves the other dentists' lists in place", async () => {
    const { a, b } = instances();
    const [leroy, { martin, patient }] = await Promise.all([verifiedDentist(a), martinAndPatient(a)]);
    const sent = await postRequest(a.app, patient.cookie, { treatment_type: "implant", consent: "true" });
    expect(sent.statusCode, sent.body).toBe(201);
    const requestId = sent.json().id as string;
    const martins = await cachedOn(a, "/api/dentist/requests", martin.cookie);
    expect(martins.items.map((r: { id: string }) => r.id)).toContain(requestId);
    await cachedOn(a, "/api/dentist/requests", leroy.cookie);
    await sendOffer(b, requestId, leroy);
    await keptOn(a, martin, { "/api/dentist/requests": martins });
    const list = (await recomputedOn(a, "/api/dentist/requests", leroy.cookie)).json();
    expect(list.items.find((r: { id: string }) => r.id === requestId).my_status).toBe("responded");
  });

  it("an acceptance confirms the chosen dentist in his next list, and leaves another's in place", async () => {
    const { a, b } = instances();
    const { leroy, martin, patient, requestId } = await leroyAndMartin(a);
    const { offerId } = await sendOffer(a, requestId, leroy);
    const martinsList = await cachedOn(a, "/api/dentist/requests", martin.cookie);
    const martinsDashboard = await cachedOn(a, "/api/dentist/dashboard", martin.cookie);
    const leroys = await cachedOn(a, "/api/dentist/requests", leroy.cookie);
    expect(leroys.items.find((r: { id: string }) => r.id === requestId).my_status).toBe("responded");
    const accepted = await api(b).post(`/api/patient/offers/${offerId}/accept`, undefined, patient.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    await keptOn(a, martin, {
      "/api/dentist/requests": martinsList,
      "/api/dentist/dashboard": martinsDashboard,
    });
    const list = (await recomputedOn(a, "/api/dentist/requests", leroy.cookie)).json();
    expect(list.items.find((r: { id: string }) => r.id === requestId).my_status).toBe("confirmed");
  });

  it("an appointment is in its two parties' next lists, and leaves another dentist's in place", async () => {
    const { a, b } = instances();
    const { leroy, martin, patient, requestId } = await leroyAndMartin(a);
    const { offerId } = await sendOffer(a, requestId, leroy);
    const accepted = await api(a).post(`/api/patient/offers/${offerId}/accept`, undefined, patient.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const martins = await cachedOn(a, "/api/appointments", martin.cookie);
    expect((await cachedOn(a, "/api/appointments", leroy.cookie)).items).toEqual([]);
    expect((await cachedOn(a, "/api/appointments", patient.cookie)).items).toEqual([]);
    const booked = await api(b).post(
      `/api/patient/offers/${offerId}/appointment`,
      { slots: [slotIn(10)] },
      patient.cookie,
    );
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().appointment.id as string;
    await keptOn(a, martin, { "/api/appointments": martins });
    for (const cookie of [leroy.cookie, patient.cookie]) {
      const list = (await recomputedOn(a, "/api/appointments", cookie)).json();
      expect(list.items.map((x: { id: string }) => x.id)).toEqual([id]);
    }
  });

  it("a dentist's verification withdrawn empties his answers only", async () => {
    const { a, b } = instances();
    const admin = await signInAdmin(b.app);
    const { leroy, martin, requestId } = await leroyAndMartin(a);
    const martins = await cachedOn(a, "/api/dentist/requests", martin.cookie);
    const leroys = await cachedOn(a, "/api/dentist/requests", leroy.cookie);
    expect(leroys.items.map((r: { id: string }) => r.id)).toContain(requestId);
    const decided = await api(b).post(
      `/api/admin/dentists/${leroy.id}/verification`,
      { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
      admin,
    );
    expect(decided.statusCode, decided.body).toBe(200);
    await keptOn(a, martin, { "/api/dentist/requests": martins });
    const next = await recomputedOn(a, "/api/dentist/requests", leroy.cookie);
    expect(next.statusCode === 200 ? next.json().items : []).toEqual([]);
  });

  it("an operator's SQL on one dentist's request is in his next list, and leaves another's in place", async () => {
    const { a, b } = instances();
    const { leroy, martin, requestId } = await leroyAndMartin(a);
    const martins = await cachedOn(a, "/api/dentist/requests", martin.cookie);
    await cachedOn(a, "/api/dentist/requests", leroy.cookie);
    await sql`update requests set budget = '1 500 €' where id = ${requestId}`.execute(b.app.db);
    await keptOn(a, martin, { "/api/dentist/requests": martins });
    const list = (await recomputedOn(a, "/api/dentist/requests", leroy.cookie)).json();
    expect(list.items.find((r: { id: string }) => r.id === requestId).budget).toBe("1 500 €");
  });

  it("a request sent through one instance is in the dentist's next list on the other", async () => {
    const { a, b } = instances();
    const dentist = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    const before = await cachedOn(a, "/api/dentist/requests", dentist.cookie);
    await cachedOn(a, "/api/dentist/dashboard", dentist.cookie);
    const sent = await postRequest(b.app, patient.cookie, { treatment_type: "crown", consent: "true" });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().id as string;
    const after = (await get(a, "/api/dentist/requests", dentist.cookie)).json();
    expect(after.items.map((r: { id: string }) => r.id)).toContain(id);
    expect(after.items.length).toBe(Math.min(before.items.length + 1, before.page_size));
    const dashboard = (await get(a, "/api/dentist/dashboard", dentist.cookie)).json();
    expect(dashboard.recent_requests.map((r: { id: string }) => r.id)).toContain(id);
  });

  it("a write made outside the app's services (an operator's SQL) is in the next answer", async () => {
    const { a, b } = instances();
    const dentist = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    const sent = await postRequest(a.app, patient.cookie, { treatment_type: "implant", consent: "true" });
    const id = sent.json().id as string;
    const list = await cachedOn(a, "/api/dentist/requests", dentist.cookie);
    const row = list.items.find((r: { id: string }) => r.id === id);
    expect(row.patient_name).toContain("Marie");
    await sql`update profiles set full_name = 'Camille Renard' where id = ${patient.response.json().profile.id}`.execute(
      b.app.db,
    );
    const next = (await get(a, "/api/dentist/requests", dentist.cookie)).json();
    expect(next.items.find((r: { id: string }) => r.id === id).patient_name).toContain("Camille");
  });

  it("a dentist de-verified on the other instance is refused, not served his cached list", async () => {
    const { a, b } = instances();
    const admin = await signInAdmin(b.app);
    const verified = await verifiedDentist(a);
    const list = await cachedOn(a, "/api/dentist/requests", verified.cookie);
    expect(list.verified).toBe(true);
    const decided = await api(b).post(
      `/api/admin/dentists/${verified.id}/verification`,
      { decision: "unverify", reason: "Numéro RPPS inactif au répertoire" },
      admin,
    );
    expect(decided.statusCode).toBe(200);
    const next = await get(a, "/api/dentist/requests", verified.cookie);
    expect(next.statusCode === 200 ? next.json().verified : false).toBe(false);
    expect(next.statusCode === 200 ? next.json().items : []).toEqual([]);
  });

  it("one person's cached answer is never another's", async () => {
    const { a } = instances();
    const first = await verifiedDentist(a);
    const second = await verifiedDentist(a);
    const patient = await signUpPatient(a.app);
    // Addressed to the first dentist only: the second must not see it, cached or not.
    const sent = await postRequest(a.app, patient.cookie, {
      treatment_type: "crown",
      consent: "true",
      recipient: first.id,
    });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().id as string;
    const mine = await cachedOn(a, "/api/dentist/requests", first.cookie);
    expect(mine.items.map((r: { id: string }) => r.id)).toContain(id);
    const theirs = await cachedOn(a, "/api/dentist/requests", second.cookie);
    expect(theirs.items.map((r: { id: string }) => r.id)).not.toContain(id);
  });
}

describe("response cache on one instance", () => {
  const ctx = appPerFile();
  beforeAll(() => ctx.app.bus.listening());
  scenarios(() => ({ a: ctx, b: ctx }));

  it("a patient's own screens are not cached, nor a refused request", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const before = { ...ctx.app.responseCache.stats };
    for (let i = 0; i < 2; i++) {
      expect(
        (await ctx.app.inject({ method: "GET", url: "/api/patient/requests", headers: { cookie } }))
          .statusCode,
      ).toBe(200);
      expect(
        (await ctx.app.inject({ method: "GET", url: "/api/dentist/requests", headers: { cookie } }))
          .statusCode,
      ).toBe(403);
    }
    expect(ctx.app.responseCache.stats).toEqual(before);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("response cache on two instances of one PostgreSQL", () => {
  const pair = twoInstancesPerFile();
  scenarios(() => pair);
});
