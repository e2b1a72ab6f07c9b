import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { z } from "zod";
import { formatDetailDateTime } from "../../../shared/format/dates";
import {
  EMAIL_CHANGE_CONFIRM_PATH,
  EMAIL_CHANGE_MESSAGES,
  type emailChangeConfirmSchema,
  type emailChangeSchema,
  forgotPasswordPath,
  SECURITY_MESSAGES,
  securityPath,
} from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { hasRow } from "../../db/queries";
import { AppError, forbidden } from "../../errors";
import type { Mailer, MailMessage } from "../../mail/mailer";
import { emailChangedMail, emailChangeLinkMail, emailInUseMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import type { LoginThrottle } from "../../throttle/login-throttle";
import { checkOwnPassword } from "./own-password";

/*
 * « Changer mon adresse e-mail » (ADR 083): the current password, then a link sent to the new
 * address; the address changes only when that link is opened (the person owns it), and the old
 * address is told. One link alive per account; it lives an hour and serves once.
 */

export interface EmailChangeDeps {
  db: Db;
  mailer: Mailer;
  config: Pick<AppConfig, "brandName" | "publicUrl" | "contactEmail">;
  clock: () => Date;
  log: { error(obj: object, msg: string): void };
  /** The own-password counter (own-password.ts). */
  throttle: LoginThrottle;
  /** A dentist's customer at the payment provider follows his address (billing runtime). */
  customerEmailChanged: (dentistId: string, email: string) => Promise<void>;
}

export const EMAIL_CHANGE_ACTIONS = {
  requested: "account.email_change_requested",
  refused: "account.email_change_refused",
  changed: "account.email_changed",
} as const;

/** How long the link sent to the new address works. */
export const EMAIL_CHANGE_LINK_MS = 60 * 60_000;

const PREFIX = "change-email:";
const digest = (token: string) => createHash("sha256").update(token).digest("hex");

const taken = () =>
  new AppError(409, ERROR_CODES.emailTaken, EMAIL_CHANGE_MESSAGES.taken, {
    new_email: EMAIL_CHANGE_MESSAGES.taken,
  });
const linkInvalid = () => new AppError(400, ERROR_CODES.invalidToken, EMAIL_CHANGE_MESSAGES.linkInvalid);

const addressTaken = (db: Db, email: string, exceptUserId: string) =>
  hasRow(db.selectFrom("users").select("id").where("email", "=", email).where("id", "<>", exceptUserId));

/**
 * POST /api/account/email. Patients and dentists (an administrator's address is the server's
 * ADMIN_EMAIL). The link goes to the new address; the stored row holds the token's digest only,
 * so the database alone cannot open it. Returns the answer's message.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  actor: Actor,
  input: z.output<typeof emailChangeSchema>,
): Promise<string> {
  const { profile } = actor;
  if (profile.is_admin) throw forbidden(EMAIL_CHANGE_MESSAGES.adminRefused);
  await checkOwnPassword(deps.db, deps.throttle, actor.userId, input.current_password, {
    field: "current_password",
    wrong: SECURITY_MESSAGES.currentPasswordWrong,
    tooMany: SECURITY_MESSAGES.tooManyAttempts,
    refusedAction: EMAIL_CHANGE_ACTIONS.refused,
    at: deps.clock(),
  });
  if (input.new_email === profile.email.toLowerCase())
    throw new AppError(400, ERROR_CODES.validation, EMAIL_CHANGE_MESSAGES.same, {
      new_email: EMAIL_CHANGE_MESSAGES.same,
    });
  const now = deps.clock();
  const requested = (db: Db) =>
    writeAudit(db, {
      actorId: actor.userId,
      action: EMAIL_CHANGE_ACTIONS.requested,
      subjectType: "profile",
      subjectId: actor.userId,
      at: now,
    });

  // Another account's address gets the same answer (else the route would tell anyone signed in,
  // without limit, which addresses have an account): that address is told instead of linked.
  const owner = await deps.db
    .selectFrom("users as u")
    .leftJoin("profiles as p", "p.id", "u.id")
    .select(["p.role", "p.is_admin"])
    .where("u.email", "=", input.new_email)
    .where("u.id", "<>", actor.userId)
    .executeTakeFirst();
  if (owner) {
    await requested(deps.db);
    // Its owner's own « Mot de passe oublié » (an account without profile: the patients' one).
    const forgot = forgotPasswordPath({ role: owner.role, is_admin: owner.is_admin ?? false });
    await send(deps, {
      to: input.new_email,
      ...emailInUseMail({
        brandName: deps.config.brandName,
        forgotLink: new URL(forgot, deps.config.publicUrl).href,
      }),
    });
    return EMAIL_CHANGE_MESSAGES.sent(input.new_email);
  }

  const token = randomBytes(32).toString("base64url");
  await deps.db.transaction().execute(async (trx) => {
    // One link alive per account (the newest), and none left over past its hour.
    await trx
      .deleteFrom("verifications")
      .where("identifier", "like", `${PREFIX}%`)
      .where((eb) => eb.or([eb("value", "=", actor.userId), eb("expires_at", "<=", now)]))
      .execute();
    await trx
      .insertInto("verifications")
      .values({
        id: randomUUID(),
        identifier: `${PREFIX}${digest(token)}:${input.new_email}`,
        value: actor.userId,
        expires_at: new Date(now.getTime() + EMAIL_CHANGE_LINK_MS),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await requested(trx);
  });
  const link = new URL(EMAIL_CHANGE_CONFIRM_PATH, deps.config.publicUrl);
  link.searchParams.set("token", token);
  await send(deps, {
    to: input.new_email,
    ...emailChangeLinkMail({
      brandName: deps.config.brandName,
      firstName: profile.first_name,
      link: link.href,
    }),
  });
  return EMAIL_CHANGE_MESSAGES.sent(input.new_email);
}

/** Awaited: if the address refuses the e-mail, the person is told now (503), not left waiting. */
async function send(deps: EmailChangeDeps, message: MailMessage): Promise<void> {
  await deps.mailer.send(message).catch((error: unknown) => {
    deps.log.error({ err: loggableError(error) }, "e-mail de changement d'adresse non envoyé");
    throw new AppError(503, "SERVICE_UNAVAILABLE", EMAIL_CHANGE_MESSAGES.notSent);
  });
}

/**
 * POST /api/account/email/confirm, from the link (no session needed: the link may be opened on
 * another device; the token is the proof of the new address). The account's address changes in
 * one transaction (Better Auth's user and the profile), the link is spent, the old address is told.
 */
export async function confirmEmailChange(
  deps: EmailChangeDeps,
  input: z.output<typeof emailChangeConfirmSchema>,
): Promise<string> {
  const now = deps.clock();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const key = `${PREFIX}${digest(input.token)}:`;
    const row = await trx
      .selectFrom("verifications")
      .select(["id", "identifier", "value"])
      .where("identifier", "like", `${key}%`)
      .where("expires_at", ">", now)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw linkInvalid();
    const userId = row.value;
    const email = row.identifier.slice(key.length);
    const before = await trx
      .selectFrom("profiles")
      .select(["email", "first_name", "role", "is_admin"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!before) throw linkInvalid();
    // Taken since the request (another account signed up with it): the link stays, as useless.
    if (await addressTaken(trx, email, userId)) throw taken();
    await trx.deleteFrom("verifications").where("id", "=", row.id).execute();
    await trx
      .updateTable("users")
      .set({ email, email_verified: true, updated_at: now })
      .where("id", "=", userId)
      .execute()
      .catch((error: unknown) => {
        // Taken at this very moment by another confirmation or sign-up (the unique address).
        if ((error as { code?: string }).code === "23505") throw taken();
        throw error;
      });
    await trx.updateTable("profiles").set({ email }).where("id", "=", userId).execute();
    // The messages of the contact form sent from the former address are the person's: an erasure
    // finds them by the account's address (erasure.service.ts), so they follow it.
    await trx
      .updateTable("contact_submissions")
      .set({ email })
      .where(sql<boolean>`lower(email) = ${before.email.toLowerCase()}`)
      .execute();
    await writeAudit(trx, {
      actorId: userId,
      action: EMAIL_CHANGE_ACTIONS.changed,
      subjectType: "profile",
      subjectId: userId,
      at: now,
    });
    return { userId, email, before };
  });
  // The sessions' cached profile (access/session-cache.ts) carries the address.
  await sessionsChanged(deps.db, changed.userId);

  const { before } = changed;
  await deps.mailer
    .send({
      to: before.email,
      ...emailChangedMail({
        brandName: deps.config.brandName,
        firstName: before.first_name,
        when: formatDetailDateTime(now),
        newEmail: changed.email,
        securityLink: new URL(securityPath(before), deps.config.publicUrl).href,
        contactEmail: deps.config.contactEmail,
      }),
    })
    .catch((error: unknown) => {
      deps.log.error({ err: loggableError(error) }, "e-mail d'adresse modifiée non envoyé");
    });
  if (before.role === "dentist") await deps.customerEmailChanged(changed.userId, changed.email);
  return EMAIL_CHANGE_MESSAGES.done;
}
