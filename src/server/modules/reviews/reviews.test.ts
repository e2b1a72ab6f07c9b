import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { REVIEW_MESSAGES } from "../../../shared/schemas/reviews";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import { archiveOf } from "../../testing/archive";
import { appPerFile, postRequest } from "../../testing/harness";
import {
  api,
  givePractice,
  patient,
  peoplePerFile,
  signInAdmin,
  USUAL_CAST,
  verifyBody,
  type Who,
} from "../../testing/people";
import { isSecondReviewOfAppointment, ONE_REVIEW_PER_APPOINTMENT } from "./reviews.repo";
import { sendReviewInvitations, writeReview } from "./reviews.service";

// A movable clock: Saturday 21 November 2026, 10:00 in Paris to begin with.
let now = new Date("2026-11-21T09:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

const ctx = appPerFile({ clock: () => now });
const { get, post, call } = api(ctx);
const who = peoplePerFile(ctx, { ...USUAL_CAST, patients: ["Paula", "Quentin"], lastName: "Durand" });
let admin: Who;

const REVIEW = {
  rating: 5,
  explanations: 4,
  listening: 5,
  punctuality: null,
  text: "Très bon accueil, le Dr a pris le temps de tout expliquer avant la pose.",
  author_title: "patiente",
};

/** A confirmed appointment of `patient` with `dentist` at `slot` (Paris time), on a new request. */
async function appointment(patient: Who, dentist: Who, slot: string) {
  const created = await postRequest(ctx.app, patient.cookie, {
    treatment_type: "crown",
    consent: "true",
    quote_amount: "1200",
    document_types: '["quote"]',
  });
  expect(created.statusCode, created.body).toBe(201);
  const requestId = created.json().id as string;
  const offer = await post(
    `/api/dentist/requests/${requestId}/offers`,
    { amount_cents: 90_000, valid_until: "2027-06-30", slots: [slot] },
    dentist,
  );
  expect(offer.statusCode, offer.body).toBe(201);
  const offerId = offer.json().offer.id as string;
  expect((await post(`/api/patient/offers/${offerId}/accept`, undefined, patient)).statusCode).toBe(200);
  const booked = await post(`/api/patient/offers/${offerId}/appointment`, { slots: [slot] }, patient);
  expect(booked.statusCode, booked.body).toBe(201);
  const id = booked.json().appointment.id as string;
  const confirmed = await post(
    `/api/appointments/${id}/confirm`,
    { starts_at: booked.json().appointment.options[0] },
    dentist,
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { id, requestId, offerId };
}

const put = (url: string, payload: object, as: Who) => call("PUT", url, as, payload);
/** A review's version as the team's list shows it: what its page sends back with a decision. */
async function versionOf(id: string): Promise<string> {
  for (const status of ["pending", "published", "refused"]) {
    const items: { id: string; updated_at: string }[] = (
      await get(`/api/admin/reviews?status=${status}`, admin)
    ).json().items;
    const found = items.find((item) => item.id === id);
    if (found) return found.updated_at;
  }
  throw new Error(`avis ${id} absent des listes de l'équipe`);
}
/** The team's decision on the version it has just read. */
const decide = async (id: string, body: object) =>
  post(`/api/admin/reviews/${id}/decision`, { ...body, version: await versionOf(id) }, admin);
const del = (url: string, as: Who) => call("DELETE", url, as);
const mailsTo = async (email: string) => (await ctx.mails()).filter((m) => m.includes(`To: ${email}`));
const invite = () =>
  sendReviewInvitations({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.app.config,
    now,
    log: ctx.app.log,
  });

let paula: Who;
let quentin: Who;
let drA: Who;
let drB: Who;
let first: { id: string; requestId: string; offerId: string };
let reviewId: string;

beforeAll(async () => {
  paula = who.Paula as Who;
  quentin = who.Quentin as Who;
  drA = who.drA as Who;
  drB = who.drB as Who;
  admin = await signInAdmin(ctx.app);
  first = await appointment(paula, drA, "2026-12-03T09:30");
});

describe("who may review", () => {
  it("refuses before the appointment has taken place (409), and says so in French", async () => {
    const early = await post(`/api/patient/appointments/${first.id}/review`, REVIEW, paula);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(REVIEW_MESSAGES.notYet);
    expect((await get("/api/patient/reviews", paula)).json().invitations).toEqual([]);
  });

  it("refuses a cancelled appointment with its own French reason, not « once it is over »", async () => {
    const cancelled = await appointment(paula, drB, "2026-12-05T10:00");
    expect((await post(`/api/appointments/${cancelled.id}/cancel`, undefined, paula)).statusCode).toBe(200);
    const before = now;
    now = new Date("2026-12-06T09:00:00Z");
    try {
      const refused = await post(`/api/patient/appointments/${cancelled.id}/review`, REVIEW, paula);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(REVIEW_MESSAGES.notConfirmed);
    } finally {
      now = before;
    }
  });

  it("refuses anyone but the appointment's patient: another patient 404, dentists 403, anonymous 401", async () => {
    now = new Date("2026-12-04T09:00:00Z");
    const url = `/api/patient/appointments/${first.id}/review`;
    const other = await post(url, REVIEW, quentin);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe(REVIEW_MESSAGES.appointmentNotFound);
    // Before its body is read: a stranger never learns how it is checked.
    expect((await post(url, { rating: 9 }, quentin)).statusCode).toBe(404);
    expect((await post(url, REVIEW, drA)).statusCode).toBe(403);
    expect((await post(url, REVIEW, drB)).statusCode).toBe(403);
    expect((await post(url, REVIEW, undefined)).statusCode).toBe(401);
    expect((await post("/api/patient/appointments/pas-un-id/review", REVIEW, paula)).statusCode).toBe(404);
  });

  it("invites the patient the day after, once, by e-mail and on her dashboard", async () => {
    // The day of the appointment: not yet.
    now = new Date("2026-12-03T18:00:00Z");
    expect(await invite()).toBe(0);
    now = new Date("2026-12-04T09:00:00Z");
    expect(await invite()).toBe(1);
    expect(await invite()).toBe(0);
    const mails = (await mailsTo(paula.email)).filter((m) => m.includes("Comment s'est pass"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`/patient/reviews/new/${first.id}`);
    const mine = (await get("/api/patient/reviews", paula)).json();
    expect(mine.invitations).toEqual([
      expect.objectContaining({
        appointment_id: first.id,
        dentist: { id: drA.id, full_name: "Anne Martin" },
      }),
    ]);
    expect((await get("/api/patient/reviews", quentin)).json().invitations).toEqual([]);
  });

  it("checks what is written: a French 400 naming the field", async () => {
    const url = `/api/patient/appointments/${first.id}/review`;
    const short = await post(url, { ...REVIEW, text: "Bien." }, paula);
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.text).toBe(REVIEW_MESSAGES.textTooShort);
    const long = await post(url, { ...REVIEW, text: "x".repeat(2001) }, paula);
    expect(long.json().error.fields.text).toBe(REVIEW_MESSAGES.textTooLong);
    const mark = await post(url, { ...REVIEW, rating: 6 }, paula);
    expect(mark.json().error.fields.rating).toBe(REVIEW_MESSAGES.ratingInvalid);
    const detail = await post(url, { ...REVIEW, listening: 0 }, paula);
    expect(detail.json().error.fields.listening).toBe(REVIEW_MESSAGES.ratingInvalid);
    const noTitle = await post(url, { ...REVIEW, author_title: undefined }, paula);
    expect(noTitle.json().error.fields.author_title).toBe(REVIEW_MESSAGES.titleRequired);
  });

  it("takes one review per appointment, pending, flagged for a phone number; a second is refused", async () => {
    const url = `/api/patient/appointments/${first.id}/review`;
    const text = "Très bien reçue, appelez-moi au 06 12 34 56 78 pour en parler, www.exemple.fr";
    const written = await post(url, { ...REVIEW, text }, paula);
    expect(written.statusCode, written.body).toBe(201);
    const review = written.json().review;
    reviewId = review.id;
    expect(review).toMatchObject({
      status: "pending",
      author: "Paula D., patiente vérifiée",
      appointment_month: "rendez-vous en décembre 2026",
      may_edit: true,
      dentist: { id: drA.id },
    });
    const again = await post(url, REVIEW, paula);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(REVIEW_MESSAGES.already);
    // The invitation is gone from her dashboard.
    expect((await get("/api/patient/reviews", paula)).json().invitations).toEqual([]);
    // Nobody sees it before the team has read it.
    expect((await get(`/api/dentists/${drA.id}/reviews`, quentin)).json()).toMatchObject({
      items: [],
      summary: { average: null, count: 0 },
    });
    expect((await get("/api/dentist/reviews", drA)).json().items).toEqual([]);
    const queue = (await get("/api/admin/reviews", admin)).json();
    expect(queue.items).toEqual([expect.objectContaining({ id: reviewId, flags: ["phone", "url"] })]);
  });
});

describe("moderation", () => {
  it("refuses with a reason sent to the author; the review stays hers to rewrite", async () => {
    const url = `/api/admin/reviews/${reviewId}/decision`;
    const noReason = await decide(reviewId, { decision: "refuse" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe(REVIEW_MESSAGES.refuseReasonRequired);
    expect((await post(url, { decision: "publish" }, paula)).statusCode).toBe(403);
    expect((await post(url, { decision: "publish" }, drA)).statusCode).toBe(403);
    const reason = "Votre avis contient un numéro de téléphone et un lien.";
    const refused = await decide(reviewId, { decision: "refuse", reason });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().review.status).toBe("refused");
    expect(refused.json().message).toBe(REVIEW_MESSAGES.refused);
    // E-mails go after the commit.
    expect((await mailsTo(paula.email)).some((m) => m.includes(reason))).toBe(true);
    const again = await decide(reviewId, { decision: "publish" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(REVIEW_MESSAGES.alreadyDecided);
    const mine = (await get("/api/patient/reviews", paula)).json().reviews;
    expect(mine).toEqual([
      expect.objectContaining({ id: reviewId, status: "refused", refusal_reason: reason }),
    ]);
    // The audit list files it under « Avis modérés », naming the review's dentist, author and reason.
    const nameOf = async (id: string) =>
      (
        await ctx.app.db
          .selectFrom("profiles")
          .select("full_name")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).full_name;
    const audit = (await get("/api/admin/audit?type=review", admin)).json();
    expect(audit.items[0]).toMatchObject({
      type: "review",
      action: "review.refused",
      label: "Avis de patient refusé ou retiré",
      actor_name: expect.any(String),
      subject: `Avis sur le Dr ${await nameOf(drA.id)}, de ${await nameOf(paula.id)}`,
      reason,
    });
    // The names are read with the list, in French: « d' » before a vowel.
    await ctx.app.db
      .updateTable("profiles")
      .set({ full_name: "Élodie Durand" })
      .where("id", "=", paula.id)
      .execute();
    const renamed = (await get("/api/admin/audit?type=review", admin)).json();
    expect(renamed.items[0].subject).toBe(`Avis sur le Dr ${await nameOf(drA.id)}, d'Élodie Durand`);
    const accounts = (await get("/api/admin/audit?type=account&page_size=50", admin)).json();
    expect(accounts.items.map((e: { action: string }) => e.action)).not.toContain("review.refused");
  });

  it("an edit goes back to moderation; published, it shows to patients with the dentist's average", async () => {
    const edited = await put(`/api/patient/reviews/${reviewId}`, REVIEW, paula);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().review).toMatchObject({
      status: "pending",
      refusal_reason: null,
      text: REVIEW.text,
    });
    expect((await put(`/api/patient/reviews/${reviewId}`, REVIEW, quentin)).statusCode).toBe(404);
    const before = (await mailsTo(drA.email)).length;
    const published = await decide(reviewId, { decision: "publish" });
    expect(published.statusCode, published.body).toBe(200);
    // The dentist is told.
    expect((await mailsTo(drA.email)).length).toBe(before + 1);
    // The review's e-mail, found by its words (another, such as the verification's, may follow it).
    const aboutReviews = (await mailsTo(drA.email)).filter((m) => m.includes("a laissé un avis"));
    expect(aboutReviews.at(-1)).toContain("/dentist/reviews");
    const seen = (await get(`/api/dentists/${drA.id}/reviews`, quentin)).json();
    expect(seen.summary).toEqual({ average: 5, count: 1 });
    expect(seen.items).toEqual([
      expect.objectContaining({
        id: reviewId,
        rating: 5,
        explanations: 4,
        punctuality: null,
        author: "Paula D., patiente vérifiée",
        appointment_month: "rendez-vous en décembre 2026",
        answer: null,
      }),
    ]);
    // Only the name shown: no e-mail, no last name.
    expect(JSON.stringify(seen)).not.toContain(paula.email);
    expect(JSON.stringify(seen)).not.toContain("Durand");
    // The reviews of a dentist: patients only; an unknown dentist 404.
    expect((await get(`/api/dentists/${drA.id}/reviews`, drB)).statusCode).toBe(403);
    expect((await get(`/api/dentists/${paula.id}/reviews`, quentin)).statusCode).toBe(404);
  });

  it("the dentist answers once, publicly; another dentist cannot", async () => {
    const url = `/api/dentist/reviews/${reviewId}/answer`;
    expect((await post(url, { text: "Merci" }, drB)).statusCode).toBe(404);
    expect((await post(url, { text: "   " }, drA)).json().error.fields.text).toBe(
      REVIEW_MESSAGES.answerRequired,
    );
    const answered = await post(url, { text: "Merci pour votre confiance." }, drA);
    expect(answered.statusCode, answered.body).toBe(200);
    const again = await post(url, { text: "Encore merci." }, drA);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(REVIEW_MESSAGES.answerOnce);
    const seen = (await get(`/api/dentists/${drA.id}/reviews`, quentin)).json();
    expect(seen.items[0].answer).toBe("Merci pour votre confiance.");
  });

  it("the dentist reports it to the team with a reason, once; the team sees the report", async () => {
    const url = `/api/dentist/reviews/${reviewId}/report`;
    expect((await post(url, { reason: "Pas mon patient" }, drB)).statusCode).toBe(404);
    expect((await post(url, {}, drA)).json().error.fields.reason).toBe(REVIEW_MESSAGES.reasonRequired);
    expect((await post(url, { reason: "Ce n'est pas ce qui s'est passé." }, drA)).statusCode).toBe(200);
    expect((await post(url, { reason: "Encore" }, drA)).statusCode).toBe(409);
    const mine = (await get("/api/dentist/reviews", drA)).json();
    expect(mine.items).toEqual([expect.objectContaining({ id: reviewId, reported: true })]);
    const reported = (await get("/api/admin/reviews?status=reported", admin)).json();
    expect(reported.items).toEqual([
      expect.objectContaining({
        id: reviewId,
        reports: [
          expect.objectContaining({
            reason: "Ce n'est pas ce qui s'est passé.",
            dentist_name: "Anne Martin",
          }),
        ],
      }),
    ]);
    const ofDentist = (await get(`/api/admin/reviews?status=published&dentist=${drA.id}`, admin)).json();
    expect(ofDentist.items.map((r: { id: string }) => r.id)).toEqual([reviewId]);
    expect((await get(`/api/admin/reviews?status=published&dentist=${drB.id}`, admin)).json().items).toEqual(
      [],
    );
  });

  it("nothing lets the dentist hide or remove a review", async () => {
    expect((await del(`/api/patient/reviews/${reviewId}`, drA)).statusCode).toBe(403);
    expect((await put(`/api/patient/reviews/${reviewId}`, REVIEW, drA)).statusCode).toBe(403);
    expect(
      (await post(`/api/admin/reviews/${reviewId}/decision`, { decision: "refuse", reason: "x" }, drA))
        .statusCode,
    ).toBe(403);
    expect((await get(`/api/dentists/${drA.id}/reviews`, quentin)).json().summary.count).toBe(1);
  });

  it("is in the author's and the dentist's data exports", async () => {
    const ofPaula = await archiveOf(await get("/api/account/export", paula));
    expect(ofPaula.data.reviews.written).toEqual([
      expect.objectContaining({
        id: reviewId,
        text: REVIEW.text,
        status: "published",
        about_dentist: "Anne Martin",
      }),
    ]);
    const ofDrA = await archiveOf(await get("/api/account/export", drA));
    expect(ofDrA.data.reviews.about_me).toEqual([
      expect.objectContaining({
        id: reviewId,
        author: "Paula D., patiente vérifiée",
        answer: "Merci pour votre confiance.",
      }),
    ]);
    expect(ofDrA.data.reviews.my_reports).toHaveLength(1);
  });

  it("edits are closed after 30 days; deleting is open at any time", async () => {
    now = new Date(now.getTime() + 31 * DAY);
    const late = await put(`/api/patient/reviews/${reviewId}`, REVIEW, paula);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(REVIEW_MESSAGES.editClosed);
    expect((await del(`/api/patient/reviews/${reviewId}`, quentin)).statusCode).toBe(404);
    expect((await del(`/api/patient/reviews/${reviewId}`, paula)).statusCode).toBe(200);
    expect((await del(`/api/patient/reviews/${reviewId}`, paula)).statusCode).toBe(404);
    expect((await get(`/api/dentists/${drA.id}/reviews`, quentin)).json().summary).toEqual({
      average: null,
      count: 0,
    });
    // Deleted, the appointment may be reviewed again (her invitation is back).
    expect((await get("/api/patient/reviews", paula)).json().invitations).toHaveLength(1);
  });
});

describe("erasure", () => {
  it("removes the reviews a patient wrote, and their reports, with her account", async () => {
    const second = await appointment(quentin, drB, "2027-01-12T10:00");
    now = new Date("2027-01-13T09:00:00Z");
    const written = await post(
      `/api/patient/appointments/${second.id}/review`,
      { ...REVIEW, rating: 3 },
      quentin,
    );
    expect(written.statusCode, written.body).toBe(201);
    const id = written.json().review.id as string;
    expect((await decide(id, { decision: "publish" })).statusCode).toBe(200);
    expect((await post(`/api/dentist/reviews/${id}/report`, { reason: "Faux" }, drB)).statusCode).toBe(200);
    expect((await get(`/api/dentists/${drB.id}/reviews`, paula)).json().summary).toEqual({
      average: 3,
      count: 1,
    });
    const erased = await post("/api/account/delete", { password: "Sourire-Sain-2026" }, quentin);
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await get(`/api/dentists/${drB.id}/reviews`, paula)).json().summary).toEqual({
      average: null,
      count: 0,
    });
    const left = await ctx.app.db.selectFrom("review_reports").select("id").execute();
    expect(left).toEqual([]);
  });
});

describe("a review rewritten by its author", () => {
  const REWRITTEN = "Finalement, deux heures d'attente et des explications données trop vite.";
  let id: string;

  it("is not decided on from the version read before it (409, nothing changes); from the new one, it is", async () => {
    const third = await appointment(paula, drA, "2027-02-10T09:30");
    now = new Date("2027-02-11T09:00:00Z");
    const written = await post(`/api/patient/appointments/${third.id}/review`, REVIEW, paula);
    expect(written.statusCode, written.body).toBe(201);
    id = written.json().review.id as string;
    // The team's page is loaded; then the author rewrites it (in the same millisecond: the clock
    // stands still here, the version must change all the same).
    const read = await versionOf(id);
    const edited = await put(`/api/patient/reviews/${id}`, { ...REVIEW, rating: 2, text: REWRITTEN }, paula);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().review.status).toBe("pending");

    const url = `/api/admin/reviews/${id}/decision`;
    const unversioned = await post(url, { decision: "publish" }, admin);
    expect(unversioned.statusCode).toBe(400);
    expect(unversioned.json().error.fields.version).toBe(REVIEW_MESSAGES.versionRequired);
    for (const decision of [{ decision: "publish" }, { decision: "refuse", reason: "Hors sujet." }]) {
      const stale = await post(url, { ...decision, version: read }, admin);
      expect(stale.statusCode, stale.body).toBe(409);
      expect(stale.json().error.message).toBe(REVIEW_MESSAGES.changedSinceRead);
    }
    expect((await get("/api/admin/reviews?status=pending", admin)).json().items).toEqual([
      expect.objectContaining({ id, status: "pending", text: REWRITTEN, published_at: null }),
    ]);
    expect((await get(`/api/dentists/${drA.id}/reviews`, paula)).json().items).toEqual([]);

    const published = await post(url, { decision: "publish", version: await versionOf(id) }, admin);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().review).toMatchObject({ id, status: "published", text: REWRITTEN });
  });

  it("loses the dentist's answer and reports on the old text: he may answer and report the new one", async () => {
    const answerUrl = `/api/dentist/reviews/${id}/answer`;
    const reportUrl = `/api/dentist/reviews/${id}/report`;
    expect((await post(answerUrl, { text: "Merci pour votre retour." }, drA)).statusCode).toBe(200);
    expect((await post(reportUrl, { reason: "Ce n'est pas ce qui s'est passé." }, drA)).statusCode).toBe(200);

    now = new Date(now.getTime() + DAY);
    const text = "Au final, des soins bien faits malgré l'attente\u202f; je reviendrai.";
    expect((await put(`/api/patient/reviews/${id}`, { ...REVIEW, text }, paula)).statusCode).toBe(200);
    expect((await get("/api/admin/reviews?status=pending", admin)).json().items).toEqual([
      expect.objectContaining({ id, text, answer: null, answered_at: null, reports: [] }),
    ]);
    expect((await decide(id, { decision: "publish" })).statusCode).toBe(200);

    const seen = (await get(`/api/dentists/${drA.id}/reviews`, paula)).json();
    expect(seen.items).toEqual([expect.objectContaining({ id, text, answer: null, answered_at: null })]);
    expect((await get("/api/dentist/reviews", drA)).json().items).toEqual([
      expect.objectContaining({ id, answer: null, reported: false }),
    ]);
    expect((await get("/api/admin/reviews?status=reported", admin)).json().items).toEqual([]);

    const answered = await post(answerUrl, { text: "Merci d'avoir complété votre avis." }, drA);
    expect(answered.statusCode, answered.body).toBe(200);
    const reported = await post(reportUrl, { reason: "L'attente n'a pas duré deux heures." }, drA);
    expect(reported.statusCode, reported.body).toBe(200);
    expect((await get(`/api/dentists/${drA.id}/reviews`, paula)).json().items[0].answer).toBe(
      "Merci d'avoir complété votre avis.",
    );
  });
});

/** The review of the fourth appointment: written at its end, then reported, kept, withdrawn. */
let keptId: string;

describe("the end of an appointment, not its start, opens its review", () => {
  // 10 March 2027, 09:30 in Paris (08:30 UTC), 60 minutes long.
  const START = Date.parse("2027-03-10T08:30:00Z");
  const MINUTE = 60_000;
  let fourth: { id: string };

  it("at start + 1 minute: no invitation, and a review is refused (409); at start + 61 minutes: both", async () => {
    now = new Date("2027-03-01T09:00:00Z");
    fourth = await appointment(paula, drB, "2027-03-10T09:30");
    const url = `/api/patient/appointments/${fourth.id}/review`;
    const invited = async () =>
      (await get("/api/patient/reviews", paula))
        .json()
        .invitations.map((i: { appointment_id: string }) => i.appointment_id);

    now = new Date(START + MINUTE);
    expect(await invited()).not.toContain(fourth.id);
    const early = await post(url, REVIEW, paula);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().error.message).toBe(REVIEW_MESSAGES.notYet);
    // The appointment already reads « Passé » (from its start): the refusal says when it will be over.
    expect(early.json().error.message).toBe(
      "Vous pourrez donner votre avis une fois le rendez-vous terminé, 60 minutes après son début.",
    );

    now = new Date(START + 61 * MINUTE);
    expect(await invited()).toContain(fourth.id);
    const written = await post(url, REVIEW, paula);
    expect(written.statusCode, written.body).toBe(201);
    keptId = written.json().review.id as string;
  });
});

describe("a reported review the team keeps online", () => {
  const url = () => `/api/admin/reviews/${keptId}/decision`;
  const reported = async () =>
    (await get(`/api/admin/reviews?status=reported&dentist=${drB.id}`, admin))
      .json()
      .items.map((r: { id: string }) => r.id);

  it("is refused on a pending or an unreported review (409, nothing changes)", async () => {
    now = new Date(now.getTime() + 60 * 60_000);
    const pending = await decide(keptId, { decision: "keep" });
    expect(pending.statusCode, pending.body).toBe(409);
    expect(pending.json().error.message).toBe(REVIEW_MESSAGES.keepNotReported);
    expect((await decide(keptId, { decision: "publish" })).statusCode).toBe(200);
    const unreported = await decide(keptId, { decision: "keep" });
    expect(unreported.statusCode, unreported.body).toBe(409);
    expect(unreported.json().error.message).toBe(REVIEW_MESSAGES.keepNotReported);
  });

  it("keeps it from the version read: stale 409, patient and dentist refused; then out of « Signalés », still public, dentist told", async () => {
    const answered = await post(`/api/dentist/reviews/${keptId}/answer`, { text: "Merci Paula." }, drB);
    expect(answered.statusCode, answered.body).toBe(200);
    const report = await post(`/api/dentist/reviews/${keptId}/report`, { reason: "Inexact." }, drB);
    expect(report.statusCode, report.body).toBe(200);
    expect(await reported()).toEqual([keptId]);
    const version = await versionOf(keptId);

    const stale = await post(
      url(),
      { decision: "keep", version: new Date(Date.parse(version) - 1).toISOString() },
      admin,
    );
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().error.message).toBe(REVIEW_MESSAGES.changedSinceRead);
    expect((await post(url(), { decision: "keep", version }, paula)).statusCode).toBe(403);
    expect((await post(url(), { decision: "keep", version }, drB)).statusCode).toBe(403);
    expect((await post(url(), { decision: "keep", version }, undefined)).statusCode).toBe(401);
    expect(await reported()).toEqual([keptId]);

    const before = (await mailsTo(drB.email)).length;
    const kept = await post(url(), { decision: "keep", version }, admin);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().message).toBe(REVIEW_MESSAGES.kept);
    // Nothing else changes: still published, same version, the answer kept; the report is closed
    // (kept), not deleted: its reason stays on the review's card for the team.
    expect(kept.json().review).toMatchObject({
      id: keptId,
      status: "published",
      updated_at: version,
      answer: "Merci Paula.",
      reports: [
        {
          id: expect.any(String),
          reason: "Inexact.",
          dentist_name: "Bruno Martin",
          created_at: expect.any(String),
          closed_at: now.toISOString(),
          decision: "kept",
        },
      ],
    });
    expect(await reported()).toEqual([]);
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("subject_id", "=", keptId)
      .where("action", "=", "review.kept")
      .execute();
    expect(audit).toHaveLength(1);
    // In the database: closed by this admin, not deleted; the audit row names it.
    const rows = await ctx.app.db
      .selectFrom("review_reports")
      .select(["id", "reason", "closed_at", "closed_by", "decision"])
      .where("review_id", "=", keptId)
      .execute();
    expect(rows).toEqual([
      { id: expect.any(String), reason: "Inexact.", closed_at: now, closed_by: admin.id, decision: "kept" },
    ]);
    const details = audit[0]?.details;
    expect(typeof details === "string" ? JSON.parse(details) : details).toEqual({
      reports: [rows[0]?.id],
    });
    const seen = (await get(`/api/dentists/${drB.id}/reviews`, paula)).json();
    expect(seen.items.map((r: { id: string }) => r.id)).toContain(keptId);
    const mails = await mailsTo(drB.email);
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)).toContain("/dentist/reviews");
    expect(mails.at(-1)).toContain("reste en ligne");
    expect(mails.at(-1)).not.toContain(paula.email);
    // Decided: no second time.
    const again = await post(url(), { decision: "keep", version }, admin);
    expect(again.statusCode).toBe(409);
  });

  it("refuses the same dentist a new report of the text it kept (French 409), and keeps it out of « Signalés »", async () => {
    const again = await post(`/api/dentist/reviews/${keptId}/report`, { reason: "Toujours inexact." }, drB);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error).toEqual({ code: ERROR_CODES.conflict, message: REVIEW_MESSAGES.reportKept });
    expect(REVIEW_MESSAGES.reportKept).toMatch(/déjà examiné .* gardé en ligne/);
    // Nothing was written: one report, still closed; the queue has nothing to decide.
    const rows = await ctx.app.db
      .selectFrom("review_reports")
      .select(["reason", "decision"])
      .where("review_id", "=", keptId)
      .execute();
    expect(rows).toEqual([{ reason: "Inexact.", decision: "kept" }]);
    expect(await reported()).toEqual([]);
    const queue = (await get("/api/admin/reviews?status=reported", admin)).json().items;
    expect(queue.map((r: { id: string }) => r.id)).not.toContain(keptId);
    // His list says the team examined it and kept it (no « Signaler » to press again).
    const mine = (await get("/api/dentist/reviews", drB)).json().items;
    expect(mine).toContainEqual(expect.objectContaining({ id: keptId, reported: true, report_kept: true }));
    // The team still reads why it was reported, on the review's card among the published ones.
    const published = (await get(`/api/admin/reviews?status=published&dentist=${drB.id}`, admin)).json();
    expect(published.items).toContainEqual(
      expect.objectContaining({
        id: keptId,
        reports: [expect.objectContaining({ reason: "Inexact.", decision: "kept", earlier_text: false })],
      }),
    );
  });

  it("once its author rewrote it, the new text may be reported again; the kept report stays in its history", async () => {
    now = new Date(now.getTime() + 60 * 60_000);
    const text = "Rendez-vous à l'heure cette fois, mais la facture m'a surprise à la sortie.";
    const edited = await put(`/api/patient/reviews/${keptId}`, { ...REVIEW, rating: 3, text }, paula);
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await decide(keptId, { decision: "publish" })).statusCode).toBe(200);
    expect((await get("/api/dentist/reviews", drB)).json().items).toContainEqual(
      expect.objectContaining({ id: keptId, text, reported: false, report_kept: false }),
    );

    const report = await post(
      `/api/dentist/reviews/${keptId}/report`,
      { reason: "Le devis était signé." },
      drB,
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().message).toBe(REVIEW_MESSAGES.reported);
    expect(await reported()).toEqual([keptId]);
    const card = (await get(`/api/admin/reviews?status=reported&dentist=${drB.id}`, admin)).json().items[0];
    // The kept report was about the earlier text; the new one is about the text online.
    expect(card.reports).toEqual([
      expect.objectContaining({
        reason: "Inexact.",
        decision: "kept",
        closed_at: expect.any(String),
        earlier_text: true,
      }),
      expect.objectContaining({
        reason: "Le devis était signé.",
        decision: null,
        closed_at: null,
        earlier_text: false,
      }),
    ]);
    // One open report at a time.
    const twice = await post(`/api/dentist/reviews/${keptId}/report`, { reason: "Encore." }, drB);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(REVIEW_MESSAGES.alreadyReported);
  });
});

describe("the withdrawal e-mail promises an edit only while editing is open", () => {
  const withdraw = async (id: string, { report = true } = {}) => {
    if (report)
      expect((await post(`/api/dentist/reviews/${id}/report`, { reason: "Inexact." }, drB)).statusCode).toBe(
        200,
      );
    const withdrawn = await decide(id, { decision: "refuse", reason: "Propos hors sujet." });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    // Online until then: the team reads « retiré », and that the dentist who reported it is told.
    expect(withdrawn.json().message).toBe(REVIEW_MESSAGES.withdrawnReported);
    return (await mailsTo(paula.email)).filter((m) => m.includes("Propos hors sujet.")).at(-1) ?? "";
  };

  it("5 days after writing: « Vous pouvez le modifier »; the report that led to it is closed, withdrawn", async () => {
    now = new Date(Date.parse("2027-03-10T09:31:00Z") + 5 * DAY);
    // Reported again after its rewrite (above): that open report is the one upheld.
    expect(await withdraw(keptId, { report: false })).toContain("Vous pouvez le modifier");
    const reports = (await get(`/api/admin/reviews?status=refused&dentist=${drB.id}`, admin))
      .json()
      .items.find((r: { id: string }) => r.id === keptId).reports;
    expect(reports).toEqual([
      expect.objectContaining({ reason: "Inexact.", decision: "kept" }),
      expect.objectContaining({
        reason: "Le devis était signé.",
        decision: "withdrawn",
        closed_at: now.toISOString(),
      }),
    ]);
  });

  it("31 days after writing: not any more", async () => {
    now = new Date("2027-03-20T09:00:00Z");
    const fifth = await appointment(paula, drB, "2027-03-22T09:30");
    now = new Date("2027-03-22T12:00:00Z");
    const written = await post(`/api/patient/appointments/${fifth.id}/review`, REVIEW, paula);
    expect(written.statusCode, written.body).toBe(201);
    const id = written.json().review.id as string;
    expect((await decide(id, { decision: "publish" })).statusCode).toBe(200);
    now = new Date(now.getTime() + 31 * DAY);
    const upheld = async () =>
      (await mailsTo(drB.email)).filter((m) => m.includes("il a été retiré et n'est plus en ligne")).length;
    const upheldBefore = await upheld();
    const mail = await withdraw(id);
    expect(mail).not.toContain("Vous pouvez le modifier");
    expect(mail).toContain("ne peut plus");
    // It was online: « retiré », not « pas publié »; the dentist who reported it is told.
    expect(mail).toContain("a été retiré après examen par notre équipe");
    expect(mail).not.toContain("n'a pas été publié");
    expect(await upheld()).toBe(upheldBefore + 1);
  });
});

describe("a dentist whose verification is withdrawn", () => {
  // What the team checked when it verified him, so that it may verify him again (ADR 075).
  beforeAll(() => givePractice(ctx.app, drA.id));
  const verification = async (decision: "verify" | "unverify") =>
    post(
      `/api/admin/dentists/${drA.id}/verification`,
      decision === "verify"
        ? await verifyBody(ctx.app, drA.id)
        : { decision, reason: "Numéro RPPS inactif au répertoire" },
      admin,
    );
  const offerRating = async () => {
    const detail = await get(`/api/patient/requests/${first.requestId}`, paula);
    expect(detail.statusCode, detail.body).toBe(200);
    const offers: { dentist: { id: string; rating: unknown } }[] = detail.json().offers;
    expect(offers.map((o) => o.dentist.id)).toEqual([drA.id]);
    return offers[0]?.dentist.rating;
  };

  it("shows patients no rating (his reviews page answers 404), and himself no count over an empty list", async () => {
    const shown = (await get(`/api/dentists/${drA.id}/reviews`, paula)).json();
    expect(shown.summary.count).toBeGreaterThan(0);
    expect(await offerRating()).toEqual(shown.summary);
    expect((await get("/api/dentist/reviews", drA)).json()).toMatchObject({ summary: shown.summary });

    expect((await verification("unverify")).json().is_verified).toBe(false);
    // The page a rating would link to: 404. So no figure on his offer promises it.
    const page = await get(`/api/dentists/${drA.id}/reviews`, paula);
    expect(page.statusCode).toBe(404);
    expect(page.json().error.message).toBe(REVIEW_MESSAGES.notFound);
    expect(await offerRating()).toBeNull();
    // His own page: no review (D6), and a count that agrees.
    expect((await get("/api/dentist/reviews", drA)).json()).toMatchObject({
      items: [],
      summary: { average: null, count: 0 },
      has_more: false,
    });

    // Verified again: everything is back.
    expect((await verification("verify")).json().is_verified).toBe(true);
    expect(await offerRating()).toEqual(shown.summary);
    expect((await get(`/api/dentists/${drA.id}/reviews`, paula)).json().summary).toEqual(shown.summary);
    expect((await get("/api/dentist/reviews", drA)).json().summary).toEqual(shown.summary);
  });

  it("gets none of the reviews about him in his data export, only his own answers and reports (D6); verified again, all of it", async () => {
    type AboutMe = { id: string; text?: string; answer: string | null; author?: string };
    const exported = async () => (await archiveOf(await get("/api/account/export", drA))).data;
    const verified = await exported();
    const about: AboutMe[] = verified.reviews.about_me;
    expect(about.length).toBeGreaterThan(0);
    expect(about).toContainEqual(
      expect.objectContaining({ author: "Paula D., patiente vérifiée", text: expect.any(String) }),
    );
    const answered = about.filter((r) => r.answer !== null);
    expect(answered.length).toBeGreaterThan(0);
    expect(verified.reviews.my_reports.length).toBeGreaterThan(0);

    expect((await verification("unverify")).json().is_verified).toBe(false);
    try {
      const { data, json } = await archiveOf(await get("/api/account/export", drA));
      // His answers alone: not the review they answer (no author, mark, text, appointment month).
      expect(data.reviews.about_me).toEqual(
        answered.map((r) => ({ id: r.id, answer: r.answer, answered_at: expect.any(String) })),
      );
      for (const review of about) if (review.text) expect(json).not.toContain(review.text);
      expect(json).not.toContain("Paula D.");
      // His reports stay: his own reasons.
      expect(data.reviews.my_reports).toEqual(verified.reviews.my_reports);
    } finally {
      expect((await verification("verify")).json().is_verified).toBe(true);
    }
    expect((await exported()).reviews).toEqual(verified.reviews);
  });

  it("is not e-mailed a link to reviews he cannot read when one about him is published; verified again, he is", async () => {
    now = new Date("2027-04-23T09:00:00Z");
    const seventh = await appointment(paula, drA, "2027-04-26T09:30");
    const eighth = await appointment(paula, drA, "2027-04-26T11:00");
    now = new Date("2027-04-27T09:00:00Z");
    const write = async (id: string) => {
      const written = await post(`/api/patient/appointments/${id}/review`, REVIEW, paula);
      expect(written.statusCode, written.body).toBe(201);
      return written.json().review.id as string;
    };
    const [whileUnverified, onceVerified] = [await write(seventh.id), await write(eighth.id)];
    const toDentist = async () =>
      (await mailsTo(drA.email)).filter((m) => m.includes("a laissé un avis")).length;
    const toAuthor = async () => (await mailsTo(paula.email)).length;

    expect((await verification("unverify")).json().is_verified).toBe(false);
    const [dentistBefore, authorBefore] = [await toDentist(), await toAuthor()];
    try {
      expect((await decide(whileUnverified, { decision: "publish" })).statusCode).toBe(200);
      // The author is told; the dentist, whose reviews page shows him nothing, is not.
      expect(await toAuthor()).toBe(authorBefore + 1);
      expect(await toDentist()).toBe(dentistBefore);
    } finally {
      expect((await verification("verify")).json().is_verified).toBe(true);
    }
    // The e-mail saying he is verified again names the review published meanwhile (one).
    const verifiedAgain = (await mailsTo(drA.email)).filter((m) => m.includes("votre cabinet est vérifié"));
    expect(verifiedAgain.at(-1)).toContain(
      "Un avis a été publié à votre sujet pendant que votre compte n'était pas vérifié",
    );
    expect((await decide(onceVerified, { decision: "publish" })).statusCode).toBe(200);
    expect(await toDentist()).toBe(dentistBefore + 1);
    // The review's e-mail, found by its words (another, such as the verification's, may follow it).
    const aboutReviews = (await mailsTo(drA.email)).filter((m) => m.includes("a laissé un avis"));
    expect(aboutReviews.at(-1)).toContain("/dentist/reviews");

    // His report examined while he is not verified: no e-mail inviting him to answer a review he
    // cannot read; the report is closed all the same.
    const reported = await post(`/api/dentist/reviews/${onceVerified}/report`, { reason: "Inexact." }, drA);
    expect(reported.statusCode, reported.body).toBe(200);
    const examined = async () =>
      (await mailsTo(drA.email)).filter((m) => m.includes("Votre signalement d'un avis a été examiné"))
        .length;
    const examinedBefore = await examined();
    expect((await verification("unverify")).json().is_verified).toBe(false);
    try {
      expect((await decide(onceVerified, { decision: "keep" })).statusCode).toBe(200);
      expect(await examined()).toBe(examinedBefore);
    } finally {
      expect((await verification("verify")).json().is_verified).toBe(true);
    }
  });
});

describe("e-mails one may stop (ADR 081)", () => {
  it("sends neither the invitation nor the new review to who stopped them; each says where to stop them", async () => {
    now = new Date("2027-05-03T09:00:00Z");
    // Quentin's account went with an earlier test: a new patient in his place.
    const quentin = await patient(ctx.app, { first_name: "Quentin", last_name: "Roux" });
    const hers = await appointment(paula, drB, "2027-05-05T11:00");
    const his = await appointment(quentin, drB, "2027-05-05T09:30");
    const preferences = (as: Who, body: object) => call("PATCH", "/api/me/email-preferences", as, body);
    expect((await preferences(quentin, { reviews: false })).statusCode).toBe(200);

    now = new Date("2027-05-06T09:00:00Z");
    const invitations = async (as: Who, appointmentId: string) =>
      (await mailsTo(as.email)).filter((m) => m.includes(`/patient/reviews/new/${appointmentId}`));
    expect(await invite()).toBe(2);
    expect(await invitations(quentin, his.id)).toHaveLength(0);
    const toPaula = await invitations(paula, hers.id);
    expect(toPaula).toHaveLength(1);
    expect(toPaula[0]).toContain(`${ctx.app.config.publicUrl}/patient/profile#notifications`);
    // Not e-mailed, still on his dashboard; and not e-mailed later.
    expect((await get("/api/patient/reviews", quentin)).json().invitations).toEqual([
      expect.objectContaining({ appointment_id: his.id }),
    ]);
    expect((await preferences(quentin, { reviews: true })).statusCode).toBe(200);
    expect(await invite()).toBe(0);

    // Dr B stops the new-review e-mail: Paula's review is published, he is not told.
    const toDrB = async () => (await mailsTo(drB.email)).filter((m) => m.includes("a laissé un avis"));
    const before = (await toDrB()).length;
    expect((await preferences(drB, { reviews: false })).statusCode).toBe(200);
    const write = async (as: Who, appointmentId: string) => {
      const written = await post(`/api/patient/appointments/${appointmentId}/review`, REVIEW, as);
      expect(written.statusCode, written.body).toBe(201);
      return written.json().review.id as string;
    };
    expect((await decide(await write(paula, hers.id), { decision: "publish" })).statusCode).toBe(200);
    expect(await toDrB()).toHaveLength(before);
    // Turned back on: Quentin's is told, with the way to stop it.
    expect((await preferences(drB, { reviews: true })).statusCode).toBe(200);
    expect((await decide(await write(quentin, his.id), { decision: "publish" })).statusCode).toBe(200);
    expect(await toDrB()).toHaveLength(before + 1);
    expect((await toDrB()).at(-1)).toContain(`${ctx.app.config.publicUrl}/dentist/profile#notifications`);
  });
});

describe("a suspended patient (ADR 092)", () => {
  it("is not invited by e-mail to review an appointment: she cannot sign in to write it", async () => {
    now = new Date("2027-05-10T09:00:00Z");
    const ines = await patient(ctx.app, { first_name: "Inès" });
    const hers = await appointment(ines, drB, "2027-05-12T09:30");
    await ctx.app.db
      .updateTable("profiles")
      .set({ suspended_at: now, suspension_reason: "Fausses demandes." })
      .where("id", "=", ines.id)
      .execute();
    now = new Date("2027-05-13T09:00:00Z");
    expect(await invite()).toBe(1);
    const invited = (await mailsTo(ines.email)).filter((m) => m.includes(`/patient/reviews/new/${hers.id}`));
    expect(invited).toHaveLength(0);
  });
});

describe("two first reviews of one appointment at the same moment", () => {
  it("maps the unique index on reviews.appointment_id, and only it, to the French 409", async () => {
    const names = await sql<{ conname: string }>`
      select conname from pg_constraint where conrelid = 'reviews'::regclass and contype = 'u'`.execute(
      ctx.app.db,
    );
    expect(names.rows.map((r) => r.conname)).toContain(ONE_REVIEW_PER_APPOINTMENT);
    const failing = (error: object) =>
      ({
        db: { transaction: () => ({ execute: () => Promise.reject(error) }) } as unknown as Db,
        config: ctx.app.config,
        clock: () => now,
      }) as Parameters<typeof writeReview>[0];
    const actor = { userId: paula.id, profile: { role: "patient" } } as unknown as Actor;
    const race = { code: "23505", constraint: ONE_REVIEW_PER_APPOINTMENT };
    await expect(writeReview(failing(race), actor, "x", REVIEW as never)).rejects.toMatchObject({
      statusCode: 409,
      message: REVIEW_MESSAGES.already,
    });
    const other = { code: "23505", constraint: "another_key" };
    await expect(writeReview(failing(other), actor, "x", REVIEW as never)).rejects.toBe(other);
    expect(isSecondReviewOfAppointment(race)).toBe(true);
    expect(isSecondReviewOfAppointment(other)).toBe(false);
    expect(isSecondReviewOfAppointment(new Error("boom"))).toBe(false);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL", () => {
    it("answers 201 to one and the French 409 to the other, never a 500", async () => {
      now = new Date("2027-05-01T09:00:00Z");
      const sixth = await appointment(paula, drB, "2027-05-03T09:30");
      now = new Date("2027-05-04T09:00:00Z");
      const url = `/api/patient/appointments/${sixth.id}/review`;
      const answers = await Promise.all([post(url, REVIEW, paula), post(url, REVIEW, paula)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      const refused = answers.find((a) => a.statusCode === 409);
      expect(refused?.json().error.message).toBe(REVIEW_MESSAGES.already);
    });
  });
});
