import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { ERASED_MESSAGE_BODY, ERASED_NAME, ERASURE_MESSAGES } from "../../../shared/schemas/account";
import { BILLING_MESSAGES } from "../../../shared/schemas/billing";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import { avatarKeyOf } from "../../db/file-keys";
import type { Db } from "../../db/index";
import { AppError } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import { accountErasedMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import type { Storage } from "../../storage/storage";
import type { LoginThrottle } from "../../throttle/login-throttle";
import {
  createPseudonym,
  eraseDentistRecords,
  erasePatientRecords,
  eraseReviewsOf,
  type Person,
  personOf,
} from "./erasure.repo";
import { checkOwnPassword } from "./own-password";

/*
 * Erasure of an account (RGPD art. 17, issue 14, ADR 014). What goes: the profile, sessions,
 * password, requests, documents and their files, the support thread, contact messages sent with the
 * address, the content and attachments of the person's messages, the avatar. What stays, because
 * someone else keeps a right to it, is re-attached to a pseudonym (a profile of its own, 'Compte
 * supprimé', that never signs in): a request whose offer was accepted (without its description
 * and documents: the accepted amount is the dentist's accounting), the other party's side of a
 * conversation (the person's messages read 'Message supprimé'), past appointments, the accepted
 * offers of an erased dentist, and the log rows (access history, audit), without name or details.
 */

export interface ErasureDeps {
  db: Db;
  storage: Storage;
  mailer: Mailer;
  brandName: string;
  now: Date;
  log: { error(obj: object, msg: string): void };
  /**
   * Cancels a dentist's live subscription now at the payment provider (issue 35, ADR 044: the app's
   * `billing.cancelForErasure`), before his account is erased; resolves to whether one was. Without
   * it such an erasure is refused (503), never done with the subscription still billing.
   */
  cancelSubscription?: (dentistId: string) => Promise<boolean>;
}

/** The erasure's dependencies from the app, for a route's request (its logger) or a job. */
export function erasureDeps(
  app: Pick<FastifyInstance, "db" | "storage" | "mailer" | "config" | "clock" | "billing">,
  log: ErasureDeps["log"],
): ErasureDeps {
  return {
    db: app.db,
    storage: app.storage,
    mailer: app.mailer,
    brandName: app.config.brandName,
    now: app.clock(),
    log,
    cancelSubscription: (dentistId) => app.billing.cancelForErasure(dentistId, log),
  };
}

export const ERASURE_ACTION = "account.erased";
export const ERASURE_REFUSED_ACTION = "account.erasure_refused";

/** The person's own password before an erasure (own-password.ts: charged, a refusal audited). */
export function checkErasurePassword(
  deps: ErasureDeps,
  throttle: LoginThrottle,
  userId: string,
  password: string,
): Promise<void> {
  return checkOwnPassword(deps.db, throttle, userId, password, {
    field: "password",
    wrong: ERASURE_MESSAGES.passwordWrong,
    tooMany: ERASURE_MESSAGES.tooManyAttempts,
    refusedAction: ERASURE_REFUSED_ACTION,
    at: deps.now,
  });
}

/** Refuses while the person has a confirmed appointment to come: the other party must know. */
async function assertNoUpcomingAppointment(db: Db, person: Person, now: Date): Promise<void> {
  const column = person.role === "dentist" ? "dentist_id" : "patient_id";
  const upcoming = await db
    .selectFrom("appointments")
    .select("id")
    .where(column, "=", person.id)
    .where("status", "=", "confirmed")
    .where("starts_at", ">", now)
    .limit(1)
    .executeTakeFirst();
  if (upcoming)
    throw new AppError(
      409,
      ERROR_CODES.conflict,
      ERASURE_MESSAGES.upcomingAppointments(person.role === "dentist"),
    );
}

/**
 * Erases one account. `by` is the person themself, the admin who acts on their request, or the
 * retention job (inactive for the period, warned by e-mail before). Returns
 * the pseudonym's id (the audit row's subject) and whether a live subscription was cancelled at
 * the payment provider first (issue 35; its invoices stay). Files go after the commit; one that
 * fails to go is no longer referenced, and the sweeper removes it.
 */
export async function eraseAccount(
  deps: ErasureDeps,
  userId: string,
  by: { adminId: string } | "self" | "retention",
): Promise<{ pseudonym: string; subscriptionCancelled: boolean }> {
  if (typeof by === "object") {
    const admin = await personOf(deps.db, by.adminId);
    if (!admin?.is_admin) throw new AppError(403, ERROR_CODES.forbidden, ERASURE_MESSAGES.adminAccount);
  }
  const person = await personOf(deps.db, userId);
  if (!person) throw new AppError(404, ERROR_CODES.notFound, ERASURE_MESSAGES.notFound);
  // An administrator's access is removed by another administrator, not erased from here.
  if (person.is_admin || person.role === null)
    throw new AppError(403, ERROR_CODES.forbidden, ERASURE_MESSAGES.adminAccount);
  await assertNoUpcomingAppointment(deps.db, person, deps.now);
  // A dentist's live subscription is cancelled at the provider first: nothing more is billed to an
  // account that is gone. The provider failing stops the erasure here, before anything is erased.
  const subscriptionCancelled =
    person.role === "dentist" ? await cancelBeforeErasure(deps, person.id) : false;

  const { pseudonym, keys } = await deps.db.transaction().execute(async (trx) => {
    // The person's row locked first: a write of theirs that needs it (a new request with its files,
    // which takes a key-share lock) finishes before and is erased below, or waits and finds no one.
    await trx.selectFrom("profiles").select("id").where("id", "=", person.id).forUpdate().execute();
    const keys: string[] = [];
    const pseudonym = await createPseudonym(trx, person, deps.now);
    // Reviews (issue 36): those the person wrote, or about them, go with their reports (ADR 046).
    await eraseReviewsOf(trx, person.id);
    if (person.role === "patient") await erasePatientRecords(trx, person.id, pseudonym, keys, deps.now);
    else await eraseDentistRecords(trx, person.id, pseudonym, deps.now);

    // Messages the person sent in conversations that stay: content and attachments go.
    const attachments = await trx
      .deleteFrom("message_attachments")
      .where("message_id", "in", trx.selectFrom("messages").select("id").where("sender_id", "=", person.id))
      .returning("storage_key")
      .execute();
    keys.push(...attachments.map((a) => a.storage_key));
    await trx
      .updateTable("messages")
      .set({ body: ERASED_MESSAGE_BODY, sender_id: pseudonym })
      .where("sender_id", "=", person.id)
      .execute();
    // The conversations and appointments stay, the pseudonym as the party the person was.
    for (const table of ["conversations", "appointments"] as const)
      for (const party of ["patient_id", "dentist_id"] as const)
        await trx
          .updateTable(table)
          .set({ [party]: pseudonym })
          .where(party, "=", person.id)
          .execute();

    // The support thread (its images, the team's included) and contact messages sent with the address.
    const support = await trx
      .deleteFrom("support_messages")
      .where("patient_id", "=", person.id)
      .returning("image_key")
      .execute();
    keys.push(...support.flatMap((m) => (m.image_key ? [m.image_key] : [])));
    await trx.deleteFrom("support_threads").where("patient_id", "=", person.id).execute();
    await trx
      .updateTable("support_messages")
      .set({ sender_id: pseudonym })
      .where("sender_id", "=", person.id)
      .execute();
    const contacts = await trx
      .deleteFrom("contact_submissions")
      .where(sql<boolean>`lower(email) = ${person.email.toLowerCase()}`)
      .returning("file_key")
      .execute();
    keys.push(...contacts.flatMap((c) => (c.file_key ? [c.file_key] : [])));

    // Log rows stay, without the person: the pseudonym, no name, no details.
    await trx
      .updateTable("document_access")
      .set({ actor_id: pseudonym, actor_name: ERASED_NAME })
      .where("actor_id", "=", person.id)
      .execute();
    await sql`update audit_log set actor_id = ${pseudonym}, details = '{}'::jsonb where actor_id = ${person.id}`.execute(
      trx,
    );
    await sql`update audit_log set subject_id = ${pseudonym}, details = '{}'::jsonb where subject_id = ${person.id}`.execute(
      trx,
    );
    // Rows about something else that name the person in their details (an image of their thread).
    await sql`update audit_log set details = '{}'::jsonb where details::text like ${`%${person.id}%`}`.execute(
      trx,
    );
    await trx.deleteFrom("verifications").where("value", "=", person.id).execute();

    const profile = await trx
      .selectFrom("profiles")
      .select("avatar_url")
      .where("id", "=", person.id)
      .executeTakeFirstOrThrow();
    const avatar = avatarKeyOf(profile.avatar_url);
    if (avatar) keys.push(avatar);
    // The account itself: profile, sessions, password, what is left of theirs (cascades).
    await trx.deleteFrom("users").where("id", "=", person.id).execute();

    await writeAudit(trx, {
      actorId: by === "self" ? pseudonym : by === "retention" ? null : by.adminId,
      action: ERASURE_ACTION,
      subjectType: "profile",
      subjectId: pseudonym,
      details: { by: typeof by === "object" ? "admin" : by, role: person.role },
      at: deps.now,
    });
    return { pseudonym, keys };
  });
  // Signed out at once on every instance (the sessions went with the account, ADR 026).
  await sessionsChanged(deps.db, person.id);

  await Promise.all(keys.map((key) => deps.storage.remove(key).catch(() => undefined)));
  try {
    await deps.mailer.send({
      to: person.email,
      ...accountErasedMail({ brandName: deps.brandName, firstName: person.first_name }),
    });
  } catch (error) {
    deps.log.error({ err: loggableError(error) }, "e-mail de suppression de compte non envoyé");
  }
  return { pseudonym, subscriptionCancelled };
}

async function cancelBeforeErasure(deps: ErasureDeps, dentistId: string): Promise<boolean> {
  if (deps.cancelSubscription) return deps.cancelSubscription(dentistId);
  const live = await deps.db
    .selectFrom("subscriptions")
    .select("dentist_id")
    .where("dentist_id", "=", dentistId)
    .where("subscription_id", "is not", null)
    .where("status", "!=", "canceled")
    .executeTakeFirst();
  if (live) throw new AppError(503, "SERVICE_UNAVAILABLE", BILLING_MESSAGES.erasureCancelFailed);
  return false;
}
