import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, peoplePerFile, type Who } from "../../testing/people";
import { recomputeStoredLines } from "./031_dated_tariffs";

/**
 * Issue 33: lines stored with the earlier, wrong table get the corrected table's basket, BR and ceiling
 * for their day — the devis's date (its request's creation day when it had none), the offer's day.
 */
const NOW = new Date("2026-11-25T09:00:00Z");
const ctx = appPerFile({ clock: () => NOW });
const { call } = api(ctx);
const who = peoplePerFile(ctx);

const line = (code: string, tooth: number | null, fee_cents: number) => ({
  code,
  act: "Acte",
  tooth,
  fee_cents,
});

describe("migration 031: stored lines recomputed with the dated table", () => {
  it("fixes baskets, BR and ceilings written by the old table, by each row's day, and keeps free lines", async () => {
    const paula = who.Paula as Who;
    const created = await postRequest(
      ctx.app,
      paula.cookie,
      {
        treatment_type: "crown",
        consent: "true",
        document_types: '["quote"]',
        quote_lines: JSON.stringify([
          line("HBLD073", 36, 45_000),
          line("HBLD734", 37, 70_000),
          line("HBLD724", 36, 6_000),
          { act: "Gouttière", tooth: null, fee_cents: 20_000, br_cents: 5_000 },
        ]),
      },
      [devisPdf()],
    );
    expect(created.statusCode, created.body).toBe(201);
    const requestId = created.json().id as string;
    const offer = await call("POST", `/api/dentist/requests/${requestId}/offers`, who.drA as Who, {
      amount_cents: 29_000,
      comment: "",
      lines: [line("HBLD038", 36, 29_000)],
      valid_until: "2026-12-31",
      slots: [],
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const offerId = offer.json().offer.id as string;

    // As the old table wrote them: HBLD073 maîtrisé at 453 €, HBLD734 with BR 107,50 €, HBLD724 100 %
    // Santé at 62 €; a devis without a date made on 10 December 2025; an offer made on 15 December 2025
    // with the 2025 ceiling 299 € the old table gave.
    const db = ctx.app.db;
    await db
      .updateTable("requests")
      .set({ quote_date: null, created_at: new Date("2025-12-10T10:00:00Z") })
      .where("id", "=", requestId)
      .execute();
    const old = {
      HBLD073: ["maitrise", 12_000, 45_300],
      HBLD734: ["libre", 10_750, null],
      HBLD724: ["100_sante", 1_000, 6_200],
    } as const;
    for (const [code, [basket, br_cents, ceiling_cents]] of Object.entries(old))
      await db
        .updateTable("request_quote_lines")
        .set({ basket, br_cents, ceiling_cents })
        .where("request_id", "=", requestId)
        .where("code", "=", code)
        .execute();
    await db
      .updateTable("offers")
      .set({ created_at: new Date("2025-12-15T10:00:00Z") })
      .where("id", "=", offerId)
      .execute();
    await db
      .updateTable("offer_lines")
      .set({ ceiling_cents: 29_900 })
      .where("offer_id", "=", offerId)
      .execute();

    await recomputeStoredLines(db as unknown as Kysely<unknown>);

    const devis = await db
      .selectFrom("request_quote_lines")
      .select(["code", "basket", "br_cents", "ceiling_cents"])
      .where("request_id", "=", requestId)
      .orderBy("position")
      .execute();
    expect(devis).toEqual([
      // Dated 10 December 2025: 2025's basket (maîtrisé) and ceiling (440 €) for the zirconia molar crown.
      { code: "HBLD073", basket: "maitrise", br_cents: 12_000, ceiling_cents: 44_000 },
      { code: "HBLD734", basket: "libre", br_cents: 12_000, ceiling_cents: null },
      { code: "HBLD724", basket: "maitrise", br_cents: 1_000, ceiling_cents: 6_000 },
      { code: null, basket: "libre", br_cents: 5_000, ceiling_cents: null },
    ]);
    const request = await db
      .selectFrom("requests")
      .select("quote_date")
      .where("id", "=", requestId)
      .executeTakeFirst();
    expect(request?.quote_date).toBe("2025-12-10");
    const offered = await db
      .selectFrom("offer_lines")
      .select(["basket", "ceiling_cents"])
      .where("offer_id", "=", offerId)
      .execute();
    expect(offered).toEqual([{ basket: "100_sante", ceiling_cents: 29_000 }]);

    // Run again, nothing changes; a devis dated in 2026 gets 2026's terms.
    await recomputeStoredLines(db as unknown as Kysely<unknown>);
    await db.updateTable("requests").set({ quote_date: "2026-02-01" }).where("id", "=", requestId).execute();
    await recomputeStoredLines(db as unknown as Kysely<unknown>);
    const zirconia = await db
      .selectFrom("request_quote_lines")
      .select(["basket", "ceiling_cents"])
      .where("request_id", "=", requestId)
      .where("code", "=", "HBLD073")
      .executeTakeFirst();
    expect(zirconia).toEqual({ basket: "100_sante", ceiling_cents: 45_320 });
  });
});
