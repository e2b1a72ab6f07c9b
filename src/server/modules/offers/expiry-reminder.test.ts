import { describe, expect, it } from "vitest";
import { runMailJobs } from "../../jobs";
import { tinyPng } from "../../sample-files";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, peoplePerFile, type Who } from "../../testing/people";
import { OFFER_EXPIRY_REMINDER_DAYS, sendOfferExpiryReminders } from "./offers.service";

/*
 * Offers about to expire (ADR 087): from 9:00 Paris time, three days before an offer's last valid day,
 * its patient is reminded once — only while she may still accept it, not for an offer sent less than a
 * day before, not when she stopped reminders; one e-mail per request, never the amounts.
 */

// A movable clock: Monday 16 November 2026 (Paris is UTC+1), 8:00 in Paris to begin with.
let now = new Date("2026-11-16T07:00:00Z");
const at = (iso: string) => {
  now = new Date(iso);
};
const ctx = appPerFile({ clock: () => now });
const { post, call } = api(ctx);
const who = peoplePerFile(ctx, {
  patients: ["Paula", "Quentin", "Rita"],
  lastName: "Durand",
  dentists: { drA: "Anne", drB: "Bruno", drC: "Chloé" },
});

const run = () =>
  sendOfferExpiryReminders({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    now,
    log: { error() {} },
  });

async function createRequest(patient: Who) {
  const radio = { name: "radio.png", type: "image/png", content: tinyPng() };
  const response = await postRequest(
    ctx.app,
    patient.cookie,
    { treatment_type: "crown", consent: "true", quote_amount: "1200", document_types: '["quote","xray"]' },
    [devisPdf(), radio],
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function offer(requestId: string, dentist: Who, validUntil: string) {
  const sent = await post(
    `/api/dentist/requests/${requestId}/offers`,
    {
      amount_cents: 87_300,
      comment: "Couronne céramo-métallique, garantie 5 ans.",
      valid_until: validUntil,
      slots: ["2026-12-03T09:30"],
    },
    dentist,
  );
  expect(sent.statusCode, sent.body).toBe(201);
  return sent.json().offer.id as string;
}

/** The reminders sent to this patient. */
const remindersTo = (patient: Who) =>
  ctx.outbox().filter((m) => m.includes(`To: ${patient.email}`) && m.includes("expire"));

describe("offers about to expire (ADR 087)", () => {
  it("reminds the patient once, three days before, from 9:00, only while she may accept, one e-mail per request", async () => {
    const [paula, quentin, rita] = [who.Paula, who.Quentin, who.Rita] as [Who, Who, Who];
    const [drA, drB, drC] = [who.drA, who.drB, who.drC] as [Who, Who, Who];
    expect(OFFER_EXPIRY_REMINDER_DAYS).toBe(3);

    // Monday: Paula's request has two offers valid until Friday 20, one until 15 December.
    const first = await createRequest(paula);
    await offer(first, drA, "2026-11-20");
    await offer(first, drB, "2026-11-20");
    await offer(first, drC, "2026-12-15");
    // Quentin accepted his offer (valid until Thursday): nothing to remind.
    const accepted = await offer(await createRequest(quentin), drA, "2026-11-19");
    expect((await post(`/api/patient/offers/${accepted}/accept`, undefined, quentin)).statusCode).toBe(200);
    // Rita stopped reminders (ADR 081).
    await offer(await createRequest(rita), drB, "2026-11-19");
    const stop = await call("PATCH", "/api/me/email-preferences", rita, { reminders: false });
    expect(stop.statusCode, stop.body).toBe(200);

    // Tuesday 8:59 in Paris: not yet.
    at("2026-11-17T07:59:00Z");
    expect(await run()).toBe(0);
    // 9:00: Friday is three days away. One e-mail for Paula's two offers.
    at("2026-11-17T08:00:00Z");
    // The server's mail job (jobs.ts) runs it.
    expect(await runMailJobs(ctx.app)).toBe(true);
    const [mail] = remindersTo(paula);
    expect(remindersTo(paula)).toHaveLength(1);
    expect(mail).toContain("Bonjour Paula,");
    expect(mail).toContain("- Dr Anne Martin : jusqu'au 20 novembre 2026");
    expect(mail).toContain("- Dr Bruno Martin : jusqu'au 20 novembre 2026");
    expect(mail).not.toContain("Chloé");
    expect(mail).toContain(`${ctx.config.publicUrl}/patient/request/${first}\n`);
    expect(mail).toContain(`${ctx.config.publicUrl}/patient/profile#notifications`);
    for (const secret of ["873,00", "Couronne", "couronne", "garantie"]) expect(mail).not.toContain(secret);
    expect(remindersTo(quentin)).toHaveLength(0);
    expect(remindersTo(rita)).toHaveLength(0);

    // Later that day, a second request with an offer valid until Thursday: sent less than a day ago,
    // not yet; never again for the first ones.
    at("2026-11-17T10:00:00Z");
    const second = await createRequest(paula);
    await offer(second, drC, "2026-11-19");
    at("2026-11-17T15:00:00Z");
    expect(await run()).toBe(0);
    // Wednesday 11:30 in Paris, a day after it was sent; two instances at once: one e-mail.
    at("2026-11-18T10:30:00Z");
    expect((await Promise.all([run(), run()])).sort()).toEqual([0, 1]);
    expect(remindersTo(paula)).toHaveLength(2);
    const single = remindersTo(paula)[1] as string;
    expect(single).toContain(
      "La proposition du Dr Chloé Martin pour votre demande de devis est valable jusqu'au 19 novembre 2026.",
    );
    expect(single).toContain(`/patient/request/${second}\n`);
    // Rita turns reminders back on: the one claimed while stopped is not sent later.
    await call("PATCH", "/api/me/email-preferences", rita, { reminders: true });
    at("2026-11-19T08:00:00Z");
    expect(await run()).toBe(0);
    expect(remindersTo(rita)).toHaveLength(0);
  });
});
