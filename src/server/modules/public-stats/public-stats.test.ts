import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MeasuredFigures,
  PUBLIC_STATS_MESSAGES,
  roundedDownBelow,
} from "../../../shared/schemas/publicStats";
import { createTestContext, signUpPatient, type TestContext } from "../../testing/harness";
import { dentist, patient } from "../../testing/people";
import { systemPublicStats } from "./public-stats.repo";
import { PUBLIC_STATS_PER_MINUTE, PUBLIC_STATS_TTL_MS } from "./public-stats.routes";
import { publicStatsWithText } from "./public-stats.service";

let ctx: TestContext;
let now = new Date("2026-11-21T09:00:00Z");
beforeAll(async () => {
  ctx = await createTestContext({ clock: () => now });
});
afterAll(async () => ctx?.close());

const stats = (ip = "203.0.113.1") =>
  ctx.app.inject({ method: "GET", url: "/api/public/stats", remoteAddress: ip });

/** `count` new patients, each with one request (one of them with two: counted once). */
async function patientsWithRequests(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { body, response } = await signUpPatient(ctx.app);
    expect(response.statusCode).toBe(201);
    const { id } = await ctx.app.db
      .selectFrom("profiles")
      .select("id")
      .where("email", "=", body.email)
      .executeTakeFirstOrThrow();
    const times = i === 0 ? 2 : 1;
    for (let n = 0; n < times; n++) {
      await ctx.app.db.insertInto("requests").values({ patient_id: id, treatment_type: "crown" }).execute();
    }
  }
}

describe("roundedDownBelow", () => {
  it("gives the largest multiple of ten strictly below the count", () => {
    expect(roundedDownBelow(0)).toBe(0);
    expect(roundedDownBelow(9)).toBe(0);
    expect(roundedDownBelow(10)).toBe(0);
    expect(roundedDownBelow(11)).toBe(10);
    expect(roundedDownBelow(12_345)).toBe(12_340);
  });
});

describe("the figures as the landing page writes them (publicStatsWithText)", () => {
  const none: MeasuredFigures = {
    patients: 0,
    first_offer_hours: null,
    saving: null,
    verified_dentists: 0,
    rating: null,
  };
  const text = (figures: Partial<MeasuredFigures>) => publicStatsWithText({ ...none, ...figures }).text;

  it("groups digits the French way (U+202F) and writes the patients from ten on", () => {
    expect(text({ patients: 1230 }).patients).toBe("+ de 1\u202f230");
    expect(text({ patients: 10 }).patients).toBe("+ de 10");
    expect(text({ patients: 9 }).patients).toBeNull();
    expect(text({ verified_dentists: 1234 }).verified_dentists).toBe("1\u202f234");
    expect(text({ verified_dentists: 1 }).verified_dentists).toBe("1");
    expect(text({ verified_dentists: 0 }).verified_dentists).toBeNull();
  });

  it("writes the delay in hours under two days, in days from two days on", () => {
    const delay = (median: number) => text({ first_offer_hours: { median, sample: 30 } }).first_offer_hours;
    expect(delay(0.5)).toBe("moins d'1 h");
    expect(delay(16.5)).toBe("17\u00a0h");
    expect(delay(47.4)).toBe("47\u00a0h");
    expect(delay(50)).toBe("2 jours");
    expect(text({}).first_offer_hours).toBeNull();
  });

  it("writes the saving as a percentage and its amount in euros, the rating with one decimal", () => {
    expect(text({ saving: { median_percent: 16, median_cents: 16_000, sample: 31 } }).saving).toBe(
      "16\u00a0% (160,00\u00a0€)",
    );
    expect(text({ saving: { median_percent: 24, median_cents: 127_350, sample: 36 } }).saving).toBe(
      "24\u00a0% (1\u202f273,50\u00a0€)",
    );
    expect(text({ rating: { average: 4.5, sample: 31 } }).rating).toBe("4,5/5");
    expect(text({ rating: { average: 4, sample: 31 } }).rating).toBe("4,0/5");
    expect(text({}).saving).toBeNull();
    expect(text({}).rating).toBeNull();
  });
});

describe("GET /api/public/stats", () => {
  it("answers anyone, without a session, with the rounded count of patients who sent a request", async () => {
    const empty = await stats();
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      patients: 0,
      first_offer_hours: null,
      saving: null,
      verified_dentists: 0,
      rating: null,
      text: { patients: null, first_offer_hours: null, saving: null, verified_dentists: null, rating: null },
    });
    expect(empty.headers["cache-control"]).toBe(`public, max-age=${PUBLIC_STATS_TTL_MS / 1000}`);
    expect(empty.headers["set-cookie"]).toBeUndefined();

    // A patient without a request is not counted; 12 with requests → "+ de 10".
    expect((await signUpPatient(ctx.app)).response.statusCode).toBe(201);
    await patientsWithRequests(12);

    // Still the cached figure until the cache expires.
    expect((await stats()).json()).toMatchObject({ patients: 0 });
    now = new Date(now.getTime() + PUBLIC_STATS_TTL_MS + 1000);
    const fresh = await stats();
    expect(fresh.json()).toMatchObject({ patients: 10, text: { patients: "+ de 10" } });
    // Only the figures and their texts: no names, no ids.
    expect(Object.keys(fresh.json())).toEqual([
      "patients",
      "first_offer_hours",
      "saving",
      "verified_dentists",
      "rating",
      "text",
    ]);
  });

  it("is rate-limited per address with a French message", async () => {
    const ip = "203.0.113.99";
    for (let i = 0; i < PUBLIC_STATS_PER_MINUTE; i++) expect((await stats(ip)).statusCode).toBe(200);
    const refused = await stats(ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: { code: "RATE_LIMITED", message: PUBLIC_STATS_MESSAGES.tooMany },
    });
    // Another address is not affected.
    expect((await stats("203.0.113.100")).statusCode).toBe(200);
  });
});

describe("the public figures' queries (issue 36), on a seeded set with known medians", () => {
  const HOUR = 3_600_000;
  it("gives the median delay, the median saving, the dentists and the average mark; nothing below 30 cases", async () => {
    const at = new Date("2026-11-21T09:00:00Z");
    const p = await patient(ctx.app);
    const drA = await dentist(ctx.app, { first_name: "Anne" });
    const drB = await dentist(ctx.app, { first_name: "Bruno" });
    await dentist(ctx.app, { first_name: "Ulysse" }, false);
    const db = ctx.app.db;
    const request = async (created: Date, quoteCents: number | null) =>
      (
        await db
          .insertInto("requests")
          .values({
            patient_id: p.id,
            treatment_type: "crown",
            created_at: created,
            quote_amount_cents: quoteCents,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const offer = (
      requestId: string,
      dentistId: string,
      created: Date,
      cents: number,
      status: "sent" | "accepted",
      compared = true,
    ) =>
      db
        .insertInto("offers")
        .values({
          request_id: requestId,
          dentist_id: dentistId,
          amount_cents: cents,
          status,
          created_at: created,
          updated_at: created,
          // Accepted against a devis of 1 000 € whose lines it all treats (what acceptOffer writes).
          compared_quote_cents: status === "accepted" && compared ? 100_000 : null,
        })
        .execute();
    const review = (rating: number, status: "published" | "pending") =>
      db
        .insertInto("reviews")
        .values({
          patient_id: p.id,
          dentist_id: drA.id,
          appointment_starts_at: new Date(at.getTime() - 30 * 24 * HOUR),
          rating,
          text: "Un avis de plus de vingt caractères.",
          author_title: "patiente",
          status,
          published_at: status === "published" ? at : null,
        })
        .execute();

    // 29 cases: not enough for any figure.
    const created: string[] = [];
    for (let k = 1; k <= 29; k++) {
      const start = new Date(at.getTime() - 10 * 24 * HOUR);
      const id = await request(start, 100_000);
      created.push(id);
      // First offer k hours after the request (a later one from the other dentist does not count);
      // accepted at 100 000 − k × 1 000 cents: a saving of k × 10 € (k %).
      await offer(id, drA.id, new Date(start.getTime() + k * HOUR), 100_000 - k * 1_000, "accepted");
      await offer(id, drB.id, new Date(start.getTime() + (k + 100) * HOUR), 90_000, "sent");
      await review(k <= 15 ? 5 : 4, "published");
    }
    const below = await systemPublicStats(db, at);
    expect(below).toMatchObject({
      first_offer_hours: null,
      saving: null,
      rating: null,
      verified_dentists: 2,
    });

    for (let k = 30; k <= 31; k++) {
      const start = new Date(at.getTime() - 10 * 24 * HOUR);
      const id = await request(start, 100_000);
      await offer(id, drA.id, new Date(start.getTime() + k * HOUR), 100_000 - k * 1_000, "accepted");
      await review(4, "published");
    }
    // Not counted: a request older than 90 days (1 000 h to its offer), one without a devis to compare
    // with (accepted at 10 €), one without an offer, a pending review marked 1.
    const old = await request(new Date(at.getTime() - 100 * 24 * HOUR), 100_000);
    await offer(old, drA.id, new Date(at.getTime() - 100 * 24 * HOUR + 1_000 * HOUR), 1_000, "sent");
    const noQuote = await request(new Date(at.getTime() - 5 * 24 * HOUR), null);
    await offer(
      noQuote,
      drB.id,
      new Date(at.getTime() - 5 * 24 * HOUR + 31 * HOUR),
      1_000,
      "accepted",
      false,
    );
    await request(new Date(at.getTime() - 24 * HOUR), 50_000);
    await review(1, "pending");

    const figures = await systemPublicStats(db, at);
    // Delays 1 … 31 h, and 31 h for the request without a devis amount: 32 cases, median (16 + 17) / 2.
    expect(figures.first_offer_hours).toEqual({ median: 16.5, sample: 32 });
    // Savings 10 € … 310 € (1 % … 31 %): median 160 €, 16 %.
    expect(figures.saving).toEqual({ median_cents: 16_000, median_percent: 16, sample: 31 });
    expect(figures.verified_dentists).toBe(2);
    // 15 × 5 and 16 × 4: 140 / 31 = 4.516… → 4.5.
    expect(figures.rating).toEqual({ average: 4.5, sample: 31 });
    expect(created).toHaveLength(29);
    // What the landing page shows for them (the patients: the other tests' too, same database).
    expect(publicStatsWithText(figures).text).toMatchObject({
      first_offer_hours: "17\u00a0h",
      saving: "16\u00a0% (160,00\u00a0€)",
      verified_dentists: "2",
      rating: "4,5/5",
    });
  });
});

describe("the average mark counts only the reviews patients read (D6)", () => {
  // Its own database: the figures above are measured on everything the other tests wrote.
  let own: TestContext;
  beforeAll(async () => {
    own = await createTestContext({ clock: () => now });
  });
  afterAll(async () => own?.close());

  it("leaves out the reviews of a dentist not verified, from the average and from the 30-review threshold", async () => {
    const at = new Date("2026-11-21T09:00:00Z");
    const db = own.app.db;
    const p = await patient(own.app);
    const verified = await dentist(own.app, { first_name: "Vera" });
    const pending = await dentist(own.app, { first_name: "Paul" }, false);
    const reviews = async (dentistId: string, rating: number, count: number) => {
      for (let n = 0; n < count; n++)
        await db
          .insertInto("reviews")
          .values({
            patient_id: p.id,
            dentist_id: dentistId,
            appointment_starts_at: new Date(at.getTime() - 30 * 86_400_000),
            rating,
            text: "Un avis de plus de vingt caractères.",
            author_title: "patiente",
            status: "published",
            published_at: at,
          })
          .execute();
    };
    const rating = async () => (await systemPublicStats(db, at)).rating;
    const setVerified = (is_verified: boolean) =>
      db.updateTable("profiles").set({ is_verified }).where("id", "=", pending.id).execute();

    // 29 reviews patients read (15 × 5, 14 × 3) and 10 they never see (1 each, of the dentist whose
    // verification is pending): 39 published, but only 29 shown, under the threshold of 30.
    await reviews(verified.id, 5, 15);
    await reviews(verified.id, 3, 14);
    await reviews(pending.id, 1, 10);
    expect(await rating()).toBeNull();

    // One more 3: 30 shown, (15 × 5 + 15 × 3) / 30 = 4,0; the 1s of the dentist not verified are not
    // in it (counted, they would give 130 / 40 = 3,25).
    await reviews(verified.id, 3, 1);
    const figures = await systemPublicStats(db, at);
    expect(figures.rating).toEqual({ average: 4, sample: 30 });
    expect(publicStatsWithText(figures).text.rating).toBe("4,0/5");

    // Verified, his reviews are read, and counted; withdrawn again, they leave the figure.
    await setVerified(true);
    expect(await rating()).toEqual({ average: 3.3, sample: 40 });
    await setVerified(false);
    expect(await rating()).toEqual({ average: 4, sample: 30 });
  });
});
