import { describe, expect, it } from "vitest";
import { tinyPng } from "../../sample-files";
import { appPerFile, devisPdf, postRequest } from "../../testing/harness";
import { api, peoplePerFile, USUAL_CAST, type Who } from "../../testing/people";

// The clock moves between offers, so that « latest » means something: from Monday 2 November 2026.
let now = new Date("2026-11-02T09:00:00Z");
const ctx = appPerFile({ clock: () => now });
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, { ...USUAL_CAST, unverified: { unverified: "Ulysse" } });

async function newRequest() {
  const radio = { name: "radio.png", type: "image/png", content: tinyPng() };
  const response = await postRequest(
    ctx.app,
    (who.Paula as Who).cookie,
    { treatment_type: "crown", consent: "true", quote_amount: "1200", document_types: '["quote","xray"]' },
    [devisPdf(), radio],
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

type Line = { code?: string; act: string; tooth: number | null; fee_cents: number };

async function offerOn(requestId: string, lines: Line[], as: Who) {
  const amount_cents = lines.reduce((sum, line) => sum + line.fee_cents, 0);
  const sent = await post(`/api/dentist/requests/${requestId}/offers`, { amount_cents, lines }, as);
  expect(sent.statusCode, sent.body).toBe(201);
}

const crown = (tooth: number, fee_cents: number): Line => ({
  code: "HBLD634",
  act: "Couronne",
  tooth,
  fee_cents,
});
const molarCrown = (fee_cents: number): Line => ({ code: "HBLD734", act: "Couronne", tooth: 36, fee_cents });

describe("his last fee for each act, for the proposal form (ADR 097)", () => {
  it("is the fee of his latest offer naming the act, his own only, and only while he may send one", async () => {
    const first = await newRequest();
    await offerOn(
      first,
      [crown(21, 480_00), molarCrown(400_00), { act: "Gouttière", tooth: null, fee_cents: 90_00 }],
      who.drA as Who,
    );
    now = new Date("2026-11-05T09:00:00Z");
    const second = await newRequest();
    // Two lines of the same act: the first one's fee.
    await offerOn(second, [crown(21, 450_00), crown(11, 470_00)], who.drA as Who);
    // Another dentist's fees are never his.
    await offerOn(second, [molarCrown(300_00), crown(22, 400_00)], who.drB as Who);

    now = new Date("2026-11-09T09:00:00Z");
    const third = await newRequest();
    const mine = (await get(`/api/dentist/requests/${third}/offer`, who.drA)).json();
    expect(mine.may_offer).toBe(true);
    expect(mine.last_fees).toEqual([
      { code: "HBLD634", fee_cents: 450_00, offered_at: "2026-11-05T09:00:00.000Z" },
      { code: "HBLD734", fee_cents: 400_00, offered_at: "2026-11-02T09:00:00.000Z" },
    ]);
    expect((await get(`/api/dentist/requests/${third}/offer`, who.drB)).json().last_fees).toEqual([
      { code: "HBLD634", fee_cents: 400_00, offered_at: "2026-11-05T09:00:00.000Z" },
      { code: "HBLD734", fee_cents: 300_00, offered_at: "2026-11-05T09:00:00.000Z" },
    ]);

    // His offer sent on this request: no form, no fees.
    await offerOn(third, [molarCrown(420_00)], who.drA as Who);
    const after = (await get(`/api/dentist/requests/${third}/offer`, who.drA)).json();
    expect(after).toMatchObject({ may_offer: false, last_fees: [] });
    // On the next request, the molar crown's last fee is the one just sent.
    now = new Date("2026-11-10T09:00:00Z");
    const fourth = await newRequest();
    expect((await get(`/api/dentist/requests/${fourth}/offer`, who.drA)).json().last_fees).toEqual([
      { code: "HBLD634", fee_cents: 450_00, offered_at: "2026-11-05T09:00:00.000Z" },
      { code: "HBLD734", fee_cents: 420_00, offered_at: "2026-11-09T09:00:00.000Z" },
    ]);
  });

  it("is refused to patients and to a dentist not verified, who read nobody's fees", async () => {
    const request = await newRequest();
    for (const as of [who.Paula, who.unverified]) {
      const response = await get(`/api/dentist/requests/${request}/offer`, as);
      expect([403, 404], response.body).toContain(response.statusCode);
      expect(response.json().last_fees).toBeUndefined();
    }
    expect((await get(`/api/dentist/requests/${request}/offer`)).statusCode).toBe(401);
  });
});
