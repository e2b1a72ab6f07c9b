import { beforeAll, describe, expect, it } from "vitest";
import { OFFER_MESSAGES } from "../../../shared/schemas/offers";
import { tinyPng } from "../../sample-files";
import { tinyPdf, zipEntries } from "../../testing/files";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, dentist, peoplePerFile, USUAL_CAST, type Who } from "../../testing/people";
import { sendUnreadEmails } from "../conversations/conversations.service";

// A fixed clock: Saturday 21 November 2026, 10:00 in Paris (09:00 UTC).
const NOW = new Date("2026-11-21T09:00:00Z");
/** Moved by a test that needs its messages apart in time, then put back. */
let later = 0;

const ctx = appPerFile({ clock: () => new Date(NOW.getTime() + later) });
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, { ...USUAL_CAST, unverified: { unverified: "Ulysse" } });

async function createRequest(patient: Who, fields: Record<string, string> = {}) {
  const radio = { name: "radio.png", type: "image/png", content: tinyPng() };
  const response = await postRequest(
    ctx.app,
    patient.cookie,
    {
      treatment_type: "crown",
      consent: "true",
      quote_amount: "1200",
      document_types: '["quote","xray","xray"]',
      ...fields,
    },
    [devisPdf(), radio, radio],
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const offer = (requestId: string, payload: object, as?: Who) =>
  post(`/api/dentist/requests/${requestId}/offers`, payload, as);

const goodOffer = {
  amount_cents: 90_000,
  comment: "Couronne céramo-métallique, garantie 5 ans.",
  lines: [
    { act: "Couronne céramo-métallique", tooth: 36, fee_cents: 75_000 },
    { act: "Inlay-core", tooth: 36, fee_cents: 15_000 },
  ],
  valid_until: "2026-12-31",
  slots: ["2026-12-03T09:30", "2026-12-04T14:00"],
};

describe("sending an offer (ADR 008)", () => {
  it("records the offer, counts as the reply, opens the conversation and tells the patient", async () => {
    const paula = who.Paula as Who;
    const id = await createRequest(paula);
    const before = (await get(`/api/dentist/requests/${id}/offer`, who.drA)).json();
    expect(before).toEqual({ offer: null, may_offer: true, patient_age: null, last_fees: [] });

    const sent = await offer(id, goodOffer, who.drA);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().message).toBe("Votre proposition a été envoyée au patient");
    expect(sent.json().offer).toMatchObject({
      amount_cents: 90_000,
      valid_until: "2026-12-31",
      state: "sent",
      lines: [
        { act: "Couronne céramo-métallique", tooth: 36, fee_cents: 75_000 },
        { act: "Inlay-core", tooth: 36, fee_cents: 15_000 },
      ],
      // Paris wall-clock times, winter time (UTC+1).
      slots: ["2026-12-03T08:30:00.000Z", "2026-12-04T13:00:00.000Z"],
    });

    const mine = (await get(`/api/dentist/requests/${id}`, who.drA)).json();
    expect(mine.my_status).toBe("responded");
    expect(mine.conversation_id).toBe(sent.json().conversation_id);
    expect((await get(`/api/dentist/requests/${id}/offer`, who.drA)).json().may_offer).toBe(false);

    const detail = (await get(`/api/patient/requests/${id}`, paula)).json();
    expect(detail.status).toBe("in_review");
    expect(detail.offers).toHaveLength(1);
    expect(detail.offers[0]).toMatchObject({
      amount_cents: 90_000,
      state: "sent",
      dentist: { id: who.drA?.id, full_name: "Anne Martin", is_verified: true, city: "Paris" },
      conversation_id: sent.json().conversation_id,
    });
    expect(detail.replies[0].message).toContain("Proposition de devis\u202f: 900,00");
    // Sent after the commit, without holding the answer back.
    const mail = (await ctx.mails()).find((m) => m.includes(`/patient/request/${id}`));
    expect(mail).toContain("Le Dr Anne Martin vous propose un devis de 900,00");
    // That e-mail told of the offer's message: the unread-messages e-mail does not tell of it again.
    for (const minutes of [16, 90])
      await sendUnreadEmails({
        db: ctx.app.db,
        mailer: ctx.app.mailer,
        config: ctx.config,
        now: new Date(NOW.getTime() + minutes * 60_000),
        log: { error() {} },
      });
    expect(ctx.outbox().filter((m) => m.includes(paula.email) && m.includes("vous a écrit"))).toEqual([]);
  });

  it("lets a dentist who replied in words send an offer afterwards", async () => {
    const id = await createRequest(who.Paula as Who);
    expect(
      (await post(`/api/dentist/requests/${id}/reply`, { message: "Bonjour" }, who.drB)).statusCode,
    ).toBe(201);
    expect((await offer(id, { amount_cents: 80_000 }, who.drB)).statusCode).toBe(201);
    const replies = (await get(`/api/patient/requests/${id}`, who.Paula)).json().replies;
    expect(replies).toHaveLength(1);
  });

  it("shows the patient each dentist's latest word among the replies: a withdrawn offer as withdrawn", async () => {
    const id = await createRequest(who.Paula as Who);
    const sent = await offer(id, { amount_cents: 210_000 }, who.drB);
    expect(sent.statusCode, sent.body).toBe(201);
    const replies = async () => (await get(`/api/patient/requests/${id}`, who.Paula)).json().replies;
    expect((await replies())[0].message).toMatch(/^Proposition de devis\s: 2\s100,00/);
    try {
      later = 60_000;
      const withdrawn = await post(`/api/dentist/offers/${sent.json().offer.id}/withdraw`, {}, who.drB);
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      const [reply, ...others] = await replies();
      expect(others).toEqual([]);
      expect(reply.message).toMatch(/^Proposition de devis retirée\s: 2\s100,00/);
      // A new offer after it: that one.
      later = 120_000;
      expect((await offer(id, { amount_cents: 91_550 }, who.drB)).statusCode).toBe(201);
      expect((await replies())[0].message).toMatch(/^Proposition de devis\s: 915,50/);
    } finally {
      later = 0;
    }
  });

  it("makes one offer of a double click, and refuses a second one with the French message", async () => {
    const id = await createRequest(who.Paula as Who);
    const [a, b] = await Promise.all([offer(id, goodOffer, who.drA), offer(id, goodOffer, who.drA)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().error.message).toBe("Vous avez déjà envoyé une proposition pour cette demande.");
    const rows = await ctx.app.db.selectFrom("offers").select("id").where("request_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it("takes offers from several dentists at once, each their own", async () => {
    const id = await createRequest(who.Quentin as Who);
    const dentists = await Promise.all(
      Array.from({ length: 6 }, (_, i) => dentist(ctx.app, { first_name: `Dr${i}` })),
    );
    const results = await Promise.all(
      dentists.map((d, i) => offer(id, { amount_cents: 50_000 + i * 1000 }, d)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(dentists.map(() => 201));
    const detail = (await get(`/api/patient/requests/${id}`, who.Quentin)).json();
    expect(detail.offers).toHaveLength(6);
    expect(detail.replies).toHaveLength(6);
  });

  it("refuses offers once the dentist is confirmed, or on a cancelled request", async () => {
    const id = await createRequest(who.Paula as Who);
    await ctx.app.db
      .insertInto("request_dentists")
      .values({ request_id: id, dentist_id: who.drA?.id as string, status: "confirmed" })
      .execute();
    const closed = await offer(id, goodOffer, who.drA);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe("Cette demande n'accepte plus de propositions.");
    expect((await get(`/api/dentist/requests/${id}/offer`, who.drA)).json().may_offer).toBe(false);

    const cancelledId = await createRequest(who.Paula as Who);
    expect((await post(`/api/patient/requests/${cancelledId}/cancel`, {}, who.Paula)).statusCode).toBe(200);
    expect((await offer(cancelledId, goodOffer, who.drB)).statusCode).toBe(404);
  });

  it("shows the patient's age when the patient gave a birth date", async () => {
    const quentin = who.Quentin as Who;
    const patched = await ctx.app.inject({
      method: "PATCH",
      url: "/api/me",
      payload: { full_name: "Quentin Durand", birth_date: "1990-11-22" },
      headers: { cookie: quentin.cookie },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().profile.birth_date).toBe("1990-11-22");
    const future = await ctx.app.inject({
      method: "PATCH",
      url: "/api/me",
      payload: { full_name: "Quentin Durand", birth_date: "2030-01-01" },
      headers: { cookie: quentin.cookie },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields.birth_date).toBe("Date de naissance invalide");
    const id = await createRequest(quentin);
    // 22 November 1990 → 35 on 21 November 2026 (36 the next day).
    expect((await get(`/api/dentist/requests/${id}/offer`, who.drA)).json().patient_age).toBe(35);
  });
});

describe("offer validation (French messages, field by field)", () => {
  let id: string;
  beforeAll(async () => {
    id = await createRequest(who.Paula as Who);
  });
  const fieldsOf = async (payload: object) => {
    const response = await offer(id, payload, who.drB);
    expect(response.statusCode, response.body).toBe(400);
    return response.json().error.fields as Record<string, string>;
  };

  it("requires a positive amount in cents", async () => {
    expect((await fieldsOf({ comment: "x" })).amount_cents).toBe(
      "Veuillez indiquer le montant de votre proposition.",
    );
    expect((await fieldsOf({ amount_cents: 0 })).amount_cents).toMatch(/nombre positif/);
    expect((await fieldsOf({ amount_cents: 12.5 })).amount_cents).toMatch(/nombre positif/);
    expect((await fieldsOf({ amount_cents: 10_000_001 })).amount_cents).toBe(
      "Le montant ne peut pas dépasser 100 000 €.",
    );
  });

  it("checks the lines: act, FDI tooth, fee, total", async () => {
    const fields = await fieldsOf({
      amount_cents: 1000,
      lines: [
        { act: " ", tooth: 36, fee_cents: 500 },
        { act: "Soin", tooth: 19, fee_cents: 500 },
        { act: "Soin", tooth: 50, fee_cents: -1 },
      ],
    });
    expect(fields["lines.0.act"]).toBe("Veuillez décrire l'acte.");
    expect(fields["lines.1.tooth"]).toMatch(/notation FDI/);
    expect(fields["lines.2.tooth"]).toMatch(/notation FDI/);
    expect(fields["lines.2.fee_cents"]).toMatch(/montant positif/);
    const mismatch = await fieldsOf({
      amount_cents: 1000,
      lines: [{ act: "Soin", tooth: 11, fee_cents: 900 }],
    });
    expect(mismatch.lines).toBe("Le total des actes doit être égal au montant de la proposition.");
    for (const tooth of [11, 18, 21, 28, 31, 38, 41, 48])
      expect(
        (
          await offer(
            id,
            { amount_cents: 100, lines: [{ act: "Soin", tooth, fee_cents: 100 }] },
            who.unverified,
          )
        ).statusCode,
      ).toBe(404); // valid input: only the unverified dentist's visibility refuses it
  });

  it("wants slots in the future, at most three, no twice the same, and a validity from today", async () => {
    expect((await fieldsOf({ amount_cents: 100, slots: ["2026-11-21T09:30"] }))["slots.0"]).toBe(
      "Les créneaux proposés doivent être dans le futur.",
    );
    // 10:30 Paris is after 10:00 Paris: accepted by the timing rule (but four slots are too many).
    const four = await fieldsOf({
      amount_cents: 100,
      slots: ["2026-11-21T10:30", "2026-11-22T10:00", "2026-11-23T10:00", "2026-11-24T10:00"],
    });
    expect(four.slots).toBe("Vous pouvez proposer trois créneaux au maximum.");
    expect(
      (await fieldsOf({ amount_cents: 100, slots: ["2026-12-01T10:00", "2026-12-01T10:00"] }))["slots.1"],
    ).toBe("Ce créneau est proposé deux fois.");
    expect((await fieldsOf({ amount_cents: 100, slots: ["2026-12-01 10:00"] }))["slots.0"]).toBe(
      "Ce créneau n'est pas une date et une heure valides (jour du calendrier, heure de 00:00 à 23:59).",
    );
    expect((await fieldsOf({ amount_cents: 100, slots: ["2028-01-01T10:00"] }))["slots.0"]).toMatch(/année/);
    expect((await fieldsOf({ amount_cents: 100, valid_until: "2026-11-20" })).valid_until).toBe(
      "La date de validité doit être aujourd'hui ou plus tard.",
    );
    // A day that fits the pattern but is no date at all (month 13, year 0): a 400 too, never a 500.
    for (const valid_until of ["2026-02-30", "2026-13-01", "0000-00-00"])
      expect((await fieldsOf({ amount_cents: 100, valid_until })).valid_until).toBe(
        "La date de validité est invalide.",
      );
    const today = await offer(
      id,
      { amount_cents: 100, valid_until: "2026-11-21", slots: ["2026-11-21T10:30"] },
      who.drB,
    );
    expect(today.statusCode, today.body).toBe(201);
  });
});

describe("offer slots are real Paris wall-clock times (issue 32, ADR 038)", () => {
  let id: string;
  beforeAll(async () => {
    id = await createRequest(who.Paula as Who);
  });
  const refused = async (slots: unknown[]) => {
    const response = await offer(id, { amount_cents: 100, slots }, who.drB);
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe("VALIDATION_ERROR");
    return error as { message: string; fields: Record<string, string> };
  };
  const INVALID =
    "Ce créneau n'est pas une date et une heure valides (jour du calendrier, heure de 00:00 à 23:59).";

  it("refuses 24:00 and 99:99 instead of rolling them over, naming the slot", async () => {
    // 24:00 beside the next day's 00:00 (the same instant if rolled over): a 400, never a 500.
    const midnight = await refused(["2026-12-20T24:00", "2026-12-21T00:00"]);
    expect(midnight.fields).toEqual({ "slots.0": INVALID });
    expect(midnight.message).toBe(INVALID);
    expect((await refused(["2026-12-20T99:99"])).fields).toEqual({ "slots.0": INVALID });
    expect((await refused(["2026-12-10T10:00", "2027-02-29T10:00"])).fields).toEqual({ "slots.1": INVALID });
  });

  it("refuses the hour skipped by the spring clock change, and twice the same instant", async () => {
    const gap = await refused(["2027-03-28T02:30"]);
    expect(gap.fields["slots.0"]).toMatch(
      /^Cette heure n'existe pas à Paris ce jour-là \(passage à l'heure d'été/,
    );
    expect((await refused(["2026-12-01T10:00", "2026-12-01T10:00"])).fields).toEqual({
      "slots.1": "Ce créneau est proposé deux fois.",
    });
  });

  it("stores valid slots as their instants, the autumn repeated hour as its first occurrence", async () => {
    const other = await createRequest(who.Paula as Who);
    const response = await offer(
      other,
      { amount_cents: 100, slots: ["2027-03-28T03:30", "2026-12-20T23:59", "2027-10-31T02:30"] },
      who.drB,
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().offer.slots).toEqual([
      "2026-12-20T22:59:00.000Z",
      "2027-03-28T01:30:00.000Z",
      "2027-10-31T00:30:00.000Z",
    ]);
  });
});

describe("accepting the offer of a dentist no longer verified (D6)", () => {
  it("is refused in French, tells him nothing, and works again once he is verified", async () => {
    const drA = who.drA as Who;
    const requestId = await createRequest(who.Quentin as Who);
    const sent = await offer(requestId, goodOffer, drA);
    expect(sent.statusCode, sent.body).toBe(201);
    const offerId = sent.json().offer.id as string;
    const verified = (is_verified: boolean) =>
      ctx.app.db.updateTable("profiles").set({ is_verified }).where("id", "=", drA.id).execute();
    const accepted = async () =>
      (await ctx.mails()).filter(
        (m) => m.includes(`To: ${drA.email}`) && m.includes("a accepté votre proposition"),
      ).length;
    const mailsBefore = await accepted();
    await verified(false);
    try {
      const refused = await post(`/api/patient/offers/${offerId}/accept`, undefined, who.Quentin);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(OFFER_MESSAGES.dentistNotVerified);
      expect((await get(`/api/patient/requests/${requestId}`, who.Quentin)).json().status).not.toBe(
        "accepted",
      );
      expect(await accepted()).toBe(mailsBefore);
    } finally {
      await verified(true);
    }
    const ok = await post(`/api/patient/offers/${offerId}/accept`, undefined, who.Quentin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await accepted()).toBe(mailsBefore + 1);
  });
});

describe("who may send or read offers", () => {
  it("refuses the anonymous, patients, unverified dentists and dentists the request was not sent to", async () => {
    const toA = await createRequest(who.Paula as Who, { recipient: who.drA?.id as string });
    expect((await offer(toA, goodOffer)).statusCode).toBe(401);
    expect((await offer(toA, goodOffer, who.Paula)).statusCode).toBe(403);
    expect((await offer(toA, goodOffer, who.unverified)).statusCode).toBe(404);
    expect((await offer(toA, goodOffer, who.drB)).statusCode).toBe(404);
    expect((await get(`/api/dentist/requests/${toA}/offer`, who.drB)).statusCode).toBe(404);
    expect((await get(`/api/dentist/requests/${toA}/offer`, who.unverified)).statusCode).toBe(404);
    expect((await get(`/api/dentist/requests/not-a-uuid/offer`, who.drA)).statusCode).toBe(404);
    expect((await offer(toA, goodOffer, who.drA)).statusCode).toBe(201);
    // Another patient never sees the request or its offers.
    expect((await get(`/api/patient/requests/${toA}`, who.Quentin)).statusCode).toBe(404);
  });
});

describe("'Tout télécharger' (one zip)", () => {
  it("streams every document in one archive and records each download for the patient", async () => {
    const id = await createRequest(who.Paula as Who);
    const response = await get(`/api/dentist/requests/${id}/documents.zip`, who.drA);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="documents-/);
    const entries = await zipEntries(response.rawPayload);
    expect(entries).toEqual([
      { name: "devis.pdf", size: tinyPdf().length },
      { name: "radio.png", size: tinyPng().length },
      { name: "radio (2).png", size: tinyPng().length },
    ]);
    const log = (await get(`/api/patient/requests/${id}`, who.Paula)).json().access_log;
    expect(log).toHaveLength(3);
    expect(log.every((a: { action: string; actor_name: string }) => a.action === "download")).toBe(true);
  });

  it("is refused to whoever may not read the request", async () => {
    const toA = await createRequest(who.Paula as Who, { recipient: who.drA?.id as string });
    expect((await get(`/api/dentist/requests/${toA}/documents.zip`)).statusCode).toBe(401);
    expect((await get(`/api/dentist/requests/${toA}/documents.zip`, who.Paula)).statusCode).toBe(403);
    expect((await get(`/api/dentist/requests/${toA}/documents.zip`, who.drB)).statusCode).toBe(404);
    expect((await get(`/api/dentist/requests/${toA}/documents.zip`, who.unverified)).statusCode).toBe(404);
    expect((await get(`/api/patient/requests/${toA}`, who.Paula)).json().access_log).toHaveLength(0);
  });
});

describe("the devis's price an accepted offer is compared with (the public median saving, issue 36)", () => {
  // The patient's devis: three ceramo-metal molar crowns at 800 €, on 16, 26 and 36.
  const devis = [16, 26, 36].map((tooth) => ({ code: "HBLD734", act: "Couronne", tooth, fee_cents: 80_000 }));
  const compared = async (offerId: string) =>
    (
      await ctx.app.db
        .selectFrom("offers")
        .select("compared_quote_cents")
        .where("id", "=", offerId)
        .executeTakeFirstOrThrow()
    ).compared_quote_cents;
  const sendAndAccept = async (patient: Who, payload: object, fields: Record<string, string>) => {
    const requestId = await createRequest(patient, fields);
    const sent = await offer(requestId, { ...goodOffer, ...payload }, who.drB);
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().offer.id as string;
    expect(await compared(id)).toBeNull();
    const accepted = await post(`/api/patient/offers/${id}/accept`, undefined, patient);
    expect(accepted.statusCode, accepted.body).toBe(200);
    return id;
  };

  it("is the part of the devis the offer treats: one crown of three at 700 € saves 100 €, not 1 700 €", async () => {
    const paula = who.Paula as Who;
    const one = await sendAndAccept(
      paula,
      { amount_cents: 70_000, lines: [{ code: "HBLD734", act: "Couronne", tooth: 36, fee_cents: 70_000 }] },
      { quote_lines: JSON.stringify(devis), quote_amount: "2400" },
    );
    expect(await compared(one)).toBe(80_000);
    // Withdrawn, the acceptance no longer counts.
    expect((await post(`/api/patient/offers/${one}/unaccept`, undefined, paula)).statusCode).toBe(200);
    expect(await compared(one)).toBeNull();
    // No appointment had been asked: the dentist's e-mail does not speak of one cancelled.
    const withdrawn = async () => (await ctx.mails()).filter((m) => m.includes("a retiré son acceptation"));
    await expect.poll(async () => (await withdrawn()).length).toBe(1);
    expect((await withdrawn())[0]).not.toContain("annul");
  });

  it("is the whole devis for an offer treating it all, and unknown without lines on either side", async () => {
    const quentin = who.Quentin as Who;
    const all = await sendAndAccept(
      quentin,
      {
        amount_cents: 210_000,
        lines: [16, 26, 36].map((tooth) => ({ code: "HBLD734", act: "Couronne", tooth, fee_cents: 70_000 })),
      },
      { quote_lines: JSON.stringify(devis), quote_amount: "2400" },
    );
    expect(await compared(all)).toBe(240_000);
    // The devis as an amount only (1 200 €): what the offer treats of it is unknown.
    const amountOnly = await sendAndAccept(quentin, {}, {});
    expect(await compared(amountOnly)).toBeNull();
  });
});
