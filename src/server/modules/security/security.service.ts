import type { z } from "zod";
import { formatDetailDateTime } from "../../../shared/format/dates";
import {
  type AccountSession,
  forgotPasswordPath,
  type passwordChangeSchema,
  SECURITY_MESSAGES,
} from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import type { Actor } from "../../access/actor";
import { type AuditAction, writeAudit } from "../../access/audit";
import { type Auth, forgetRememberedDevice, forgetResetLinks } from "../../auth";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, notFound } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import { passwordChangedMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import { type LoginThrottle, OWN_PASSWORD_LIMIT } from "../../throttle/login-throttle";
import { deviceLabel, maskIp } from "./device";
import { OWN_PASSWORD_WINDOW_MS, withOwnPasswordCall } from "./own-password";
import { assertNotCommonPassword } from "./password-rule";

/*
 * 'Sécurité' of every profile: change one's password (the current one required, the other
 * sessions revoked, an e-mail to say so) and see or end one's own sessions. Better Auth does the
 * password and session work; every query here is bound to the actor.
 */

export interface Deps {
  db: Db;
  auth: Auth;
  mailer: Mailer;
  config: AppConfig;
  clock: () => Date;
  log: { error(obj: object, msg: string): void };
  /** The own-password counter (own-password.ts). */
  throttle: LoginThrottle;
}

export const SECURITY_ACTIONS = {
  passwordChanged: "account.password_changed",
  passwordChangeRefused: "account.password_change_refused",
} as const;

/**
 * Wrong current passwords allowed per account in the window (with the erasure's): someone holding
 * an open session (a shared computer) cannot try passwords until one fits. Charged before the check
 * to a counter in the database (own-password.ts), so parallel attempts and every instance share it.
 */
export const MAX_WRONG_CURRENT_PASSWORDS = OWN_PASSWORD_LIMIT;
export const WRONG_CURRENT_PASSWORD_WINDOW_MS = OWN_PASSWORD_WINDOW_MS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const wrongCurrentPassword = () =>
  new AppError(400, ERROR_CODES.validation, SECURITY_MESSAGES.currentPasswordWrong, {
    current_password: SECURITY_MESSAGES.currentPasswordWrong,
  });

const audit = (deps: Deps, actor: Actor, action: AuditAction, details: Record<string, unknown>) =>
  writeAudit(deps.db, {
    actorId: actor.userId,
    action,
    subjectType: "profile",
    subjectId: actor.userId,
    details,
    at: deps.clock(),
  });

/**
 * POST /api/account/password. Better Auth checks the current password, stores the new one,
 * deletes every session of the account and opens a new one for this device (its cookie is in the
 * returned headers). Then the audit row and the e-mail, once the change is committed.
 */
export async function changePassword(
  deps: Deps,
  actor: Actor,
  input: z.output<typeof passwordChangeSchema>,
  headers: Headers,
): Promise<Headers | null> {
  await assertNotCommonPassword(input.new_password, "new_password", [
    actor.profile.email,
    actor.profile.first_name,
    actor.profile.last_name,
  ]);
  const change = () =>
    deps.auth.api.changePassword({
      body: {
        currentPassword: input.current_password,
        newPassword: input.new_password,
        revokeOtherSessions: true,
      },
      headers,
      returnHeaders: true,
    });
  const result = await withOwnPasswordCall(
    deps.throttle,
    actor.userId,
    SECURITY_MESSAGES.tooManyAttempts,
    change,
    async () => {
      await audit(deps, actor, SECURITY_ACTIONS.passwordChangeRefused, {});
      throw wrongCurrentPassword();
    },
  );

  await forgetResetLinks(deps.db, actor.userId);
  await audit(deps, actor, SECURITY_ACTIONS.passwordChanged, { other_sessions_revoked: true });
  try {
    await deps.mailer.send({
      to: actor.profile.email,
      ...passwordChangedMail({
        brandName: deps.config.brandName,
        firstName: actor.profile.first_name,
        when: formatDetailDateTime(deps.clock()),
        device: deviceLabel(headers.get("user-agent")),
        resetLink: new URL(forgotPasswordPath(actor.profile), deps.config.publicUrl).href,
      }),
    });
  } catch (error) {
    // The password is changed either way; the failure is logged without the address.
    deps.log.error({ err: loggableError(error) }, "e-mail de changement de mot de passe non envoyé");
  }
  return result.headers;
}

/** The id of the session behind this request's cookie (without refreshing it a second time). */
async function currentSessionId(deps: Deps, headers: Headers): Promise<string | null> {
  const session = await deps.auth.api.getSession({ headers, query: { disableRefresh: true } });
  return session?.session.id ?? null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** GET /api/account/sessions: the actor's unexpired sessions, newest first, without their tokens. */
export async function listSessions(deps: Deps, actor: Actor, headers: Headers): Promise<AccountSession[]> {
  const current = await currentSessionId(deps, headers);
  const rows = await deps.db
    .selectFrom("sessions")
    .select(["id", "ip_address", "user_agent", "created_at", "updated_at", "expires_at"])
    .where("user_id", "=", actor.userId)
    .where("expires_at", ">", deps.clock())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    device: deviceLabel(row.user_agent),
    ip: maskIp(row.ip_address),
    created_at: iso(row.created_at),
    last_active_at: iso(row.updated_at),
    expires_at: iso(row.expires_at),
    current: row.id === current,
  }));
}

/**
 * DELETE /api/account/sessions/:id: ends one of the actor's sessions. Another person's session,
 * an unknown or malformed id: 404. The current session is a sign-out (its cookie is cleared:
 * the returned headers carry it). Another device's session ends with the device it remembered for
 * two-step sign-in, if any (ADR 098).
 */
export async function revokeSession(
  deps: Deps,
  actor: Actor,
  id: string,
  headers: Headers,
): Promise<{ signedOut: boolean; headers: Headers | null }> {
  if (!UUID.test(id)) throw notFound(SECURITY_MESSAGES.sessionNotFound);
  const row = await deps.db
    .selectFrom("sessions")
    .select(["id", "token", "remembered_device"])
    .where("id", "=", id)
    .where("user_id", "=", actor.userId)
    .where("expires_at", ">", deps.clock())
    .executeTakeFirst();
  if (!row) throw notFound(SECURITY_MESSAGES.sessionNotFound);
  if (row.id === (await currentSessionId(deps, headers))) {
    const result = await deps.auth.api.signOut({ headers, returnHeaders: true });
    return { signedOut: true, headers: result.headers };
  }
  await deps.auth.api.revokeSession({ body: { token: row.token }, headers });
  // The device this session remembered (two-step sign-in) asks the code again: a lost laptop whose
  // browser kept the password does not get back in with it alone.
  if (row.remembered_device) await forgetRememberedDevice(deps.db, actor.userId, row.remembered_device);
  return { signedOut: false, headers: null };
}

/**
 * DELETE /api/account/sessions: ends every session of the actor but this device's, each with the
 * device it remembered for two-step sign-in (as one by one above). How many were ended.
 */
export async function revokeOtherSessions(deps: Deps, actor: Actor, headers: Headers): Promise<number> {
  const current = await currentSessionId(deps, headers);
  if (current === null) return 0;
  const others = await deps.db
    .selectFrom("sessions")
    .select(["id", "remembered_device"])
    .where("user_id", "=", actor.userId)
    .where("id", "<>", current)
    .where("expires_at", ">", deps.clock())
    .execute();
  if (others.length === 0) return 0;
  await deps.auth.api.revokeOtherSessions({ headers });
  await forgetRememberedDevice(
    deps.db,
    actor.userId,
    others.flatMap(({ remembered_device }) => (remembered_device ? [remembered_device] : [])),
  );
  return others.length;
}
