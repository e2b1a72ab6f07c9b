import type { RenewalStop } from "../../../shared/domain/subscription";
import { formatDetailDate } from "../../../shared/format/dates";
import { parisLocalToDate } from "../../../shared/format/paris";
import {
  ADMIN_MESSAGES,
  type SuspensionEndInput,
  type SuspensionInput,
  suspensionEndIssues,
} from "../../../shared/schemas/admin";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, forbidden, notFound, validationError } from "../../errors";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import { accountReinstatedMail, accountSuspendedMail, suspensionEndChangedMail } from "../../mail/templates";
import type { AnnounceDeps } from "../../realtime/bus";
import { loggableError } from "../../redact";
import { cancelOpenRequests } from "../requests/requests.repo";
import { tellDentistsOfCancellation } from "../requests/requests.service";

/** What lifting a suspension needs (the mail job has no bus: nothing is announced). */
interface LiftDeps extends MailAfterCommit {
  db: Db;
  config: AppConfig;
  clock: () => Date;
}

interface Deps extends LiftDeps, AnnounceDeps {}

/** What suspending a dentist needs besides: his subscription not renewed (the app's billing). */
interface SuspendDeps extends Deps {
  stopRenewal: (dentistId: string) => Promise<RenewalStop>;
}

/**
 * The team suspends a patient's or a dentist's account (ADR 092; the terms: « Nous pouvons suspendre
 * un compte en cas d'usage frauduleux ou contraire à ces conditions »), in one transaction with its
 * audit rows: the reason kept on the profile, every session of the person ended (the session cache
 * and the live sockets follow the sessions' notifications, ADR 039), her open requests cancelled
 * (their waiting offers closed, the dentists told), a dentist's verification withdrawn (he no longer
 * sees requests nor is shown to patients). Sign-in is refused while it lasts (account.service.ts),
 * and a session found anyway is no session (access/actor.ts). Never an administrator's account.
 * Suspending one already suspended changes nothing and writes nothing. After the commit, a dentist's
 * live subscription is not renewed (billing.service.ts, `renewal`: `failed` when the provider could
 * not be told, for the team to do it there), and the person is e-mailed the reason. With an end day
 * (ADR 092's addendum), the mail job lifts it that day at 0:00 in Paris (`liftEndedSuspensions`).
 */
export async function suspendAccount(
  deps: SuspendDeps,
  admin: Actor,
  userId: string,
  input: Required<SuspensionInput>,
) {
  if (!admin.profile.is_admin) throw forbidden();
  const now = deps.clock();
  const { reason, ends_on: endsOn } = input;
  const issues = suspensionEndIssues(endsOn, now);
  if (issues.length > 0) throw validationError(issues);
  const endsAt = endsOn === null ? null : parisLocalToDate(`${endsOn}T00:00`);
  const result = await deps.db.transaction().execute(async (trx) => {
    const person = await lockedPerson(trx, userId);
    if (person.suspended_at !== null) return { person, changed: false as const };
    await trx
      .updateTable("profiles")
      .set({
        suspended_at: now,
        suspension_reason: reason,
        suspension_ends_at: endsAt,
        updated_at: now,
        // A dentist: out of the patients' sight and of their requests, as « Retirer la vérification »;
        // a request for verification waiting in the team's queue goes with it.
        ...(person.role === "dentist" && {
          is_verified: false,
          verification_requested_at: null,
          ...(person.is_verified && { verification_decided_at: now, verification_refusal_reason: null }),
        }),
      })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    const cancelled = person.role === "patient" ? await cancelOpenRequests(trx, userId, now) : [];
    await writeAudit(trx, {
      actorId: admin.userId,
      action: "account.suspended",
      subjectType: "profile",
      subjectId: userId,
      details: {
        reason,
        ...(endsAt && { ends_at: endsAt.toISOString() }),
        cancelled_requests: cancelled.map((request) => request.id),
      },
      at: now,
    });
    // Read by the reviews' rule « published since his verification was withdrawn » (admin.service.ts).
    if (person.role === "dentist" && person.is_verified)
      await writeAudit(trx, {
        actorId: admin.userId,
        action: "verification.revoked",
        subjectType: "profile",
        subjectId: userId,
        details: { reason, suspension: true },
        at: now,
      });
    return { person, changed: true as const, cancelled };
  });
  if (!result.changed) return { changed: false, renewal: null } as const;
  // The person's next request, on any instance, finds no session (ADR 026).
  await sessionsChanged(deps.db, userId);
  tellDentistsOfCancellation(deps, result.cancelled);
  const { person } = result;
  const stop = person.role === "dentist" ? await deps.stopRenewal(userId) : null;
  mailAfterCommit(
    deps,
    {
      to: person.email,
      ...accountSuspendedMail({
        brandName: deps.config.brandName,
        firstName: person.first_name,
        role: person.role,
        reason,
        endsOn: endsAt === null ? null : formatDetailDate(endsAt),
        cancelledRequests: result.cancelled.length,
        verificationWithdrawn: person.role === "dentist" && person.is_verified,
        subscriptionEndsOn: stop?.renewal === "stopped" && stop.endsAt ? formatDetailDate(stop.endsAt) : null,
        link: `${deps.config.publicUrl}/contact`,
      }),
    },
    "e-mail de suspension du compte non envoyé",
  );
  return { changed: true, renewal: stop?.renewal ?? null } as const;
}

/**
 * The team changes the day a suspension in place is lifted by itself, or takes it away (ADR 092's
 * addendum of 06/12): checked against the clock as at suspension (from tomorrow, within a year), in
 * one transaction with its audit row, then the person is e-mailed the new day. The same day again
 * changes nothing and writes nothing; an account not suspended (lifted meanwhile) is a 409.
 */
export async function setSuspensionEnd(
  deps: LiftDeps,
  admin: Actor,
  userId: string,
  { ends_on: endsOn }: SuspensionEndInput,
) {
  if (!admin.profile.is_admin) throw forbidden();
  const now = deps.clock();
  const issues = suspensionEndIssues(endsOn, now);
  if (issues.length > 0) throw validationError(issues);
  const endsAt = endsOn === null ? null : parisLocalToDate(`${endsOn}T00:00`);
  const result = await deps.db.transaction().execute(async (trx) => {
    const person = await lockedPerson(trx, userId);
    if (person.suspended_at === null) throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.notSuspended);
    const before = person.suspension_ends_at;
    if ((before?.getTime() ?? null) === (endsAt?.getTime() ?? null)) return { person, changed: false };
    await trx
      .updateTable("profiles")
      .set({ suspension_ends_at: endsAt, updated_at: now })
      .where("id", "=", userId)
      .execute();
    await writeAudit(trx, {
      actorId: admin.userId,
      action: "account.suspension_end_changed",
      subjectType: "profile",
      subjectId: userId,
      details: { ends_at: endsAt?.toISOString() ?? null, previous_ends_at: before?.toISOString() ?? null },
      at: now,
    });
    return { person, changed: true };
  });
  if (!result.changed) return { changed: false, message: ADMIN_MESSAGES.suspensionEndUnchanged };
  mailAfterCommit(
    deps,
    {
      to: result.person.email,
      ...suspensionEndChangedMail({
        brandName: deps.config.brandName,
        firstName: result.person.first_name,
        endsOn: endsAt === null ? null : formatDetailDate(endsAt),
        link: `${deps.config.publicUrl}/contact`,
      }),
    },
    "e-mail de changement de la fin de suspension non envoyé",
  );
  return {
    changed: true,
    message: endsAt === null ? ADMIN_MESSAGES.suspensionEndRemoved : ADMIN_MESSAGES.suspensionEndSet,
  };
}

/**
 * The team lifts a suspension (ADR 092): the person may sign in again and is told by e-mail. What the
 * suspension ended stays ended: her cancelled requests, a dentist's verification (the team verifies
 * him again with « Vérifier »).
 */
export async function reinstateAccount(deps: Deps, admin: Actor, userId: string) {
  if (!admin.profile.is_admin) throw forbidden();
  return liftSuspension(deps, userId, admin.userId);
}

/**
 * The suspensions whose end has come (ADR 092's addendum), lifted as the team's « Rétablir » does,
 * by no one (the audit row's actor is empty, `automatic` in its details) and with the e-mail saying
 * so; run by the mail job every minute. Each is checked again under its row's lock, so a suspension
 * lifted by hand meanwhile, or one lifted by another run, is left as it is; one that fails is logged
 * and tried again at the next run, the others lifted. Resolves to how many were lifted.
 */
export async function liftEndedSuspensions(deps: LiftDeps): Promise<number> {
  const due = await deps.db
    .selectFrom("profiles")
    .select("id")
    // profiles_suspension_ends_idx (migration 060): the dated suspensions only.
    .where("suspension_ends_at", "<=", deps.clock())
    .orderBy("suspension_ends_at")
    .execute();
  let lifted = 0;
  for (const { id } of due) {
    try {
      if ((await liftSuspension(deps, id, null)).changed) lifted += 1;
    } catch (error) {
      deps.log.error({ err: loggableError(error) }, "suspension arrivée à son terme non levée");
    }
  }
  return lifted;
}

/**
 * A suspension lifted, in one transaction with its audit row, then the person e-mailed: by an
 * administrator (`actorId`), or by its end (null: only if its end has come).
 */
async function liftSuspension(deps: LiftDeps, userId: string, actorId: string | null) {
  const now = deps.clock();
  const automatic = actorId === null;
  const result = await deps.db.transaction().execute(async (trx) => {
    const person = await lockedPerson(trx, userId);
    if (person.suspended_at === null) return { person, changed: false };
    if (automatic && !(person.suspension_ends_at !== null && person.suspension_ends_at <= now))
      return { person, changed: false };
    await trx
      .updateTable("profiles")
      .set({ suspended_at: null, suspension_reason: null, suspension_ends_at: null, updated_at: now })
      .where("id", "=", userId)
      .execute();
    await writeAudit(trx, {
      actorId,
      action: "account.reinstated",
      subjectType: "profile",
      subjectId: userId,
      details: { suspended_at: person.suspended_at.toISOString(), ...(automatic && { automatic: true }) },
      at: now,
    });
    return { person, changed: true };
  });
  if (!result.changed) return { changed: false };
  const { person } = result;
  mailAfterCommit(
    deps,
    {
      to: person.email,
      ...accountReinstatedMail({
        brandName: deps.config.brandName,
        firstName: person.first_name,
        role: person.role,
        automatic,
        link: `${deps.config.publicUrl}/${person.role === "dentist" ? "dentist/login" : "login"}`,
      }),
    },
    "e-mail de fin de suspension non envoyé",
  );
  return { changed: true };
}

/** The patient's or dentist's profile row, locked: 404 for no such person, 409 for an administrator. */
async function lockedPerson(trx: Db, userId: string) {
  const person = await trx
    .selectFrom("profiles")
    .select([
      "id",
      "role",
      "is_admin",
      "email",
      "first_name",
      "is_verified",
      "suspended_at",
      "suspension_ends_at",
    ])
    .where("id", "=", userId)
    // Pseudonyms of erased accounts are nobody's account.
    .where("erased_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (!person) throw notFound(ADMIN_MESSAGES.userNotFound);
  if (person.is_admin || person.role === null)
    throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.notSuspendable);
  return { ...person, role: person.role };
}
