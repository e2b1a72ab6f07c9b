import { randomInt } from "node:crypto";
import { betterAuth } from "better-auth";
import { isAPIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins/two-factor";
import { type AppConfig, SESSION_TIMES } from "./config";
import type { Db } from "./db/index";
import type { Mailer } from "./mail/mailer";
import { resetPasswordMail } from "./mail/templates";
import { passwordHasher } from "./password-hasher";

/**
 * Better Auth on our Kysely instance (ADR 004): e-mail + password, httpOnly cookie sessions,
 * uuid ids, snake_case columns. Profiles, roles and the admin flag live in our own `profiles`
 * table (modules/profiles); this object only knows users, sessions, accounts and verifications.
 */
interface AuthLogger {
  debug(msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Makes every password reset link of this person void (Better Auth keeps each as a verification
 * row `reset-password:<token>` whose value is the user's id): after a new password, set by a link,
 * by the person in « Sécurité » or by the administrators' bootstrap, an older e-mail read by someone
 * else no longer takes the account back.
 */
export async function forgetResetLinks(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom("verifications")
    .where("identifier", "like", "reset-password:%")
    .where("value", "=", userId)
    .execute();
}

/**
 * Two-step sign-in taken off an account (ADR 098): the flag, the plugin's row (secret and recovery
 * codes) and the devices it remembered for 30 days (verification rows `trust-device-…` whose value
 * is the user's id), so that a device remembered before asks a code again once it is back on. The
 * caller ends the person's sessions and writes the audit row, in its transaction.
 */
export async function forgetSecondFactor(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ two_factor_enabled: false, updated_at: now })
    .where("id", "=", userId)
    .execute();
  await db.deleteFrom("two_factors").where("user_id", "=", userId).execute();
  await forgetRememberedDevices(db, userId);
}

/**
 * The device the plugin remembered in this answer (« ne plus demander de code sur cet appareil »):
 * the `trust-device-…` identifier its Set-Cookie names, or null.
 */
export function rememberedDeviceIn(headers: Headers | null): string | null {
  // Its random part: letters, digits, « - » and « _ » (Better Auth's generateRandomString); a « . »
  // then the cookie's signature follow it.
  return headers?.get("set-cookie")?.match(/trust-device-[\w-]+/)?.[0] ?? null;
}

/**
 * How many devices skip the code at this person's sign-in: the plugin's « ne plus demander de code
 * sur cet appareil » records (`trust-device-…`, whose value is the user's id), 30 days each.
 */
export async function countRememberedDevices(db: Db, userId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("verifications")
    .where("identifier", "like", "trust-device-%")
    .where("value", "=", userId)
    .where("expires_at", ">", now)
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Devices this person had remembered (their `trust-device-…` identifiers) ask the code again: one, or
 * several in one statement (« Déconnecter les autres appareils »).
 */
export async function forgetRememberedDevice(
  db: Db,
  userId: string,
  identifier: string | readonly string[],
): Promise<void> {
  const identifiers = typeof identifier === "string" ? [identifier] : identifier;
  if (identifiers.length === 0) return;
  await db
    .deleteFrom("verifications")
    .where("identifier", "in", identifiers)
    .where("value", "=", userId)
    .execute();
}

/** Every device of this person asks the code again at its next sign-in; how many did not. */
export async function forgetRememberedDevices(db: Db, userId: string): Promise<number> {
  const result = await db
    .deleteFrom("verifications")
    .where("identifier", "like", "trust-device-%")
    .where("value", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether this server's AUTH_SECRET opens the two-step keys stored in the database (ADR 098): the
 * plugin encrypts each person's secret and recovery codes with it. False after a restore started
 * with another AUTH_SECRET (or a new one): every account that turned it on is then stuck at the code
 * step. True when no key is stored. One row suffices: they all share the one secret.
 */
export async function twoFactorKeysReadable(db: Db, auth: Auth): Promise<boolean> {
  const row = await db.selectFrom("two_factors").select("secret").limit(1).executeTakeFirst();
  if (!row) return true;
  const { secretConfig } = await auth.$context;
  return symmetricDecrypt({ key: secretConfig, data: row.secret }).then(
    () => true,
    () => false,
  );
}

/** Said in the log at start-up and at each code refused for it (the operator's fix, not the person's). */
export const TWO_FACTOR_KEYS_UNREADABLE =
  "AUTH_SECRET ne déchiffre pas les clés de double authentification enregistrées : les comptes qui l'ont activée ne peuvent pas se connecter. Redémarrez avec l'AUTH_SECRET de l'installation sauvegardée (docs/deploy.md, « Restaurer »).";

/** The code of a refusal by Better Auth (`INVALID_PASSWORD`, `INVALID_CODE`…), null for any other error. */
export function authErrorCode(error: unknown): string | null {
  if (!isAPIError(error)) return null;
  return String((error.body as { code?: unknown } | undefined)?.code ?? "");
}

/** The characters of a recovery code: no 0/O, 1/I/L (ADR 098). */
export const RECOVERY_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** Ten recovery codes `ABCDE-FGH23`, 50 bits each, from the system's random source. */
export function recoveryCodes(): string[] {
  const char = () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return Array.from({ length: 10 }, () => {
    const code = Array.from({ length: 10 }, char).join("");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

export function createAuth(options: {
  db: Db;
  config: AppConfig;
  mailer: Mailer;
  log?: AuthLogger;
  /**
   * Told when a person's sessions change: app.ts drops them from the session cache (ADR 026,
   * access/session-cache.ts). Scripts, which have no cache, leave it out.
   */
  sessionsChanged?: (userId: string) => Promise<void>;
  /**
   * Told when Better Auth slides a remembered session (at most once a day while the person uses the
   * product): app.ts counts it as activity for the retention of inactive accounts, as a sign-in.
   */
  sessionRefreshed?: (userId: string) => Promise<void>;
}) {
  const { db, config, mailer, log } = options;
  const sessionsChanged = options.sessionsChanged ?? (async () => {});
  const sessionRefreshed = options.sessionRefreshed ?? (async () => {});
  const timestamps = { createdAt: "created_at", updatedAt: "updated_at" } as const;
  return betterAuth({
    appName: config.brandName,
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    database: { db, type: "postgres", transaction: true },
    user: {
      modelName: "users",
      fields: { emailVerified: "email_verified", ...timestamps },
    },
    session: {
      modelName: "sessions",
      fields: {
        userId: "user_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        ...timestamps,
      },
      // Sliding session: refreshed at most once a day while the person uses the product.
      ...SESSION_TIMES,
    },
    account: {
      modelName: "accounts",
      fields: {
        userId: "user_id",
        accountId: "account_id",
        providerId: "provider_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        ...timestamps,
      },
    },
    verification: {
      modelName: "verifications",
      fields: { expiresAt: "expires_at", ...timestamps },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // Its own scrypt, counted (tests check unknown and known accounts cost the same work).
      password: passwordHasher,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // Better Auth consumes the link used, not the others sent within the hour.
      onPasswordReset: async ({ user }) => {
        await forgetResetLinks(db, user.id);
      },
      sendResetPassword: async ({ user, token, url }) => {
        // Better Auth's url carries our callback (?callbackURL=/reset-password?area=…): keep the area.
        const callback = new URL(url).searchParams.get("callbackURL") ?? "";
        const area = new URL(callback, config.publicUrl).searchParams.get("area");
        const link = new URL("/reset-password", config.publicUrl);
        link.searchParams.set("token", token);
        if (area === "dentist" || area === "admin") link.searchParams.set("area", area);
        await mailer.send({
          to: user.email,
          ...resetPasswordMail({ brandName: config.brandName, link: link.href }),
        });
      },
    },
    // Two-step sign-in (ADR 098): signInEmail answers `twoFactorRedirect` (and a short-lived
    // `two_factor` cookie instead of a session) for an account that turned it on; our
    // /api/account/login/code calls verifyTOTP or verifyBackupCode. The plugin's own endpoints are
    // not reachable from outside (account.routes.ts): only through our routes.
    plugins: [
      twoFactor({
        issuer: config.brandName,
        schema: {
          user: { fields: { twoFactorEnabled: "two_factor_enabled" } },
          twoFactor: {
            modelName: "two_factors",
            fields: {
              userId: "user_id",
              backupCodes: "backup_codes",
              failedVerificationCount: "failed_verification_count",
              lockedUntil: "locked_until",
            },
          },
        },
        // Read from paper and typed by hand: capitals and digits that cannot be taken for one another.
        backupCodeOptions: { customBackupCodesGenerate: recoveryCodes },
      }),
    ],
    // Login throttling is ours (per IP and per account, in modules/account), on our own routes.
    // The plugin's lock (10 wrong codes in a row: 15 minutes) and its 5 codes per pending sign-in
    // are its own, kept in the database, and hold with this off.
    rateLimit: { enabled: false },
    advanced: {
      // joins: the session check on every request reads the session and its user in one query
      // (PGlite runs one query at a time, so each one saved counts).
      database: { generateId: "uuid", joins: true },
      cookiePrefix: "sourio",
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
    },
    // The session cache (ADR 026) forgets a person's sessions, here and on every instance, when
    // Better Auth ends one (sign-out, revocation, password change or reset) or deletes the account.
    // These run after the commit, before the endpoint answers.
    databaseHooks: {
      session: {
        delete: {
          after: async (session) => {
            await sessionsChanged(session.userId);
          },
        },
        update: {
          after: async (session) => {
            await sessionRefreshed(session.userId);
          },
        },
      },
      user: {
        update: {
          after: async (user) => {
            await sessionsChanged(user.id);
          },
        },
        delete: {
          after: async (user) => {
            await sessionsChanged(user.id);
          },
        },
      },
    },
    telemetry: { enabled: false },
    // Into our pino logs: expected events (wrong password, unknown e-mail…) at debug level, message
    // only (their arguments may carry e-mail addresses); real errors at error level.
    logger: {
      disabled: !log,
      level: "debug",
      log: (level, message, ...args) => {
        if (level === "error") log?.error({ err: args[0] }, `[auth] ${message}`);
        else log?.debug(`[auth] ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
