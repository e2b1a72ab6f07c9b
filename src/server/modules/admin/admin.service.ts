import { sql } from "kysely";
import type { RenewalStop } from "../../../shared/domain/subscription";
import { formatDetailDate } from "../../../shared/format/dates";
import {
  missingVerifiedFields,
  VERIFIED_FIELDS,
  type VerificationField,
  type VerifiedFacts,
} from "../../../shared/policies/verification";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import { startTrialOnVerification } from "../../access/subscription";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, forbidden, notFound } from "../../errors";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import { verificationDecisionMail } from "../../mail/templates";

interface Deps extends MailAfterCommit {
  db: Db;
  config: AppConfig;
  clock: () => Date;
  /** His verification withdrawn: his subscription not renewed (the app's billing, ADR 093). */
  stopRenewal: (dentistId: string) => Promise<RenewalStop>;
}

const ACTIONS = {
  verify: "verification.granted",
  unverify: "verification.revoked",
  refuse: "verification.refused",
} as const;

/**
 * An admin's verification decision (verify or refuse a dentist's RPPS and practice), in one transaction with its audit row (who, whom, when,
 * reason). Verifying makes the dentist see requests at once (visibility reads is_verified on every
 * request); unverifying hides them at once. Deciding what is already so changes nothing and writes
 * nothing (toggling twice is consistent). The dentist is e-mailed after the commit.
 */
export async function decideVerification(
  deps: Deps,
  admin: Actor,
  dentistId: string,
  decision: "verify" | "unverify" | "refuse",
  reason: string,
  checked?: VerifiedFacts,
) {
  if (!admin.profile.is_admin) throw forbidden();
  const now = deps.clock();
  const result = await deps.db.transaction().execute(async (trx) => {
    // His row, and the rows of every account that gave the same RPPS number, locked in one order:
    // two admins verifying two accounts of one number decide one after the other (ADR 076).
    const locked = await trx
      .selectFrom("profiles")
      .select([
        "id",
        "role",
        "email",
        "first_name",
        "is_verified",
        "verification_requested_at",
        "verification_decided_at",
        "rpps",
        "practice_address",
        "practice_postcode",
        "suspended_at",
      ])
      .where((eb) =>
        eb.or([
          eb("id", "=", dentistId),
          eb(
            "rpps",
            "=",
            eb.selectFrom("profiles as same").select("same.rpps").where("same.id", "=", dentistId),
          ),
        ]),
      )
      .orderBy("id")
      .forUpdate()
      .execute();
    const dentist = locked.find((row) => row.id === dentistId);
    if (!dentist) throw notFound(ADMIN_MESSAGES.dentistNotFound);
    if (dentist.role !== "dentist") throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.notDentist);
    const unchanged =
      (decision === "verify" && dentist.is_verified) || (decision === "unverify" && !dentist.is_verified);
    if (unchanged) return { dentist, changed: false, reviewsMeanwhile: 0, renewalStopped: false };
    // Refused on a page older than the decision (another admin's, or his own in another tab): said so.
    if (decision === "refuse" && dentist.is_verified)
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.refuseVerified);
    if (decision === "refuse" && !dentist.verification_requested_at)
      throw new AppError(
        409,
        "CONFLICT",
        dentist.verification_decided_at ? ADMIN_MESSAGES.refuseDecided : ADMIN_MESSAGES.noRequest,
      );
    // Suspended (ADR 092): the badge (and the trial it starts) waits until the team lifts it.
    if (decision === "verify" && dentist.suspended_at !== null)
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.verifySuspended);
    // Verified, he wears the badge for his RPPS number and practice (D12): none given, none checked.
    if (decision === "verify" && missingVerifiedFields(dentist).length > 0)
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.verifyIncomplete);
    // The badge is for what the team read: not for a number or an address he changed since (ADR 076).
    if (decision === "verify" && !sameAsRead(dentist, checked))
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.changedSinceRead);
    // One practitioner's number for life: not the badge of a second account (ADR 075).
    if (decision === "verify" && (await verifiedHolderOf(trx, dentist.rpps as string, dentistId)))
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.rppsTaken);
    await trx
      .updateTable("profiles")
      .set({
        is_verified: decision === "verify",
        verification_requested_at: null,
        verification_decided_at: now,
        verification_refusal_reason: decision === "refuse" ? reason : null,
        updated_at: now,
      })
      .where("id", "=", dentistId)
      .execute();
    // Verified: his 30-day trial starts now (issue 35); one already subscribed keeps his subscription.
    if (decision === "verify") await startTrialOnVerification(trx, dentistId, now);
    // Verified again: the reviews published about him since his verification was withdrawn, which
    // no e-mail told him of (D6), are named in this one.
    const reviewsMeanwhile =
      decision === "verify" ? await reviewsPublishedSinceWithdrawal(trx, dentistId) : 0;
    // Verified again: a paid subscription that is no longer renewed (stopped at the withdrawal, or
    // by himself) is his to take up again; the e-mail says where.
    const renewalStopped =
      decision === "verify" &&
      (await trx
        .selectFrom("subscriptions")
        .select("dentist_id")
        .where("dentist_id", "=", dentistId)
        .where("subscription_id", "is not", null)
        .where((eb) => eb.or([eb("cancel_at_period_end", "=", true), eb("status", "=", "canceled")]))
        .executeTakeFirst()) !== undefined;
    await writeAudit(trx, {
      actorId: admin.userId,
      action: ACTIONS[decision],
      subjectType: "profile",
      subjectId: dentistId,
      details: decision === "verify" ? { checked } : reason ? { reason } : {},
      at: now,
    });
    return { dentist, changed: true, reviewsMeanwhile, renewalStopped };
  });
  // The dentist's next request, on any instance, sees the decision (ADR 026).
  if (result.changed) await sessionsChanged(deps.db, dentistId);
  // Withdrawn: nothing more billed to him while he cannot use Sourio (ADR 093's addendum).
  const stop = result.changed && decision === "unverify" ? await deps.stopRenewal(dentistId) : null;
  if (result.changed) {
    const link = `${deps.config.publicUrl}/${decision === "verify" ? "dentist/quote-requests" : "dentist/profile"}`;
    mailAfterCommit(
      deps,
      {
        to: result.dentist.email,
        ...verificationDecisionMail({
          brandName: deps.config.brandName,
          firstName: result.dentist.first_name,
          decision,
          reason,
          link,
          reviewsMeanwhile: {
            count: result.reviewsMeanwhile,
            link: `${deps.config.publicUrl}/dentist/reviews`,
          },
          subscriptionEndsOn:
            stop?.renewal === "stopped" && stop.endsAt ? formatDetailDate(stop.endsAt) : null,
          renewalStopped: result.renewalStopped,
        }),
      },
      "e-mail de vérification non envoyé",
    );
  }
  const after = await deps.db
    .selectFrom("profiles")
    .select(["is_verified", sql<boolean>`verification_requested_at is not null`.as("requested")])
    .where("id", "=", dentistId)
    .executeTakeFirstOrThrow();
  return { changed: result.changed, is_verified: after.is_verified, renewal: stop?.renewal ?? null };
}

/**
 * The reviews about a dentist published after his verification was last withdrawn (0 if it never
 * was): while he is not verified, no e-mail tells him of one (D6).
 */
async function reviewsPublishedSinceWithdrawal(db: Db, dentistId: string): Promise<number> {
  const row = await db
    .selectFrom("reviews")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("dentist_id", "=", dentistId)
    .where("status", "=", "published")
    .where(
      "published_at",
      ">=",
      db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.max("created_at").as("at"))
        .where("subject_type", "=", "profile")
        .where("subject_id", "=", dentistId)
        .where("action", "=", ACTIONS.unverify),
    )
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The dentist's RPPS number and practice are those the admin's screen showed. */
function sameAsRead(dentist: Record<VerificationField, string | null>, checked: VerifiedFacts | undefined) {
  return !!checked && VERIFIED_FIELDS.every((field) => (dentist[field] ?? "") === checked[field]);
}

/** Another verified dentist who gave this RPPS number, if any (the index of migration 049). */
async function verifiedHolderOf(trx: Db, rpps: string, except: string) {
  return trx
    .selectFrom("profiles")
    .select("id")
    .where("rpps", "=", rpps)
    .where("id", "!=", except)
    .where("role", "=", "dentist")
    .where("is_verified", "=", true)
    .executeTakeFirst();
}
