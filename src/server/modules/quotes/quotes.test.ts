import { describe, expect, it } from "vitest";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, peoplePerFile, type Who } from "../../testing/people";

/**
 * Issue 15, through the API: a structured original quote (on upload and later), two structured offers
 * (one refused above a 100 % Santé ceiling first), 'Ma mutuelle', and the comparison with the
 * out-of-pocket figures for the patient's cover, aligned by tooth.
 */

// A fixed clock: Wednesday 25 November 2026, 10:00 in Paris (2025 ceilings).
const NOW = new Date("2026-11-25T09:00:00Z");

const ctx = appPerFile({ clock: () => NOW });
const { call } = api(ctx);
const who = peoplePerFile(ctx);

/** The patient's devis: a ceramo-metal crown on 36 at 750 € and an inlay-core on 36 at 250 €. */
const DEVIS = [
  { code: "HBLD734", act: "Couronne céramo-métallique (molaire)", tooth: 36, fee_cents: 75_000 },
  { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 25_000 },
];

async function createRequest(patient: Who, fields: Record<string, string> = {}) {
  const response = await postRequest(
    ctx.app,
    patient.cookie,
    { treatment_type: "crown", consent: "true", document_types: '["quote"]', ...fields },
    [devisPdf()],
  );
  return response;
}

/** A dentist's structured offer on a request: these lines, this total. */
const sendOffer = (requestId: string, as: Who | undefined, lines: object[], amount: number) =>
  call("POST", `/api/dentist/requests/${requestId}/offers`, as, {
    amount_cents: amount,
    comment: "",
    lines,
    valid_until: "2026-12-31",
    slots: [],
  });

describe("the patient's structured devis", () => {
  it("is stored on upload with basket, BR and ceiling from the table; the quote's amount is their total", async () => {
    const paula = who.Paula as Who;
    const response = await createRequest(paula, { quote_amount: "1", quote_lines: JSON.stringify(DEVIS) });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id;
    const detail = (await call("GET", `/api/patient/requests/${id}`, paula)).json();
    expect(detail.quote_amount_cents).toBe(100_000);
    expect(detail.quote_lines).toEqual([
      { ...DEVIS[0], basket: "libre", br_cents: 10_750, ceiling_cents: null },
      // Above its 100 % Santé ceiling (180 € in 2025): flagged, not refused — it is her dentist's quote.
      { ...DEVIS[1], basket: "100_sante", br_cents: 9_000, ceiling_cents: 18_000 },
    ]);
    // The dentists see it on the request, to start their offer from it.
    const seen = (await call("GET", `/api/dentist/requests/${id}`, who.drA as Who)).json();
    expect(seen.quote_lines).toHaveLength(2);
  });

  it("refuses unreadable or impossible lines on upload, naming the line's field, and saves nothing", async () => {
    const quentin = who.Quentin as Who;
    const before = await ctx.app.db.selectFrom("requests").select("id").execute();
    const bad = await createRequest(quentin, {
      quote_lines: JSON.stringify([{ code: "HBLD634", act: "Couronne", tooth: 36, fee_cents: 50_000 }]),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      "quote_lines.0.tooth": "Cet acte ne s'applique pas à la dent 36.",
    });
    const garbled = await createRequest(quentin, { quote_lines: "[{" });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().error.fields.quote_lines).toBe("Les lignes du devis sont illisibles.");
    expect(await ctx.app.db.selectFrom("requests").select("id").execute()).toHaveLength(before.length);
  });

  it("can be entered later and cleared while the request is open; never on someone else's", async () => {
    const quentin = who.Quentin as Who;
    const id = (await createRequest(quentin, { quote_amount: "900" })).json().id;
    const saved = await call("PUT", `/api/patient/requests/${id}/quote`, quentin, { lines: DEVIS });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      quote_amount_cents: 100_000,
      message: "Votre devis a été enregistré",
    });
    const stranger = await call("PUT", `/api/patient/requests/${id}/quote`, who.Paula as Who, { lines: [] });
    expect(stranger.statusCode).toBe(404);
    expect((await call("GET", `/api/patient/requests/${id}/comparison`, who.Paula as Who)).statusCode).toBe(
      404,
    );
    const cleared = await call("PUT", `/api/patient/requests/${id}/quote`, quentin, { lines: [] });
    expect(cleared.json()).toMatchObject({ lines: [], quote_amount_cents: 100_000 });
    await call("POST", `/api/patient/requests/${id}/cancel`, quentin);
    const closed = await call("PUT", `/api/patient/requests/${id}/quote`, quentin, { lines: DEVIS });
    expect(closed.statusCode).toBe(409);
  });
});

describe("'Ma mutuelle'", () => {
  it("is the patient's own: saved, read, validated in French, removed", async () => {
    const quentin = who.Quentin as Who;
    expect((await call("GET", "/api/patient/cover", quentin)).json()).toEqual({ cover: null });
    const bad = await call("PUT", "/api/patient/cover", quentin, { percent_of_br: 50, ro_included: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.percent_of_br).toBe(
      "Indiquez un pourcentage de la base de remboursement entre 100 % et 500 %.",
    );
    const cover = { percent_of_br: 300, ro_included: false, annual_ceiling_cents: 80_000 };
    const saved = await call("PUT", "/api/patient/cover", quentin, cover);
    expect(saved.json().cover).toEqual({ ...cover, implant_allowance_cents: null, responsible: true });
    expect((await call("GET", "/api/patient/cover", who.Paula as Who)).json()).toEqual({ cover: null });
    expect((await call("DELETE", "/api/patient/cover", quentin)).json().cover).toBeNull();
    expect((await call("GET", "/api/patient/cover", quentin)).json()).toEqual({ cover: null });
    const dentistAsks = await call("GET", "/api/patient/cover", who.drA as Who);
    expect(dentistAsks.statusCode).toBe(403);
  });
});

describe("structured offers and the comparison", () => {
  it("refuses an offer line above its ceiling, then compares two offers by reste à charge, tooth by tooth", async () => {
    const paula = who.Paula as Who;
    const id = (await createRequest(paula, { quote_lines: JSON.stringify(DEVIS) })).json().id;

    // Dr Anne: a 100 % Santé crown on 36, first above its 299 € ceiling (refused, the ceiling named).
    const tooHigh = await sendOffer(
      id,
      who.drA as Who,
      [
        { code: "HBLD038", act: "Couronne métallique", tooth: 36, fee_cents: 35_000 },
        { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 18_000 },
      ],
      53_000,
    );
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().error.fields["lines.0.fee_cents"]).toMatch(/plafond 100 % Santé \(299,00\s€\)/);
    const sante = await sendOffer(
      id,
      who.drA as Who,
      [
        { code: "HBLD038", act: "Couronne métallique", tooth: 36, fee_cents: 29_900, br_cents: 1 },
        { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 18_000 },
      ],
      47_900,
    );
    expect(sante.statusCode, sante.body).toBe(201);
    // The BR sent by the browser is ignored for an act of the table.
    expect(sante.json().offer.lines[0]).toMatchObject({
      basket: "100_sante",
      br_cents: 12_000,
      ceiling_cents: 29_900,
    });

    // Dr Bruno: a zirconia crown (maîtrisé) and a crown on 37 the patient's quote did not have.
    const zircone = await sendOffer(
      id,
      who.drB as Who,
      [
        { code: "HBLD073", act: "Couronne zircone", tooth: 36, fee_cents: 45_000 },
        { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 18_000 },
        { code: "HBLD038", act: "Couronne métallique", tooth: 37, fee_cents: 29_900 },
      ],
      92_900,
    );
    expect(zircone.statusCode, zircone.body).toBe(201);

    // 'Ma mutuelle': 200 % of the BR, Assurance Maladie included, contrat responsable.
    await call("PUT", "/api/patient/cover", paula, {
      percent_of_br: 200,
      ro_included: true,
      responsible: true,
    });
    const comparison = await call("GET", `/api/patient/requests/${id}/comparison`, paula);
    expect(comparison.statusCode, comparison.body).toBe(200);
    const body = comparison.json();
    expect(body.cover.percent_of_br).toBe(200);
    // Her devis: crown 750 − 64,50 (AMO) − 150,50 (mutuelle) = 535 €; inlay-core 250 − 180 = 70 € → 605 €.
    expect(body.original.total).toEqual({
      fee_cents: 100_000,
      br_cents: 19_750,
      amo_cents: 6_450 + 5_400,
      mutuelle_cents: 15_050 + 12_600,
      rest_cents: 60_500,
    });
    const [first, second] = body.offers;
    expect(first.offer_id).toBe(sante.json().offer.id);
    expect(first.estimate.total.rest_cents).toBe(0);
    expect(first.estimate.all_sante).toBe(true);
    expect(first.saving_cents).toBe(60_500);
    // Zirconia 450 € (BR 120: AMO 72, mutuelle 168 → 210 €) + inlay-core 0 + crown on 37 0 → 210 €.
    expect(second.estimate.total.rest_cents).toBe(21_000);
    expect(second.saving_cents).toBe(39_500);
    expect(body.rows.map((row: { tooth: number }) => row.tooth)).toEqual([36, 37]);
    expect(body.rows[0].offers.map((o: { flag: string }) => o.flag)).toEqual([
      "different_material",
      "different_material",
    ]);
    expect(body.rows[1].offers.map((o: { flag: string }) => o.flag)).toEqual(["same", "extra"]);

    // Without a mutuelle: the Assurance Maladie only.
    await call("DELETE", "/api/patient/cover", paula);
    const amoOnly = (await call("GET", `/api/patient/requests/${id}/comparison`, paula)).json();
    expect(amoOnly.cover).toBeNull();
    expect(amoOnly.original.total.mutuelle_cents).toBe(0);
    expect(amoOnly.original.total.rest_cents).toBe(100_000 - 6_450 - 5_400);
  });
});

describe("a dentist cannot set a BR (issue 32)", () => {
  it("stores a free line's BR as 0 whatever is sent, and the comparison leaves its whole fee to pay", async () => {
    const paula = who.Paula as Who;
    const id = (await createRequest(paula)).json().id;
    // A generous mutuelle: 300 % of the BR, Assurance Maladie included.
    const cover = await call("PUT", "/api/patient/cover", paula, {
      percent_of_br: 300,
      ro_included: true,
      responsible: true,
    });
    expect(cover.statusCode, cover.body).toBe(200);
    // The example: a 3 000 € line outside the table claiming a 3 000 € BR and the 100 % Santé basket.
    const forged = await sendOffer(
      id,
      who.drA as Who,
      [
        {
          code: null,
          act: "Bridge céramique 100 % Santé",
          tooth: null,
          fee_cents: 300_000,
          br_cents: 300_000,
          basket: "100_sante",
          ceiling_cents: 999_999,
        },
      ],
      300_000,
    );
    expect(forged.statusCode, forged.body).toBe(201);
    const free = { basket: "libre", br_cents: 0, ceiling_cents: null };
    expect(forged.json().offer.lines).toEqual([
      { code: null, act: "Bridge céramique 100 % Santé", tooth: null, fee_cents: 300_000, ...free },
    ]);
    // A code the table does not know is a free line too.
    const unknownCode = await sendOffer(
      id,
      who.drB as Who,
      [{ code: "HBLD999", act: "Bridge", tooth: 36, fee_cents: 250_000, br_cents: 250_000 }],
      250_000,
    );
    expect(unknownCode.statusCode, unknownCode.body).toBe(201);
    expect(unknownCode.json().offer.lines).toEqual([
      { code: "HBLD999", act: "Bridge", tooth: 36, fee_cents: 250_000, ...free },
    ]);

    const comparison = await call("GET", `/api/patient/requests/${id}/comparison`, paula);
    expect(comparison.statusCode, comparison.body).toBe(200);
    const byOffer = Object.fromEntries(
      comparison.json().offers.map((o: { offer_id: string; estimate: unknown }) => [o.offer_id, o.estimate]),
    );
    // Neither the Assurance Maladie nor the mutuelle pays for a free line: the whole 3 000 € is left to pay.
    expect(byOffer[forged.json().offer.id]).toMatchObject({
      total: { fee_cents: 300_000, br_cents: 0, amo_cents: 0, mutuelle_cents: 0, rest_cents: 300_000 },
      all_sante: false,
    });
    expect(byOffer[unknownCode.json().offer.id].total).toEqual({
      fee_cents: 250_000,
      br_cents: 0,
      amo_cents: 0,
      mutuelle_cents: 0,
      rest_cents: 250_000,
    });
    // The offer as the patient reads it says the same.
    const detail = (await call("GET", `/api/patient/requests/${id}`, paula)).json();
    for (const offer of detail.offers) expect(offer.lines[0]).toMatchObject(free);
    await call("DELETE", "/api/patient/cover", paula);
  });
});
