import { isAPIError } from "better-auth/api";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import type { z } from "zod";
import { normalizeRole } from "../../../shared/domain/roles";
import { formatDetailDate, formatDetailDateTime } from "../../../shared/format/dates";
import { fullNameOf } from "../../../shared/format/names";
import {
  ACCOUNT_MESSAGES,
  dentistSignupSchema,
  forgotPasswordPath,
  type forgotPasswordSchema,
  type loginSchema,
  patientSignupSchema,
  type resetPasswordSchema,
  securityPath,
  TERMS_VERSION,
} from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { type loginCodeSchema, TOTP_PATTERN, TWO_FACTOR_MESSAGES } from "../../../shared/schemas/twoFactor";
import {
  type Auth,
  authErrorCode,
  forgetRememberedDevice,
  rememberedDeviceIn,
  TWO_FACTOR_KEYS_UNREADABLE,
  twoFactorKeysReadable,
} from "../../auth";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { hasRow } from "../../db/queries";
import type { ProfileRow } from "../../db/types";
import { AppError, validationError } from "../../errors";
import { assertKnownPostalCode } from "../../geo/postal-codes";
import type { Mailer } from "../../mail/mailer";
import { newSignInMail, passwordChangedMail } from "../../mail/templates";
import { passwordHasher } from "../../password-hasher";
import { loggableError } from "../../redact";
import { systemEnsureProfile, systemInsertProfile } from "../profiles/profiles.repo";
import { deviceLabel } from "../security/device";
import { assertNotCommonPassword } from "../security/password-rule";

interface Deps {
  db: Db;
  auth: Auth;
  mailer: Mailer;
  config: Pick<AppConfig, "brandName" | "publicUrl">;
  log: FastifyBaseLogger;
  clock: () => Date;
}

export interface AuthResult {
  profile: ProfileRow;
  /** Set-Cookie headers from Better Auth, to forward to the browser. */
  headers: Headers | null;
}

const emailTaken = () =>
  new AppError(409, ERROR_CODES.emailTaken, ACCOUNT_MESSAGES.emailTaken, {
    email: ACCOUNT_MESSAGES.emailTaken,
  });

/**
 * Sign-up for patients and dentists. The role is normalised; the body is checked by the
 * schema of that role; unknown keys (is_admin, is_verified…) are ignored. The account and its
 * profile are created together: if the profile cannot be written the account is removed again.
 */
export async function signUp(
  deps: Deps,
  body: Record<string, unknown>,
  headers: Headers,
): Promise<AuthResult> {
  const role = normalizeRole(body.role);
  const parsed = (role === "dentist" ? dentistSignupSchema : patientSignupSchema).safeParse(body);
  if (!parsed.success) throw validationError(parsed.error.issues);
  const input = parsed.data;
  const city = "city" in input ? (input.city as string) : null;
  const phone = "phone_number" in input ? (input.phone_number as string) : null;
  const practicePostcode = "practice_postcode" in input ? (input.practice_postcode as string) || null : null;
  assertKnownPostalCode(practicePostcode, "practice_postcode");
  await assertNotCommonPassword(input.password, "password", [input.email, input.first_name, input.last_name]);

  // Better Auth looks the address up; when it is taken we still hash the password, as a new
  // account would, so the answer costs the same work. The 409 itself cannot be made neutral
  // without changing the product (the form says "Cet e-mail est déjà utilisé", and a sign-up that
  // pretended to succeed would need an e-mail confirmation step); the per-IP limit on this route
  // bounds how many addresses one can test that way.
  const result = await deps.auth.api
    .signUpEmail({
      body: {
        name: fullNameOf(input.first_name, input.last_name),
        email: input.email,
        password: input.password,
      },
      headers,
      returnHeaders: true,
    })
    .catch(async (error: unknown) => {
      if (isAPIError(error) && String(error.body?.code ?? "").startsWith("USER_ALREADY_EXISTS")) {
        await passwordHasher.hash(input.password);
        throw emailTaken();
      }
      throw error;
    });
  const userId = result.response.user.id;
  try {
    const profile = await systemInsertProfile(deps.db, {
      id: userId,
      email: input.email,
      role,
      firstName: input.first_name,
      lastName: input.last_name,
      city,
      phoneNumber: phone,
      practicePostcode,
    });
    // Both forms require the consent (accept_terms: true): its date and the version of the texts.
    const consented = await deps.db
      .updateTable("profiles")
      .set({ terms_accepted_at: deps.clock(), terms_version: TERMS_VERSION })
      .where("id", "=", profile.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { profile: consented, headers: result.headers };
  } catch (error) {
    // No account without its profile: undo the sign-up (sessions and credentials cascade).
    await deps.db
      .deleteFrom("users")
      .where("id", "=", userId)
      .execute()
      .catch(() => {});
    throw error;
  }
}

/**
 * True when this user id (from a trusted-device cookie) is the account of this e-mail: that
 * browser has logged into the account it is trying now.
 */
export async function isAccountOf(db: Db, userId: string, email: string): Promise<boolean> {
  return hasRow(db.selectFrom("users").select("id").where("id", "=", userId).where("email", "=", email));
}

/**
 * Login through Better Auth. An unknown e-mail costs the same password work as a wrong password:
 * Better Auth hashes the typed password when it finds no account (passwordHasher counts it).
 * An account with two-step sign-in (ADR 098) gets no session yet: Better Auth's plugin answers
 * `twoFactorRedirect` with a short-lived `two_factor` cookie (in `headers`), and the sign-in ends
 * at `logInWithCode`; nothing is said of the account (suspension included) before the code.
 */
export async function logIn(
  deps: Deps,
  input: z.output<typeof loginSchema>,
  headers: Headers,
): Promise<AuthResult | SecondFactorNeeded> {
  const result = await deps.auth.api
    .signInEmail({
      body: { email: input.email, password: input.password, rememberMe: input.remember_me },
      headers,
      returnHeaders: true,
    })
    .catch((error: unknown) => {
      if (isAPIError(error) && (error.statusCode === 401 || error.statusCode === 400)) {
        throw new AppError(401, ERROR_CODES.invalidCredentials, ACCOUNT_MESSAGES.invalidCredentials);
      }
      throw error;
    });
  const response: object = result.response;
  if ("twoFactorRedirect" in response && response.twoFactorRedirect === true) {
    return { secondFactor: true, headers: result.headers };
  }
  await linkRememberedDevice(deps, result.response.token, result.headers);
  return signedIn(deps, result.response.user, result.headers);
}

/** The answer of a right password on an account with two-step sign-in: the code is still due. */
export interface SecondFactorNeeded {
  secondFactor: true;
  /** The pending sign-in's cookie (and the session cookie's removal), to forward. */
  headers: Headers | null;
}

/**
 * The second step of a sign-in (ADR 098): the authenticator's code (six digits) or a recovery
 * code, checked by Better Auth's plugin against the pending sign-in of the `two_factor` cookie (at
 * most 5 codes each; 10 wrong in a row lock the account's codes for 15 minutes). Then the same as a
 * login whose password was enough.
 */
export async function logInWithCode(
  deps: Deps,
  input: z.output<typeof loginCodeSchema>,
  headers: Headers,
): Promise<AuthResult> {
  const body = { code: input.code, trustDevice: input.trust_device };
  const recovery = !TOTP_PATTERN.test(input.code);
  const result = await (recovery
    ? deps.auth.api.verifyBackupCode({ body, headers, returnHeaders: true })
    : deps.auth.api.verifyTOTP({ body, headers, returnHeaders: true })
  ).catch(async (error: unknown) => {
    if (!isAPIError(error) && !(await twoFactorKeysReadable(deps.db, deps.auth))) {
      // Not the person's doing: the server's AUTH_SECRET is not the one her key was stored with.
      deps.log.error(TWO_FACTOR_KEYS_UNREADABLE);
      throw new AppError(503, ERROR_CODES.unavailable, TWO_FACTOR_MESSAGES.keysUnreadable);
    }
    throw twoFactorError(
      error,
      recovery ? TWO_FACTOR_MESSAGES.recoveryCodeWrong : TWO_FACTOR_MESSAGES.codeWrong,
    );
  });
  if (!recovery && !(await claimTotpCode(deps, result.response.user.id, input.code))) {
    // What the plugin just made never leaves the server (its cookies are not forwarded): the
    // session, and the device it remembered if « ne plus demander » was ticked (named in its cookie).
    const userId = result.response.user.id;
    const { token } = result.response;
    if (token) await deps.db.deleteFrom("sessions").where("token", "=", token).execute();
    const remembered = rememberedDeviceIn(result.headers);
    if (remembered) await forgetRememberedDevice(deps.db, userId, remembered);
    throw new AppError(401, ERROR_CODES.secondFactorExpired, TWO_FACTOR_MESSAGES.codeUsed);
  }
  await linkRememberedDevice(deps, result.response.token, result.headers);
  return signedIn(deps, result.response.user, result.headers);
}

/**
 * The device the plugin remembered at this sign-in (ticked at the code, or renewed at a password
 * sign-in of a device already remembered), written on the session it opened: ending that session
 * from « Appareils connectés » forgets the device too (security.service.ts, `revokeSession`).
 */
async function linkRememberedDevice(deps: Deps, token: string | undefined, headers: Headers | null) {
  const remembered = rememberedDeviceIn(headers);
  if (!token || !remembered) return;
  await deps.db
    .updateTable("sessions")
    .set({ remembered_device: remembered })
    .where("token", "=", token)
    .execute();
}

/** How long the plugin takes a code: the step before its own, its own and the next (30 s each). */
const TOTP_CODE_LIFE_MS = 90_000;

/**
 * Each authenticator code signs in once (RFC 6238, 5.2; migration 063): true when this code had not
 * opened a session of this person in the last 90 seconds, and is now recorded as having done so.
 * One statement: the person's expired rows go, then the code is claimed; of two sign-ins racing
 * with the same code, the primary key lets one through.
 */
async function claimTotpCode(deps: Deps, userId: string, code: string): Promise<boolean> {
  const now = deps.clock();
  const expired = new Date(now.getTime() - TOTP_CODE_LIFE_MS);
  const claimed = await deps.db
    .with("expired", (db) =>
      db
        .deleteFrom("two_factor_used_codes")
        .where("user_id", "=", userId)
        .where("code", "<>", code)
        .where("used_at", "<", expired),
    )
    .insertInto("two_factor_used_codes")
    .values({ user_id: userId, code, used_at: now })
    .onConflict((conflict) =>
      conflict
        .columns(["user_id", "code"])
        .doUpdateSet({ used_at: now })
        .where("two_factor_used_codes.used_at", "<", expired),
    )
    .returning("user_id")
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Better Auth's refusals of a code, in our words. */
function twoFactorError(error: unknown, wrong: string): unknown {
  const code = authErrorCode(error);
  if (code === null || !isAPIError(error)) return error;
  if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") {
    return new AppError(400, ERROR_CODES.validation, wrong, { code: wrong });
  }
  if (code === "ACCOUNT_TEMPORARILY_LOCKED") {
    return new AppError(429, ERROR_CODES.rateLimited, TWO_FACTOR_MESSAGES.locked, undefined, 15 * 60);
  }
  if (code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
    return new AppError(401, ERROR_CODES.secondFactorExpired, TWO_FACTOR_MESSAGES.tooManyCodes);
  }
  // No pending sign-in (no cookie, expired, already used) or no second factor any more.
  if (error.statusCode === 401 || error.statusCode === 400) {
    return new AppError(401, ERROR_CODES.secondFactorExpired, TWO_FACTOR_MESSAGES.expired);
  }
  return error;
}

/** A session was just opened for this user: their profile, unless the account is suspended. */
async function signedIn(
  deps: Deps,
  user: { id: string; email: string; name: string },
  headers: Headers | null,
): Promise<AuthResult> {
  const profile = await systemEnsureProfile(deps.db, user);
  if (!profile) throw new AppError(401, ERROR_CODES.invalidCredentials, ACCOUNT_MESSAGES.invalidCredentials);
  if (profile.suspended_at !== null) {
    // Told only to whoever gave the right password (ADR 092); the session just made never leaves
    // the server (its cookie is not forwarded) and is deleted at once.
    await deps.db.deleteFrom("sessions").where("user_id", "=", profile.id).execute();
    const message = profile.suspension_ends_at
      ? ACCOUNT_MESSAGES.suspendedUntil(formatDetailDate(profile.suspension_ends_at))
      : ACCOUNT_MESSAGES.suspended;
    throw new AppError(403, ERROR_CODES.accountSuspended, message);
  }
  await recordActivity(deps.db, profile.id, deps.clock());
  return { profile, headers };
}

/**
 * A sign-in from a browser that had never signed into this account (ADR 082): the owner is told,
 * on what and when, with the way to end that session. Not awaited: the answer does not wait for
 * SMTP (the mailer keeps the send in flight, so the app's close waits for it); a failure is logged
 * without the address.
 */
export function tellNewSignIn(deps: Deps, profile: ProfileRow, userAgent: string | undefined): void {
  const link = (path: string) => new URL(path, deps.config.publicUrl).href;
  deps.mailer
    .send({
      to: profile.email,
      ...newSignInMail({
        brandName: deps.config.brandName,
        firstName: profile.first_name,
        when: formatDetailDateTime(deps.clock()),
        device: deviceLabel(userAgent),
        securityLink: link(securityPath(profile)),
        resetLink: link(forgotPasswordPath(profile)),
      }),
    })
    .catch((error: unknown) => {
      deps.log.error({ err: loggableError(error) }, "e-mail de nouvelle connexion non envoyé");
    });
}

/**
 * Retention (inactive accounts): a person is active when they sign in and when their remembered
 * session slides (once a day while they use the product, auth.ts); either cancels a pending
 * inactivity warning. A session kept for years without a new sign-in was counted inactive from its
 * sign-in: the warning's link led a signed-in person to their space without clearing it, and the
 * account was erased a month later.
 */
export async function recordActivity(db: Deps["db"], userId: string, at: Date): Promise<void> {
  await db
    .updateTable("profiles")
    .set({ last_seen_at: at, inactivity_warned_at: null })
    .where("id", "=", userId)
    .execute();
}

export async function logOut(deps: Deps, headers: Headers): Promise<Headers | null> {
  try {
    const result = await deps.auth.api.signOut({ headers, returnHeaders: true });
    return result.headers;
  } catch (error) {
    // No session: signing out is already done.
    if (isAPIError(error)) return null;
    throw error;
  }
}

/** Work started after the answer was sent; close and tests wait for it (accountWorkSettled). */
const pending = new Set<Promise<void>>();

function afterResponse(log: FastifyBaseLogger, failure: string, work: () => Promise<unknown>): void {
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .then(
      () => {},
      (error: unknown) => log.error({ err: error }, failure),
    )
    .finally(() => pending.delete(task));
  pending.add(task);
}

/** Resolves when the work the account routes started after their answers is done. */
export async function accountWorkSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all(pending);
}

/**
 * Always the same answer, whether the address has an account or not (no enumeration), and at the
 * same time: the answer is sent first, then Better Auth looks the address up, writes the token
 * and sends the e-mail (SMTP can take a second), so neither the database work nor the e-mail
 * shows in the response time.
 */
export function requestPasswordReset(deps: Deps, input: z.output<typeof forgotPasswordSchema>): string {
  afterResponse(deps.log, "échec de l'envoi du lien de réinitialisation", async () => {
    // Per address as well as per IP (the route's limit): at most RESET_LINKS_PER_HOUR links alive
    // at once, so that requests from many addresses cannot fill one person's mailbox. The answer
    // is the same either way (it is sent before this runs).
    if ((await liveResetLinks(deps, input.email)) >= RESET_LINKS_PER_HOUR) {
      deps.log.info("lien de réinitialisation non envoyé : trop de liens en cours pour ce compte");
      return;
    }
    await deps.auth.api.requestPasswordReset({
      body: { email: input.email, redirectTo: `/reset-password?area=${input.area}` },
    });
  });
  return ACCOUNT_MESSAGES.forgotSent;
}

/** Links a person may have alive at once (each lives an hour, auth.ts). */
export const RESET_LINKS_PER_HOUR = 3;

/** The reset links not yet used nor expired of the account with this address (0 without one). */
async function liveResetLinks(deps: Deps, email: string): Promise<number> {
  const row = await deps.db
    .selectFrom("verifications as v")
    .innerJoin("users as u", (join) => join.on(sql<boolean>`u.id::text = v.value`))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("u.email", "=", email.trim().toLowerCase())
    .where("v.identifier", "like", "reset-password:%")
    .where("v.expires_at", ">", deps.clock())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The person of a reset link still alive (Better Auth's row `reset-password:<token>`), or undefined. */
function resetLinkOwner(deps: Deps, token: string) {
  return deps.db
    .selectFrom("verifications as v")
    .innerJoin("profiles as p", (join) => join.on(sql<boolean>`p.id::text = v.value`))
    .select(["p.email", "p.first_name", "p.last_name", "p.role", "p.is_admin"])
    .where("v.identifier", "=", `reset-password:${token}`)
    .where("v.expires_at", ">", deps.clock())
    .executeTakeFirst();
}

/**
 * Whether this reset link is alive (not used, not expired): its page says « Lien invalide » before a
 * new password is typed for nothing.
 */
export async function resetLinkValid(deps: Deps, token: string): Promise<boolean> {
  return (await resetLinkOwner(deps, token)) !== undefined;
}

export async function resetPassword(
  deps: Deps,
  input: z.output<typeof resetPasswordSchema>,
): Promise<string> {
  // The same rule as at sign-up and in « Sécurité »: not made of the person's own name or address.
  // The link's person, when it is one (Better Auth's row `reset-password:<token>`); an unknown or
  // expired link is refused by Better Auth below, with the same answer.
  const owner = await resetLinkOwner(deps, input.token);
  await assertNotCommonPassword(input.password, "password", [
    owner?.email,
    owner?.first_name,
    owner?.last_name,
  ]);
  try {
    await deps.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } });
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500) {
      throw new AppError(400, ERROR_CODES.invalidToken, ACCOUNT_MESSAGES.resetInvalid);
    }
    throw error;
  }
  // As after a change in « Sécurité »: the owner learns it (a reset they did not ask for means
  // someone reads their mailbox), after the answer.
  if (owner) {
    const person = owner;
    afterResponse(deps.log, "e-mail de mot de passe réinitialisé non envoyé", () =>
      deps.mailer.send({
        to: person.email,
        ...passwordChangedMail({
          brandName: deps.config.brandName,
          firstName: person.first_name,
          when: formatDetailDateTime(deps.clock()),
          device: "avec le lien « Mot de passe oublié »",
          resetLink: new URL(forgotPasswordPath(person), deps.config.publicUrl).href,
        }),
      }),
    );
  }
  return ACCOUNT_MESSAGES.resetDone;
}
