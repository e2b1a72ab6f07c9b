import { beforeAll, describe, expect, it } from "vitest";
import { GEO_MESSAGES } from "../../shared/domain/geo";
import { tinyPng } from "../sample-files";
import { appPerFile, devisPdf, postRequest, signUpDentist } from "../testing/harness";
import { dentist, patient, people, type Who } from "../testing/people";
import { lookupPostalCode } from "./communes";

/** Postal codes, distances and 'Les plus proches' (issue 16 item 3, ADR 019). */
const ctx = appPerFile({
  clock: () => new Date("2026-11-21T09:00:00Z"),
  env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" },
});
type Name = "alice" | "bob" | "lyon" | "lille" | "paris" | "nowhere";
const who = {} as Record<Name, Who>;

const patch = (cookie: string, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: "/api/me", payload, headers: { cookie } });
const dentists = (cookie: string, query = "") =>
  ctx.app.inject({ method: "GET", url: `/api/dentists/verified${query}`, headers: { cookie } });

/** The dentist's offer on the request (a crown on the 36, one slot). */
async function sendOffer(requestId: string, as: Who) {
  const sent = await ctx.app.inject({
    method: "POST",
    url: `/api/dentist/requests/${requestId}/offers`,
    headers: { cookie: as.cookie },
    payload: {
      amount_cents: 90_000,
      comment: "Couronne céramo-métallique.",
      lines: [{ act: "Couronne céramo-métallique", tooth: 36, fee_cents: 90_000 }],
      valid_until: "2026-12-31",
      slots: ["2026-12-03T09:30"],
    },
  });
  expect(sent.statusCode, sent.body).toBe(201);
}

/**
 * A postal code nowhere in an answer: as a figure of its own, not inside an id (a UUID may hold
 * « 69001 » among its hex digits, which a plain substring check took for the code).
 */
function expectNoPostalCode(text: string, code: string) {
  expect(text).not.toMatch(new RegExp(`(?<![0-9a-f])${code}(?![0-9a-f])`, "i"));
}

beforeAll(async () => {
  lookupPostalCode("75001"); // loads the dataset once, outside the tests' time limit
  const practice = (first_name: string, practice_postcode?: string) => ({
    first_name,
    last_name: "Test",
    ...(practice_postcode ? { practice_postcode } : {}),
  });
  Object.assign(
    who,
    await people(ctx.app, {
      patients: ["alice", "bob"],
      // Names in the reverse order of their distance from Paris, so the two sorts differ.
      dentists: {
        lyon: practice("Aurore", "69001"),
        lille: practice("Basile", "59000"),
        paris: practice("Zoé", "75008"),
        nowhere: practice("Céline"),
      },
    }),
  );
});

describe("a patient's postal code", () => {
  it("is stored on the profile, returned to its owner and can be cleared", async () => {
    const saved = await patch(who.bob.cookie, { full_name: "Bob Test", postal_code: " 69003 " });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().profile.postal_code).toBe("69003");
    const me = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: who.bob.cookie } });
    expect(me.json().profile.postal_code).toBe("69003");
    const cleared = await patch(who.bob.cookie, { full_name: "Bob Test", postal_code: "" });
    expect(cleared.json().profile.postal_code).toBeNull();
  });

  it("answers a French 400 naming the field for a malformed or unknown code, and keeps the old one", async () => {
    await patch(who.bob.cookie, { full_name: "Bob Test", postal_code: "69003" });
    const malformed = await patch(who.bob.cookie, { full_name: "Bob Test", postal_code: "6900" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields.postal_code).toBe(GEO_MESSAGES.postalCodeInvalid);
    const unknown = await patch(who.bob.cookie, { full_name: "Bob Test", postal_code: "99999" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: GEO_MESSAGES.postalCodeUnknown,
      fields: { postal_code: GEO_MESSAGES.postalCodeUnknown },
    });
    const me = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: who.bob.cookie } });
    expect(me.json().profile.postal_code).toBe("69003");
  });

  it("checks a dentist's practice postcode against the dataset too", async () => {
    const unknown = await patch(who.lyon.cookie, { full_name: "Aurore Test", practice_postcode: "00000" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.practice_postcode).toBe(GEO_MESSAGES.postalCodeUnknown);
  });
});

describe("dentist sign-up with the practice's postal code", () => {
  it("stores a known code", async () => {
    const { response } = await signUpDentist(ctx.app, { practice_postcode: "13001" });
    expect(response.statusCode).toBe(201);
    expect(response.json().profile.practice_postcode).toBe("13001");
  });

  it("refuses an unknown or malformed code with a French 400 naming the field, and creates no account", async () => {
    const unknown = await signUpDentist(ctx.app, { practice_postcode: "99999" });
    expect(unknown.response.statusCode).toBe(400);
    expect(unknown.response.json().error.fields.practice_postcode).toBe(GEO_MESSAGES.postalCodeUnknown);
    const count = await ctx.app.db
      .selectFrom("profiles")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("email", "=", unknown.body.email)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    const malformed = await signUpDentist(ctx.app, { practice_postcode: "1300A" });
    expect(malformed.response.statusCode).toBe(400);
    expect(malformed.response.json().error.fields.practice_postcode).toBe(GEO_MESSAGES.postalCodeInvalid);
  });
});

describe("GET /api/dentists/verified with distances", () => {
  it("shows no distance while the patient has no postal code, and the practice's commune", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "" });
    const response = await dentists(who.alice.cookie);
    expect(response.statusCode).toBe(200);
    const items = response.json().items as { id: string; city: string | null; distance_km: number | null }[];
    const mine = items.filter((d) => [who.lyon.id, who.lille.id, who.paris.id].includes(d.id));
    expect(mine).toHaveLength(3);
    for (const d of mine) expect(d.distance_km).toBeNull();
    expect(items.find((d) => d.id === who.lyon.id)?.city).toBe("Lyon");
    expect(items.find((d) => d.id === who.lille.id)?.city).toBe("Lille");
  });

  it("gives each dentist's distance in km once the patient has a postal code; none for a dentist without one", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "75001" });
    const items = (await dentists(who.alice.cookie)).json().items as {
      id: string;
      distance_km: number | null;
    }[];
    const km = (id: string) => items.find((d) => d.id === id)?.distance_km;
    expect(km(who.paris.id)).toBe(0);
    expect(km(who.lille.id)).toBeGreaterThan(195);
    expect(km(who.lille.id)).toBeLessThan(215);
    expect(km(who.lyon.id)).toBeGreaterThan(385);
    expect(km(who.lyon.id)).toBeLessThan(395);
    expect(km(who.nowhere.id)).toBeNull();
  });

  it("keeps the neutral order by name by default, and sorts by distance only when asked (sort=distance)", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "75001" });
    const mine = [who.lyon.id, who.lille.id, who.paris.id, who.nowhere.id];
    const order = async (query: string) =>
      ((await dentists(who.alice.cookie, query)).json().items as { id: string }[])
        .map((d) => d.id)
        .filter((id) => mine.includes(id));
    // By name: Aurore (Lyon), Basile (Lille), Céline (no code), Zoé (Paris).
    expect(await order("")).toEqual([who.lyon.id, who.lille.id, who.nowhere.id, who.paris.id]);
    expect(await order("?sort=name")).toEqual([who.lyon.id, who.lille.id, who.nowhere.id, who.paris.id]);
    // Nearest first, the dentist without a distance last.
    expect(await order("?sort=distance")).toEqual([who.paris.id, who.lille.id, who.lyon.id, who.nowhere.id]);
    // From Lyon, the order turns around.
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "69002" });
    expect(await order("?sort=distance")).toEqual([who.lyon.id, who.paris.id, who.lille.id, who.nowhere.id]);
  });

  it("refuses an unknown sort with a French 400 naming the field", async () => {
    const response = await dentists(who.alice.cookie, "?sort=paid");
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty("sort");
  });

  it("never returns a postal code, the patient's or a dentist's", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "75001" });
    const text = (await dentists(who.alice.cookie, "?sort=distance")).body;
    for (const code of ["75001", "75008", "69001", "59000"]) expectNoPostalCode(text, code);
  });

  it("is for patients only", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/dentists/verified" })).statusCode).toBe(401);
    expect((await dentists(who.lyon.cookie)).statusCode).toBe(403);
  });
});

describe("a patient's postal code is theirs", () => {
  it("is not in another patient's answers", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "59800" });
    const bobMe = await ctx.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: who.bob.cookie },
    });
    expectNoPostalCode(bobMe.body, "59800");
    const bobList = await dentists(who.bob.cookie, "?sort=distance");
    expectNoPostalCode(bobList.body, "59800");
  });
});

describe("on a request: what the dentist sees, and the offers the patient reads", () => {
  it("shows the dentist the patient's commune and distance, never the postal code; the patient the dentist's", async () => {
    await patch(who.alice.cookie, { full_name: "Alice Test", postal_code: "75001" });
    const radio = { name: "radio.png", type: "image/png", content: tinyPng() };
    const created = await postRequest(
      ctx.app,
      who.alice.cookie,
      { treatment_type: "crown", consent: "true", document_types: '["quote","xray"]' },
      [devisPdf(), radio],
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;

    const seen = await ctx.app.inject({
      method: "GET",
      url: `/api/dentist/requests/${id}`,
      headers: { cookie: who.lyon.cookie },
    });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().patient_city).toBe("Paris");
    expect(seen.json().distance_km).toBeGreaterThanOrEqual(385);
    expect(seen.json().distance_km).toBeLessThanOrEqual(395);
    expectNoPostalCode(seen.body, "75001");
    expect(seen.body).not.toContain("postal_code");

    // The same on his list and dashboard: triage without opening the request.
    const asLyon = (url: string) =>
      ctx.app.inject({ method: "GET", url, headers: { cookie: who.lyon.cookie } });
    const list = await asLyon("/api/dentist/requests?page_size=50");
    const board = await asLyon("/api/dentist/dashboard");
    const rows = [
      list.json().items.find((r: { id: string }) => r.id === id),
      board.json().recent_requests.find((r: { id: string }) => r.id === id),
      board.json().todo.requests.items.find((r: { id: string }) => r.id === id),
    ];
    for (const row of rows) {
      expect(row).toMatchObject({ patient_city: "Paris", distance_km: seen.json().distance_km });
    }
    for (const body of [list.body, board.body]) {
      expectNoPostalCode(body, "75001");
      expect(body).not.toContain("postal_code");
    }

    // A dentist without a practice postcode sees the commune, without a distance.
    const fromNowhere = await ctx.app.inject({
      method: "GET",
      url: `/api/dentist/requests/${id}`,
      headers: { cookie: who.nowhere.cookie },
    });
    expect(fromNowhere.json()).toMatchObject({ patient_city: "Paris", distance_km: null });

    await sendOffer(id, who.lyon);
    const detail = await ctx.app.inject({
      method: "GET",
      url: `/api/patient/requests/${id}`,
      headers: { cookie: who.alice.cookie },
    });
    const offer = detail.json().offers[0];
    expect(offer.dentist.city).toBe("Lyon");
    expect(offer.dentist.distance_km).toBeGreaterThanOrEqual(385);
    expect(offer.dentist.distance_km).toBeLessThanOrEqual(395);
    expectNoPostalCode(detail.body, "69001");
  });
});

describe("the dentist's list by the patient's distance to his practice (ADR 094)", () => {
  const list = (as: Who, query: string) =>
    ctx.app.inject({
      method: "GET",
      url: `/api/dentist/requests?page_size=50&${query}`,
      headers: { cookie: as.cookie },
    });
  const idsOf = async (as: Who, query: string) => {
    const answer = await list(as, query);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json().items as { id: string }[]).map((row) => row.id);
  };
  /** A new patient living there (or nowhere said), and her request sent to every verified dentist. */
  async function requestFrom(first_name: string, postal_code: string | null) {
    const someone = await patient(ctx.app, { first_name });
    if (postal_code)
      expect((await patch(someone.cookie, { full_name: `${first_name} Test`, postal_code })).statusCode).toBe(
        200,
      );
    const created = await postRequest(
      ctx.app,
      someone.cookie,
      { treatment_type: "crown", consent: "true", document_types: '["quote"]' },
      [devisPdf()],
    );
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  }

  it("keeps the requests of patients within the distance chosen, as the list shows it, whatever the status", async () => {
    // From his practice in Paris 8e: Boulogne-Billancourt ≈ 6 km, Versailles ≈ 15 km, Lyon ≈ 390 km.
    const boulogne = await requestFrom("Nina", "92100");
    const versailles = await requestFrom("Victor", "78000");
    const lyon = await requestFrom("Léa", "69003");
    const unsaid = await requestFrom("Ugo", null);
    const all = await idsOf(who.paris, "");
    expect(all).toEqual(expect.arrayContaining([boulogne, versailles, lyon, unsaid]));
    expect((await list(who.paris, "")).json().distance_filter).toBe(true);

    const within10 = await idsOf(who.paris, "within_km=10");
    expect(within10).toContain(boulogne);
    expect(within10).not.toContain(versailles);
    expect(within10).not.toContain(lyon);
    // No distance known, nothing to keep it by.
    expect(within10).not.toContain(unsaid);
    const within25 = await idsOf(who.paris, "within_km=25");
    expect(within25).toEqual(expect.arrayContaining([boulogne, versailles]));
    expect(within25).not.toContain(lyon);
    // Each row kept is within it, by the distance the list shows.
    const rows = (await list(who.paris, "within_km=25")).json().items as { distance_km: number | null }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.distance_km).toBeLessThanOrEqual(25);

    // Answered: in « Répondu », with the same filter.
    await sendOffer(versailles, who.paris);
    expect(await idsOf(who.paris, "status=responded&within_km=25")).toContain(versailles);
    expect(await idsOf(who.paris, "status=responded&within_km=10")).not.toContain(versailles);
    // And « En attente » no longer has it.
    expect(await idsOf(who.paris, "status=pending&within_km=25")).not.toContain(versailles);
    expect(await idsOf(who.paris, "status=pending&within_km=25")).toContain(boulogne);
  });

  it("answers a French 400 naming the field for another distance, and where the practice has no point", async () => {
    const other = await list(who.paris, "within_km=30");
    expect(other.statusCode).toBe(400);
    expect(other.json().error.fields.within_km).toBe(GEO_MESSAGES.distanceFilterUnknown);

    // Seix (09140) is a commune without a point (ADR 019); a practice without a postcode neither.
    const seix = await dentist(ctx.app, { first_name: "Sandrine", practice_postcode: "09140" });
    for (const practice of [seix, who.nowhere as Who]) {
      expect((await list(practice, "")).json().distance_filter).toBe(false);
      const refused = await list(practice, "within_km=10");
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.within_km).toBe(GEO_MESSAGES.distanceFilterUnavailable);
    }
  });
});
