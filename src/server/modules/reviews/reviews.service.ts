import { appointmentIsOver, mayEditReview, reviewFlags } from "../../../shared/domain/reviews";
import { addDays, parisLocalToDate, parisToday } from "../../../shared/format/paris";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { emailPreferencesPath } from "../../../shared/schemas/profile";
import { REVIEW_MESSAGES, type ReviewInput } from "../../../shared/schemas/reviews";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { isVerifiedDentist } from "../../access/rules";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, notFound } from "../../errors";
import { type MailAfterCommit, type Mailer, mailAfterCommit } from "../../mail/mailer";
import {
  reviewAboutYouMail,
  reviewInvitationMail,
  reviewKeptMail,
  reviewPublishedMail,
  reviewRefusedMail,
  reviewWithdrawnMail,
} from "../../mail/templates";
import { loggableError } from "../../redact";
import {
  isSecondReviewOfAppointment,
  moderationRepo,
  reviewsRepo,
  systemClaimInvitations,
  systemReleaseInvitation,
} from "./reviews.repo";

/*
 * The reviews' use cases (issue 36, ADR 046): each one transaction, its e-mails after the commit
 * (a failed e-mail never undoes the change). The rules: only the patient of a confirmed appointment
 * that has taken place reviews it, once; the team publishes or refuses; the author edits within
 * REVIEW_LIMITS.editDays (back to moderation) and deletes at any time; the dentist answers once and
 * reports. Nothing here lets a dentist hide, reorder or pay for a review.
 */

export interface Deps extends MailAfterCommit {
  db: Db;
  config: AppConfig;
  clock: () => Date;
}

const conflict = (message: string) => new AppError(409, ERROR_CODES.conflict, message);

function sendAfter(deps: MailAfterCommit, to: string, mail: { subject: string; text: string }) {
  mailAfterCommit(deps, { to, ...mail }, "e-mail d'avis non envoyé");
}

export async function writeReview(deps: Deps, actor: Actor, appointmentId: string, input: ReviewInput) {
  const now = deps.clock();
  const repo = reviewsRepo(deps.db, actor);
  const id = await deps.db
    .transaction()
    .execute(async (trx) => {
      const appointment = await repo.ownAppointment(trx, appointmentId);
      if (!appointment) throw notFound(REVIEW_MESSAGES.appointmentNotFound);
      if (appointment.reviewed) throw conflict(REVIEW_MESSAGES.already);
      const startsAt = appointment.starts_at ? new Date(appointment.starts_at) : null;
      // Over, not just started: its start plus its length (the rule of the dashboard's card too).
      // Only a confirmed appointment is ever reviewed; one that is, once over.
      if (appointment.status !== "confirmed" || !startsAt) throw conflict(REVIEW_MESSAGES.notConfirmed);
      if (!appointmentIsOver(startsAt, now)) throw conflict(REVIEW_MESSAGES.notYet);
      return repo.create(trx, {
        appointmentId,
        dentistId: appointment.dentist_id,
        startsAt,
        input,
        flags: reviewFlags(input.text),
        now,
      });
    })
    .catch((error: unknown) => {
      // Two first reviews at the same moment (PostgreSQL): the second meets the unique index.
      if (isSecondReviewOfAppointment(error)) throw conflict(REVIEW_MESSAGES.already);
      throw error;
    });
  const own = await repo.own(id, now);
  if (!own) throw notFound(REVIEW_MESSAGES.notFound);
  return own.dto;
}

export async function editReview(deps: Deps, actor: Actor, id: string, input: ReviewInput) {
  const now = deps.clock();
  const repo = reviewsRepo(deps.db, actor);
  await deps.db.transaction().execute(async (trx) => {
    const own = await repo.own(id, now, trx);
    if (!own) throw notFound(REVIEW_MESSAGES.notFound);
    if (!mayEditReview(own.row.created_at, now)) throw conflict(REVIEW_MESSAGES.editClosed);
    await repo.rewrite(trx, id, input, reviewFlags(input.text), now);
  });
  const own = await repo.own(id, now);
  if (!own) throw notFound(REVIEW_MESSAGES.notFound);
  return own.dto;
}

export async function deleteReview(deps: Deps, actor: Actor, id: string) {
  const repo = reviewsRepo(deps.db, actor);
  const gone = await deps.db.transaction().execute((trx) => repo.remove(trx, id));
  if (!gone) throw notFound(REVIEW_MESSAGES.notFound);
}

export async function answerReview(deps: Deps, actor: Actor, id: string, text: string) {
  const now = deps.clock();
  const repo = reviewsRepo(deps.db, actor);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.receivedOne(trx, id);
    if (!row) throw notFound(REVIEW_MESSAGES.notFound);
    if (row.answer !== null || !(await repo.answer(trx, id, text, now)))
      throw conflict(REVIEW_MESSAGES.answerOnce);
  });
}

export async function reportReview(deps: Deps, actor: Actor, id: string, reason: string) {
  const now = deps.clock();
  const repo = reviewsRepo(deps.db, actor);
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.receivedOne(trx, id);
    if (!row) throw notFound(REVIEW_MESSAGES.notFound);
    const result = await repo.report(trx, id, reason, now);
    // Kept: the team examined his report on this very text; only a rewrite opens a new one.
    if (result === "kept") throw conflict(REVIEW_MESSAGES.reportKept);
    if (result === "open") throw conflict(REVIEW_MESSAGES.alreadyReported);
  });
}

/**
 * The team's decision on a pending review; a published one may be withdrawn (refused) after a
 * report, or kept online ("keep": nothing else changes). Either decision on a published review
 * closes its open reports (kept, withdrawn), which stay with their reasons. The author is told
 * of a publication or a refusal (the reason; whether she may still edit it), the dentist of a
 * publication (only while verified: D6) and of his report examined and the review kept.
 * `version` is the review's `updated_at` the moderator read (the route requires it): a review
 * rewritten since is not decided on, so nobody publishes a text the team never read. Only the demo
 * seed, which publishes what it has just written, passes none.
 */
export async function decideReview(
  deps: Deps,
  actor: Actor,
  id: string,
  decision: {
    decision: "publish" | "refuse" | "keep";
    reason?: string | undefined;
    version?: string | undefined;
  },
) {
  const now = deps.clock();
  const kind = decision.decision;
  const publish = kind === "publish";
  const reason = kind === "refuse" ? (decision.reason ?? "") : null;
  // Reports upheld by a withdrawal: the dentist who made them is told (as of a report kept).
  let upheld = 0;
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await moderationRepo.lock(trx, id);
    if (!row) throw notFound(REVIEW_MESSAGES.notFound);
    const { version } = decision;
    if (version !== undefined && new Date(row.updated_at).getTime() !== new Date(version).getTime())
      throw conflict(REVIEW_MESSAGES.changedSinceRead);
    if (kind === "keep") {
      // Only a published review with reports: the team examined them and keeps it online.
      if (row.status !== "published" || !(await moderationRepo.hasOpenReports(trx, id)))
        throw conflict(REVIEW_MESSAGES.keepNotReported);
      const reports = await moderationRepo.closeReports(trx, id, {
        decision: "kept",
        adminId: actor.userId,
        now,
      });
      await writeAudit(trx, {
        actorId: actor.userId,
        action: "review.kept",
        subjectType: "review",
        subjectId: id,
        details: { reports },
        at: now,
      });
      return row;
    }
    // Pending: either decision. Published: only withdrawn (a report upheld). Refused: final, until rewritten.
    if (row.status === "refused" || (row.status === "published" && publish))
      throw conflict(REVIEW_MESSAGES.alreadyDecided);
    await moderationRepo.decide(trx, id, { publish, reason, adminId: actor.userId, now });
    // Withdrawn: the reports that led to it are closed (upheld), not left open on a refused review.
    const reports =
      row.status === "published"
        ? await moderationRepo.closeReports(trx, id, { decision: "withdrawn", adminId: actor.userId, now })
        : [];
    upheld = reports.length;
    await writeAudit(trx, {
      actorId: actor.userId,
      action: publish ? "review.published" : "review.refused",
      subjectType: "review",
      subjectId: id,
      // The team's reason, as the author read it: the audit list shows it.
      details: { ...(reason ? { reason } : {}), ...(reports.length > 0 ? { reports } : {}) },
      at: now,
    });
    return row;
  });
  const parties = await moderationRepo.parties(deps.db, id);
  // A dentist not verified (pending, or withdrawn) reads no review (D6): no e-mail sends him to a
  // reviews page that shows him none.
  const dentistReads =
    !!parties &&
    isVerifiedDentist({
      role: parties.dentist_role,
      is_admin: parties.dentist_is_admin,
      is_verified: parties.dentist_is_verified,
    });
  if (parties) {
    const base = deps.config.publicUrl;
    const firstName = parties.patient_first_name || parties.patient_full_name;
    const dentistName = parties.dentist_name || "Dentiste";
    const link = `${base}/patient/reviews`;
    const dentistMail = {
      brandName: deps.config.brandName,
      firstName: parties.dentist_first_name || dentistName,
    };
    if (kind === "keep") {
      if (dentistReads)
        sendAfter(
          deps,
          parties.dentist_email,
          reviewKeptMail({ ...dentistMail, link: `${base}/dentist/reviews` }),
        );
    } else
      sendAfter(
        deps,
        parties.patient_email,
        publish
          ? reviewPublishedMail({ brandName: deps.config.brandName, firstName, dentistName, link })
          : reviewRefusedMail({
              brandName: deps.config.brandName,
              firstName,
              dentistName,
              reason: reason ?? "",
              // Editing closes REVIEW_LIMITS.editDays after writing: promised only while it is open.
              mayEdit: mayEditReview(row.created_at, now),
              link,
              withdrawn: row.status === "published",
            }),
      );
    if (upheld > 0 && dentistReads)
      sendAfter(
        deps,
        parties.dentist_email,
        reviewWithdrawnMail({ ...dentistMail, link: `${base}/dentist/reviews` }),
      );
    // The new-review e-mail is one the dentist may stop (ADR 081); the reviews page shows it anyway.
    if (publish && dentistReads && parties.dentist_email_reviews) {
      const review = await moderationRepo.one(deps.db, id);
      sendAfter(
        deps,
        parties.dentist_email,
        reviewAboutYouMail({
          ...dentistMail,
          rating: review?.rating ?? 0,
          link: `${base}/dentist/reviews`,
          preferencesLink: `${base}${emailPreferencesPath("dentist")}`,
        }),
      );
    }
  }
  const review = await moderationRepo.one(deps.db, id);
  if (!review) throw notFound(REVIEW_MESSAGES.notFound);
  // What the team reads: a published review refused is withdrawn, and says who was told.
  const withdrawn = kind === "refuse" && row.status === "published";
  const message =
    kind === "publish"
      ? REVIEW_MESSAGES.approved
      : kind === "keep"
        ? REVIEW_MESSAGES.kept
        : !withdrawn
          ? REVIEW_MESSAGES.refused
          : upheld > 0 && dentistReads
            ? REVIEW_MESSAGES.withdrawnReported
            : REVIEW_MESSAGES.withdrawn;
  return { review, message };
}

/** Invitations go for appointments of the last this many days (older ones are not chased). */
export const INVITATION_WINDOW_DAYS = 14;

/**
 * The invitations due at `now` (the mail job, every minute, on one instance at a time): the day
 * after an appointment that took place, once per appointment (claimed by its row).
 */
export async function sendReviewInvitations(deps: {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}): Promise<number> {
  const today = parisToday(deps.now);
  const dayStart = parisLocalToDate(`${today}T00:00`);
  const since = parisLocalToDate(`${addDays(today, -INVITATION_WINDOW_DAYS)}T00:00`);
  const claimed = await systemClaimInvitations(deps.db, dayStart, since, deps.now);
  await Promise.all(
    claimed.map(async (invitation) => {
      // Claimed all the same: the invitation waits on the dashboard, and is not sent later (ADR 081);
      // a suspended patient cannot sign in to write it (ADR 092).
      if (
        invitation.patient_erased_at ||
        invitation.patient_suspended_at ||
        !invitation.patient_email_reviews
      )
        return;
      try {
        await deps.mailer.send({
          to: invitation.patient_email,
          ...reviewInvitationMail({
            brandName: deps.config.brandName,
            firstName: invitation.patient_first_name || invitation.patient_full_name,
            dentistName: invitation.dentist_name || "Dentiste",
            link: `${deps.config.publicUrl}/patient/reviews/new/${invitation.id}`,
            preferencesLink: `${deps.config.publicUrl}${emailPreferencesPath("patient")}`,
          }),
        });
      } catch (error) {
        deps.log.error({ err: loggableError(error) }, "invitation à donner un avis non envoyée");
        await systemReleaseInvitation(deps.db, invitation.id);
      }
    }),
  );
  return claimed.length;
}
