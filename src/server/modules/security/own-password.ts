import { isAPIError } from "better-auth/api";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { type AuditAction, writeAudit } from "../../access/audit";
import { authErrorCode } from "../../auth";
import type { AppConfig } from "../../config";
import { credentialOf } from "../../db/credentials";
import type { Db } from "../../db/index";
import { AppError, unauthenticated } from "../../errors";
import { passwordHasher } from "../../password-hasher";
import { LoginThrottle, loginLimits } from "../../throttle/login-throttle";

/** The window of the own-password counter. */
export const OWN_PASSWORD_WINDOW_MS = 15 * 60_000;

/** The own-password counter of an app (its secret and clock). */
export function ownPasswordThrottle(app: {
  db: Db;
  clock: () => Date;
  config: Pick<AppConfig, "authSecret" | "loginRateLimit">;
}): LoginThrottle {
  const limits = loginLimits({ ...app.config.loginRateLimit, windowMs: OWN_PASSWORD_WINDOW_MS });
  return new LoginThrottle(app.db, app.config.authSecret, limits, app.clock);
}

/**
 * The check of a signed-in person's own password (password change, erasure), charged before it
 * runs to the account's own-password counter in the database (login-throttle.ts, ADR 039): however
 * many arrive at once, at most OWN_PASSWORD_LIMIT wrong ones per window are checked, the others get
 * the 429 `tooMany`. `check` throws a 400 AppError for a wrong password (the attempt stays charged);
 * a success forgets the counter, any other failure gives the attempt back.
 */
export async function withOwnPasswordCharged<T>(
  throttle: LoginThrottle,
  userId: string,
  tooMany: string,
  check: () => Promise<T>,
): Promise<T> {
  const counters = throttle.ownPasswordCounters(userId);
  const retryAfter = await throttle.take(counters);
  if (retryAfter !== null) throw new AppError(429, ERROR_CODES.rateLimited, tooMany, undefined, retryAfter);
  let result: T;
  try {
    result = await check();
  } catch (error) {
    const wrongPassword = error instanceof AppError && error.statusCode === 400;
    if (!wrongPassword) await throttle.giveBack(counters, false);
    throw error;
  }
  await throttle.giveBack(counters, true);
  return result;
}

/**
 * A Better Auth call that checks the signed-in person's password (a password change, turning
 * two-step sign-in on or off…), charged as above: a wrong password becomes what `wrong` throws (after
 * its audit row), a session gone meanwhile a 401.
 */
export function withOwnPasswordCall<T>(
  throttle: LoginThrottle,
  userId: string,
  tooMany: string,
  call: () => Promise<T>,
  wrong: () => Promise<never>,
): Promise<T> {
  return withOwnPasswordCharged(throttle, userId, tooMany, () =>
    call().catch(async (error: unknown) => {
      const code = authErrorCode(error);
      if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return wrong();
      if (isAPIError(error) && error.statusCode === 401) throw unauthenticated();
      throw error;
    }),
  );
}

/**
 * A signed-in person's own password against the stored hash, before an act that needs it (erasure,
 * change of address): charged as above; a wrong one is written to the audit log (`refusedAction`)
 * and answered with a 400 naming `field`.
 */
export async function checkOwnPassword(
  db: Db,
  throttle: LoginThrottle,
  userId: string,
  password: string,
  refusal: { field: string; wrong: string; tooMany: string; refusedAction: AuditAction; at: Date },
): Promise<void> {
  await withOwnPasswordCharged(throttle, userId, refusal.tooMany, async () => {
    const account = await credentialOf(db, userId);
    const ok = account?.password ? await passwordHasher.verify({ hash: account.password, password }) : false;
    if (ok) return;
    await writeAudit(db, {
      actorId: userId,
      action: refusal.refusedAction,
      subjectType: "profile",
      subjectId: userId,
      at: refusal.at,
    });
    throw new AppError(400, ERROR_CODES.validation, refusal.wrong, { [refusal.field]: refusal.wrong });
  });
}
