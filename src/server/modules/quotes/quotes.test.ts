import { describe, expect, it } from "vitest";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, peoplePerFile, type Who } from "../../testing/people";

/**
 * Issue 15, through the API: a structured original quote (on upload and later), two structured offers
 * (one refused above a 100 % Santé ceiling first), 'Ma mutuelle', and the comparison with the
 * out-of-pocket figures for the patient's cover, aligned by tooth.
 */

// A fixed clock: Wednesday 25 November 2026, 10:00 in Paris (the ceilings of 1 January 2026).
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
      { ...DEVIS[0], basket: "libre", br_cents: 12_000, ceiling_cents: null },
      // Above its 100 % Santé ceiling (180,25 € in 2026): flagged, not refused — it is her dentist's quote.
      { ...DEVIS[1], basket: "100_sante", br_cents: 9_000, ceiling_cents: 18_025 },
    ]);
    // Without a date given, the devis is taken as of today, and its lines use today's tariffs.
    expect(detail.quote_date).toBe("2026-11-25");
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
      "Indiquez un pourcentage de la base de remboursement entre 100\u202f% et 500\u202f%.",
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

    // Dr Anne: a 100 % Santé crown on 36, first above its 298,70 € ceiling (refused, the ceiling named).
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
    expect(tooHigh.json().error.fields["lines.0.fee_cents"]).toMatch(/plafond 100\s% Santé \(298,70\s€\)/);
    const sante = await sendOffer(
      id,
      who.drA as Who,
      [
        { code: "HBLD038", act: "Couronne métallique", tooth: 36, fee_cents: 29_870, br_cents: 1 },
        { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 18_000 },
      ],
      47_870,
    );
    expect(sante.statusCode, sante.body).toBe(201);
    // The BR sent by the browser is ignored for an act of the table.
    expect(sante.json().offer.lines[0]).toMatchObject({
      basket: "100_sante",
      br_cents: 12_000,
      ceiling_cents: 29_870,
    });

    // Dr Bruno: a zirconia molar crown (100 % Santé since 2026) and a ceramo-metal crown on 37 (free
    // tariff) the patient's quote did not have.
    const zircone = await sendOffer(
      id,
      who.drB as Who,
      [
        { code: "HBLD073", act: "Couronne zircone", tooth: 36, fee_cents: 45_000 },
        { code: "HBLD090", act: "Inlay-core", tooth: 36, fee_cents: 18_000 },
        { code: "HBLD734", act: "Couronne céramo-métallique", tooth: 37, fee_cents: 60_000 },
      ],
      123_000,
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
    // Her devis: crown (BR 120 €) 750 − 72 (AMO) − 168 (mutuelle) = 510 €; inlay-core 250 − 180,25 =
    // 69,75 € → 579,75 €.
    expect(body.original.total).toEqual({
      fee_cents: 100_000,
      br_cents: 21_000,
      amo_cents: 7_200 + 5_400,
      mutuelle_cents: 16_800 + 12_625,
      rest_cents: 57_975,
    });
    expect(body.original.tariff_day).toBe("2026-11-25");
    const [first, second] = body.offers;
    expect(first.offer_id).toBe(sante.json().offer.id);
    expect(first.estimate.total.rest_cents).toBe(0);
    expect(first.estimate.all_sante).toBe(true);
    expect(first.estimate.tariff_day).toBe("2026-11-25");
    expect(first.saving_cents).toBe(57_975);
    // Zirconia 450 € on 36: 100 % Santé within its 453,20 € ceiling → 0 €; inlay-core 0; the free-tariff
    // crown on 37: 600 − 72 − 168 = 360 €.
    expect(second.estimate.lines.map((l: { rest_cents: number }) => l.rest_cents)).toEqual([0, 0, 36_000]);
    expect(second.estimate.total.rest_cents).toBe(36_000);
    expect(second.saving_cents).toBe(21_975);
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
    expect(amoOnly.original.total.rest_cents).toBe(100_000 - 7_200 - 5_400);
  });

  it("saves only on the devis's teeth an offer treats, says it partial and ranks it after a whole one", async () => {
    const paula = who.Paula as Who;
    await call("DELETE", "/api/patient/cover", paula);
    // The devis, no mutuelle: HBLD734 on 36 and 46 at 800 € each, 728 € left to pay on each (1 456 €).
    const crown = (tooth: number, fee_cents: number) => ({
      code: "HBLD734",
      act: "Couronne céramo-métallique (molaire)",
      tooth,
      fee_cents,
    });
    const id = (
      await createRequest(paula, { quote_lines: JSON.stringify([crown(36, 80_000), crown(46, 80_000)]) })
    ).json().id;
    const onlyA = await sendOffer(id, who.drA as Who, [crown(36, 70_000)], 70_000);
    expect(onlyA.statusCode, onlyA.body).toBe(201);
    const bothB = await sendOffer(id, who.drB as Who, [crown(36, 70_000), crown(46, 70_000)], 140_000);
    expect(bothB.statusCode, bothB.body).toBe(201);
    const body = (await call("GET", `/api/patient/requests/${id}/comparison`, paula)).json();
    expect(body.original.total.rest_cents).toBe(145_600);
    const [first, second] = body.offers;
    // B: 1 456 − 1 256 = 200 €, first. A: on 36 only, 728 − 628 = 100 € (not 828 €), after B.
    expect(first).toMatchObject({
      offer_id: bothB.json().offer.id,
      saving_cents: 20_000,
      original_rest_cents: 145_600,
      partial: false,
      untreated_teeth: [],
    });
    expect(second).toMatchObject({
      offer_id: onlyA.json().offer.id,
      saving_cents: 10_000,
      original_rest_cents: 72_800,
      partial: true,
      untreated_teeth: [46],
      untreated_acts: [],
    });
    expect(second.estimate.total.rest_cents).toBe(62_800);
  });

  it("estimates an offer's act outside the table with the BR her devis states for it, not the dentist's (ADR 038)", async () => {
    const paula = who.Paula as Who;
    await call("DELETE", "/api/patient/cover", paula);
    // Her devis: HBLD036, outside the table, on 36 at 650 €, with the 120 € BR printed on it: 650 − 72 = 578 €.
    const act = { code: "HBLD036", act: "Acte hors table", tooth: 36 };
    const id = (
      await createRequest(paula, {
        quote_lines: JSON.stringify([{ ...act, fee_cents: 65_000, br_cents: 12_000 }]),
      })
    ).json().id;
    // Dr Anne: the same act at 550 €, with a BR of 600 € typed: stored as a free line with a BR of 0…
    const sent = await sendOffer(
      id,
      who.drA as Who,
      [{ ...act, fee_cents: 55_000, br_cents: 60_000 }],
      55_000,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().offer.lines[0]).toMatchObject({ basket: "libre", br_cents: 0 });
    // …estimated on her devis's 120 €: 550 − 72 = 478 €, 100 € saved (was 550 €, as if 28 € were saved).
    const body = (await call("GET", `/api/patient/requests/${id}/comparison`, paula)).json();
    expect(body.original.total.rest_cents).toBe(57_800);
    expect(body.offers[0].estimate.lines[0]).toMatchObject({ br_cents: 12_000, amo_cents: 7_200 });
    expect(body.offers[0].estimate.total.rest_cents).toBe(47_800);
    expect(body.offers[0].saving_cents).toBe(10_000);

    // As the screens send them (the reading, « Reprendre les actes du devis »): the code outside the
    // table in the free line's text. Her devis: HBMD038 on 36, 90 €, BR 40 € → 90 − 24 = 66 € left.
    const restoration = { code: null, act: "HBMD038 · Restauration 2 faces", tooth: 36 };
    const typed = (
      await createRequest(paula, {
        quote_lines: JSON.stringify([{ ...restoration, fee_cents: 9_000, br_cents: 4_000 }]),
      })
    ).json().id;
    const again = await sendOffer(typed, who.drA as Who, [{ ...restoration, fee_cents: 8_000 }], 8_000);
    expect(again.statusCode, again.body).toBe(201);
    const typedBody = (await call("GET", `/api/patient/requests/${typed}/comparison`, paula)).json();
    expect(typedBody.original.total.rest_cents).toBe(6_600);
    // 80 − 24 = 56 € (was 80 €, as if nothing were reimbursed), 10 € saved.
    expect(typedBody.offers[0].estimate.total).toMatchObject({ amo_cents: 2_400, rest_cents: 5_600 });
    expect(typedBody.offers[0].saving_cents).toBe(1_000);
  });
});

describe("the devis's date chooses the tariffs (issue 33)", () => {
  const ZIRCONIA = [{ code: "HBLD073", act: "Couronne zircone", tooth: 36, fee_cents: 45_000 }];

  it("estimates a devis of 15 December 2025 with 2025's basket and ceiling, one of 2026 with 2026's", async () => {
    const quentin = who.Quentin as Who;
    const id = (await createRequest(quentin)).json().id;
    await call("PUT", "/api/patient/cover", quentin, {
      percent_of_br: 200,
      ro_included: true,
      responsible: true,
    });
    const in2025 = await call("PUT", `/api/patient/requests/${id}/quote`, quentin, {
      lines: ZIRCONIA,
      quote_date: "2025-12-15",
    });
    expect(in2025.statusCode, in2025.body).toBe(200);
    expect(in2025.json()).toMatchObject({
      quote_date: "2025-12-15",
      lines: [{ code: "HBLD073", basket: "maitrise", br_cents: 12_000, ceiling_cents: 44_000 }],
    });
    const before = (await call("GET", `/api/patient/requests/${id}/comparison`, quentin)).json();
    expect(before.original.tariff_day).toBe("2025-12-15");
    // Maîtrisé in 2025: 450 − 72 − 168 = 210 € left to pay.
    expect(before.original.total.rest_cents).toBe(21_000);
    expect((await call("GET", `/api/patient/requests/${id}`, quentin)).json().quote_date).toBe("2025-12-15");

    const in2026 = await call("PUT", `/api/patient/requests/${id}/quote`, quentin, {
      lines: ZIRCONIA,
      quote_date: "2026-03-01",
    });
    expect(in2026.json().lines[0]).toMatchObject({ basket: "100_sante", ceiling_cents: 45_320 });
    const after = (await call("GET", `/api/patient/requests/${id}/comparison`, quentin)).json();
    expect(after.original.total.rest_cents).toBe(0);
  });

  it("refuses a date in the future, an impossible one or one over five years old, naming the field", async () => {
    const quentin = who.Quentin as Who;
    const id = (await createRequest(quentin)).json().id;
    const put = (quote_date: string) =>
      call("PUT", `/api/patient/requests/${id}/quote`, quentin, { lines: ZIRCONIA, quote_date });
    const future = await put("2026-11-26");
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields).toEqual({
      quote_date: "La date du devis ne peut pas être dans le futur.",
    });
    const impossible = await put("2025-02-30");
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json().error.fields.quote_date).toBe(
      "Date du devis invalide\u202f: indiquez le jour, le mois et l'année.",
    );
    expect((await put("2021-11-24")).json().error.fields.quote_date).toMatch(/plus de cinq ans/);
    const saved = () =>
      ctx.app.db.selectFrom("request_quote_lines").select("id").where("request_id", "=", id).execute();
    // Nothing was saved by the refused ones.
    expect(await saved()).toHaveLength(0);
    expect((await put("2021-11-25")).statusCode).toBe(200);
    expect(await saved()).toHaveLength(1);
  });

  it("takes the devis's date on upload too", async () => {
    const paula = who.Paula as Who;
    const response = await createRequest(paula, {
      quote_lines: JSON.stringify(ZIRCONIA),
      quote_date: "2025-06-01",
    });
    expect(response.statusCode, response.body).toBe(201);
    const detail = (await call("GET", `/api/patient/requests/${response.json().id}`, paula)).json();
    expect(detail.quote_date).toBe("2025-06-01");
    expect(detail.quote_lines[0]).toMatchObject({ basket: "maitrise", ceiling_cents: 44_000 });
    const future = await createRequest(paula, {
      quote_lines: JSON.stringify(ZIRCONIA),
      quote_date: "2027-01-01",
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields.quote_date).toBe("La date du devis ne peut pas être dans le futur.");
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

  it("names a coded line by the table: a 100 % Santé code under another act's name shows the table's act first", async () => {
    const paula = who.Paula as Who;
    const id = (await createRequest(paula)).json().id;
    // HBLD033, bridge métallique de 3 éléments: 100 % Santé in 2026, BR 279,50 €, ceiling 896,10 €. Sent
    // straight to the API under a zirconia bridge's name (the act picker would have made it a free line).
    const forged = await sendOffer(
      id,
      who.drA as Who,
      [{ code: "HBLD033", act: "Bridge zircone 3 éléments", tooth: 36, fee_cents: 89_610 }],
      89_610,
    );
    expect(forged.statusCode, forged.body).toBe(201);
    expect(forged.json().offer.lines[0]).toMatchObject({
      code: "HBLD033",
      act: "Bridge métallique de 3 éléments — Bridge zircone 3 éléments",
      basket: "100_sante",
      br_cents: 27_950,
    });
    // The picker's own forms: the label followed by the dentist's words is kept as written, the label's
    // beginning gives the whole label.
    const kept = await sendOffer(
      id,
      who.drB as Who,
      [
        { code: "HBLD033", act: "bridge métallique de 3 éléments, teinte A2", tooth: 36, fee_cents: 80_000 },
        { code: "HBLD090", act: "Inlay", tooth: 36, fee_cents: 9_000 },
      ],
      89_000,
    );
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().offer.lines.map((l: { act: string }) => l.act)).toEqual([
      "bridge métallique de 3 éléments, teinte A2",
      "Inlay-core sous couronne ou pilier 100 % Santé",
    ]);
    // An offer stored with such a name before this rule reads with the table's act first too.
    await ctx.app.db
      .updateTable("offer_lines")
      .set({ act: "Bridge zircone 3 éléments" })
      .where("offer_id", "=", kept.json().offer.id)
      .where("position", "=", 0)
      .execute();
    const detail = (await call("GET", `/api/patient/requests/${id}`, paula)).json();
    const stored = detail.offers.find((o: { id: string }) => o.id === kept.json().offer.id);
    expect(stored.lines[0].act).toBe("Bridge métallique de 3 éléments — Bridge zircone 3 éléments");
  });
});
