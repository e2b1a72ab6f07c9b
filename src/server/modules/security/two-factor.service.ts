import type { z } from "zod";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { forgotPasswordPath, securityPath } from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import {
  TWO_FACTOR_MESSAGES,
  type TwoFactorSetup,
  type TwoFactorStatus,
  type twoFactorConfirmSchema,
  type twoFactorPasswordSchema,
} from "../../../shared/schemas/twoFactor";
import type { Actor } from "../../access/actor";
import { type AuditAction, writeAudit } from "../../access/audit";
import {
  authErrorCode,
  countRememberedDevices,
  forgetRememberedDevices,
  forgetSecondFactor,
} from "../../auth";
import { AppError } from "../../errors";
import { twoFactorChangedMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import { deviceLabel } from "./device";
import { withOwnPasswordCall } from "./own-password";
import type { Deps } from "./security.service";

/*
 * Two-step sign-in in « Sécurité » (ADR 098): turn it on (password, then the app's first code),
 * renew the recovery codes, turn it off (password). Better Auth's two-factor plugin keeps the
 * secret and the codes (encrypted with AUTH_SECRET) and checks the password; the wrong passwords
 * count on the account's own-password counter, as for a password change.
 */

export const TWO_FACTOR_ACTIONS = {
  enabled: "account.two_factor_enabled",
  disabled: "account.two_factor_disabled",
  codesRenewed: "account.two_factor_codes_renewed",
  refused: "account.two_factor_refused",
  devicesForgotten: "account.two_factor_devices_forgotten",
} as const satisfies Record<string, AuditAction>;

type PasswordInput = z.output<typeof twoFactorPasswordSchema>;

const conflict = (message: string) => new AppError(409, ERROR_CODES.conflict, message);

const audit = (deps: Deps, actor: Actor, action: AuditAction, details?: Record<string, unknown>) =>
  writeAudit(deps.db, {
    actorId: actor.userId,
    action,
    subjectType: "profile",
    subjectId: actor.userId,
    details,
    at: deps.clock(),
  });

/** Whether the person turned it on, and whether a setup waits for its first code. */
async function stateOf(deps: Deps, actor: Actor) {
  const row = await deps.db
    .selectFrom("users")
    .leftJoin("two_factors", "two_factors.user_id", "users.id")
    .select(["users.two_factor_enabled as enabled", "two_factors.verified as verified"])
    .where("users.id", "=", actor.userId)
    .executeTakeFirst();
  return { enabled: row?.enabled === true, pending: row?.enabled !== true && row?.verified === false };
}

/** GET /api/account/two-factor. */
export async function twoFactorStatus(deps: Deps, actor: Actor): Promise<TwoFactorStatus> {
  const [state, remembered] = await Promise.all([
    stateOf(deps, actor),
    countRememberedDevices(deps.db, actor.userId, deps.clock()),
  ]);
  return { enabled: state.enabled, remembered_devices: remembered };
}

/**
 * DELETE /api/account/two-factor/remembered-devices: every device where she ticked « Ne plus
 * demander de code » asks it again at its next sign-in (a laptop lost or left behind). No password:
 * it only makes the account stricter. Audited with how many were forgotten.
 */
export async function forgetDevices(deps: Deps, actor: Actor): Promise<void> {
  const forgotten = await forgetRememberedDevices(deps.db, actor.userId);
  await audit(deps, actor, TWO_FACTOR_ACTIONS.devicesForgotten, { forgotten });
}

/**
 * A call of the plugin that checks the person's password: charged to the own-password counter; a
 * wrong password is audited and answered 400 naming `password`.
 */
const withPassword = <T>(deps: Deps, actor: Actor, call: () => Promise<T>): Promise<T> =>
  withOwnPasswordCall(deps.throttle, actor.userId, TWO_FACTOR_MESSAGES.tooManyPasswords, call, async () => {
    await audit(deps, actor, TWO_FACTOR_ACTIONS.refused);
    throw new AppError(400, ERROR_CODES.validation, TWO_FACTOR_MESSAGES.passwordWrong, {
      password: TWO_FACTOR_MESSAGES.passwordWrong,
    });
  });

/** The secret of an otpauth:// address, in groups of four for typing by hand. */
export function secretOf(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get("secret") ?? "";
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

/**
 * POST /api/account/two-factor/setup: a new secret and ten recovery codes, not in force until the
 * app's first code confirms them (a setup left halfway is replaced by the next one).
 */
export async function setUp(
  deps: Deps,
  actor: Actor,
  input: PasswordInput,
  headers: Headers,
): Promise<TwoFactorSetup> {
  if ((await stateOf(deps, actor)).enabled) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const result = await withPassword(deps, actor, () =>
    deps.auth.api.enableTwoFactor({ body: { password: input.password, method: "totp" }, headers }),
  );
  if (result.method !== "totp") throw new Error("two-factor setup without a TOTP secret");
  return { totp_uri: result.totpURI, secret: secretOf(result.totpURI), backup_codes: result.backupCodes };
}

/**
 * POST /api/account/two-factor/confirm: the app's first code turns it on. Better Auth renews this
 * device's session (the new cookie is in the returned headers); the person is told by e-mail.
 */
export async function confirm(
  deps: Deps,
  actor: Actor,
  input: z.output<typeof twoFactorConfirmSchema>,
  headers: Headers,
): Promise<Headers | null> {
  const state = await stateOf(deps, actor);
  if (state.enabled) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  if (!state.pending) throw conflict(TWO_FACTOR_MESSAGES.noSetup);
  const result = await deps.auth.api
    .verifyTOTP({ body: { code: input.code }, headers, returnHeaders: true })
    .catch((error: unknown) => {
      if (authErrorCode(error) === "INVALID_CODE") {
        throw new AppError(400, ERROR_CODES.validation, TWO_FACTOR_MESSAGES.codeWrong, {
          code: TWO_FACTOR_MESSAGES.codeWrong,
        });
      }
      throw error;
    });
  await audit(deps, actor, TWO_FACTOR_ACTIONS.enabled);
  await tell(deps, actor, headers, true);
  return result.headers;
}

/**
 * POST /api/account/two-factor/disable: the password alone signs in again, every remembered device
 * is forgotten; the person is told.
 */
export async function disable(
  deps: Deps,
  actor: Actor,
  input: PasswordInput,
  headers: Headers,
): Promise<Headers | null> {
  if (!(await stateOf(deps, actor)).enabled) throw conflict(TWO_FACTOR_MESSAGES.notOn);
  const result = await withPassword(deps, actor, () =>
    deps.auth.api.disableTwoFactor({ body: { password: input.password }, headers, returnHeaders: true }),
  );
  // The plugin forgets only this device's « ne plus demander de code »: the others she had
  // remembered (a laptop since lost) would skip the code again if she turns it back on.
  await forgetSecondFactor(deps.db, actor.userId, deps.clock());
  await audit(deps, actor, TWO_FACTOR_ACTIONS.disabled);
  await tell(deps, actor, headers, false);
  return result.headers;
}

/** POST /api/account/two-factor/backup-codes: ten new recovery codes; the old ones stop working. */
export async function renewCodes(
  deps: Deps,
  actor: Actor,
  input: PasswordInput,
  headers: Headers,
): Promise<string[]> {
  if (!(await stateOf(deps, actor)).enabled) throw conflict(TWO_FACTOR_MESSAGES.notOn);
  const result = await withPassword(deps, actor, () =>
    deps.auth.api.generateBackupCodes({ body: { password: input.password }, headers }),
  );
  await audit(deps, actor, TWO_FACTOR_ACTIONS.codesRenewed);
  return result.backupCodes;
}

/** The e-mail that says it was turned on or off, when and on what (a failure is only logged). */
async function tell(deps: Deps, actor: Actor, headers: Headers, on: boolean): Promise<void> {
  const link = (path: string) => new URL(path, deps.config.publicUrl).href;
  try {
    await deps.mailer.send({
      to: actor.profile.email,
      ...twoFactorChangedMail({
        brandName: deps.config.brandName,
        firstName: actor.profile.first_name,
        on,
        when: formatDetailDateTime(deps.clock()),
        device: deviceLabel(headers.get("user-agent")),
        securityLink: link(securityPath(actor.profile)),
        resetLink: link(forgotPasswordPath(actor.profile)),
      }),
    });
  } catch (error) {
    deps.log.error({ err: loggableError(error) }, "e-mail de double authentification non envoyé");
  }
}
