import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { sql } from "kysely";
import type { Db } from "../db/index";
import type { LoginAttemptsTable } from "../db/types";

/*
 * Login throttling that stops attackers, not owners (issue 13, item 7). Counters live in the
 * database (table login_attempts, migration 012), so every instance behind one PostgreSQL sees
 * the same numbers; time is the app's clock.
 *
 * A login attempt is charged to:
 * - without a trusted-device cookie for the account (trusted-device.ts):
 *   - (account, IP): LOGIN_RATE_LIMIT_PER_ACCOUNT failures (10) per 15 minutes. This is what stops
 *     a stranger guessing one patient's password from one address, and only there;
 *   - IP: LOGIN_RATE_LIMIT_PER_IP failures (30), all accounts together: one address spraying
 *     passwords over many accounts;
 *   - account, from every address together: a ceiling of ACCOUNT_CEILING_FACTOR times the
 *     (account, IP) limit (100). Reaching it takes at least ten addresses, a deliberate distributed
 *     attack, and then it caps the guesses on one account at 100 per window; it never locks the
 *     owner's usual browser, and a stranger alone cannot reach it.
 * - with the account's trusted-device cookie: that device only, with the (account, IP) limit. Its
 *   owner is not blocked by anybody else's failures; a copied cookie still buys only 10 guesses.
 * Accounts are keyed by the typed e-mail, whether an account exists or not, so the 429 comes at
 * the same point for both and tells nothing. IPv6 addresses count per /64 (one subscriber).
 *
 * An attempt is charged before the password is checked, to all its counters or none (one
 * transaction, conditional upserts), so parallel attempts cannot overshoot and a refused attempt
 * counts nowhere (a stranger's refused attempts never push the account towards its ceiling). A
 * success, or a server error, gives the attempt back; a success also forgets the (account, IP) or
 * device counter. The other account routes (sign-up, forgot and reset password) count their
 * requests per IP (LOGIN_RATE_LIMIT_PER_IP) on a counter of their own.
 *
 * A signed-in person typing their own password again (changing it, erasing the account) is charged
 * the same way to one counter per account for both routes (`ownPasswordCounters`, OWN_PASSWORD_LIMIT
 * wrong ones per window, ADR 039): someone at an open session cannot guess the password.
 */

export type Scope = LoginAttemptsTable["scope"];

/** One counter an attempt is charged to. */
export interface Counter {
  scope: Scope;
  /** HMAC of the counted value (e-mail, IP, device id): no address in clear in the table. */
  subject: string;
  max: number;
}

export interface LoginLimits {
  /** Failed logins per IP, all accounts together; requests per IP on the other account routes. */
  perIp: number;
  /** Failed logins per (account, IP), and per trusted device. */
  perAccountIp: number;
  /** Failed logins per account from all addresses together: the ceiling. */
  perAccount: number;
  windowMs: number;
}

export const ACCOUNT_CEILING_FACTOR = 10;

/** Wrong own passwords (password change, erasure together) allowed per account in the window. */
export const OWN_PASSWORD_LIMIT = 5;

/** The limits from the configuration (LOGIN_RATE_LIMIT_PER_IP, LOGIN_RATE_LIMIT_PER_ACCOUNT). */
export function loginLimits(config: { perIp: number; perAccount: number; windowMs: number }): LoginLimits {
  return {
    perIp: config.perIp,
    perAccountIp: config.perAccount,
    perAccount: config.perAccount * ACCOUNT_CEILING_FACTOR,
    windowMs: config.windowMs,
  };
}

/**
 * The address as counted: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64
 * prefix, since one subscriber usually holds a whole /64.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const hextets = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!isIPv4(group)) return [group];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const [head = "", tail] = ip.split("::");
  const left = hextets(head);
  const right = tail === undefined ? [] : hextets(tail);
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

class Blocked extends Error {
  constructor(readonly counter: Counter) {
    super("blocked");
  }
}

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly secret: string,
    readonly limits: LoginLimits,
    private readonly now: () => Date,
  ) {}

  counter(scope: Scope, value: string, max: number): Counter {
    const subject = createHmac("sha256", this.secret)
      .update(`login-attempt:${scope}:${value}`)
      .digest("base64url");
    return { scope, subject, max };
  }

  /** The counters a login attempt is charged to (see above). */
  loginCounters(email: string, ip: string, trustedDeviceId: string | null): Counter[] {
    const { perIp, perAccountIp, perAccount } = this.limits;
    if (trustedDeviceId) return [this.counter("device", trustedDeviceId, perAccountIp)];
    const address = ipKey(ip);
    // Always in this order (the row locks of concurrent attempts are taken in one order).
    return [
      this.counter("account_ip", `${email}\n${address}`, perAccountIp),
      this.counter("ip", address, perIp),
      this.counter("account", email, perAccount),
    ];
  }

  /** The counter of a signed-in person's own password, typed to change it or to erase the account. */
  ownPasswordCounters(userId: string): Counter[] {
    return [this.counter("own_password", userId, OWN_PASSWORD_LIMIT)];
  }

  /** The counter of a request to another account route (sign-up, forgot or reset password). */
  requestCounters(ip: string): Counter[] {
    return [this.counter("ip_requests", ipKey(ip), this.limits.perIp)];
  }

  /**
   * Charges one attempt to each counter, to all or to none: null when the attempt may go on,
   * otherwise the seconds until the window of the counter that refused it ends.
   */
  async take(counters: Counter[]): Promise<number | null> {
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.limits.windowMs);
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const counter of counters) {
          const charged = await trx
            .insertInto("login_attempts")
            .values({ scope: counter.scope, subject: counter.subject, count: 1, expires_at: expiresAt })
            .onConflict((conflict) =>
              conflict
                .columns(["scope", "subject"])
                .doUpdateSet({
                  count: sql<number>`case when login_attempts.expires_at <= ${now} then 1 else login_attempts.count + 1 end`,
                  expires_at: sql<Date>`case when login_attempts.expires_at <= ${now} then excluded.expires_at else login_attempts.expires_at end`,
                })
                .where((eb) =>
                  eb.or([
                    eb("login_attempts.expires_at", "<=", now),
                    eb("login_attempts.count", "<", counter.max),
                  ]),
                ),
            )
            .returning("count")
            .executeTakeFirst();
          // No row: the counter is full; throwing rolls back what this attempt charged.
          if (!charged) throw new Blocked(counter);
        }
      });
      return null;
    } catch (error) {
      if (!(error instanceof Blocked)) throw error;
      const row = await this.db
        .selectFrom("login_attempts")
        .select("expires_at")
        .where("scope", "=", error.counter.scope)
        .where("subject", "=", error.counter.subject)
        .executeTakeFirst();
      const ms = (row ? new Date(row.expires_at).getTime() : expiresAt.getTime()) - now.getTime();
      // Never more than the window: a parallel attempt that read the clock just before the one that
      // opened it sees the window end that gap beyond its own time.
      return Math.min(Math.ceil(this.limits.windowMs / 1000), Math.max(1, Math.ceil(ms / 1000)));
    }
  }

  /**
   * Gives back an attempt that was not a wrong password (a success, or an error of ours). After a
   * success the person has proved the password: the (account, IP), device or own-password counter is forgotten;
   * the IP and account counters keep the failures that came before.
   */
  async giveBack(counters: Counter[], succeeded: boolean): Promise<void> {
    const personal = (c: Counter) =>
      succeeded && (c.scope === "account_ip" || c.scope === "device" || c.scope === "own_password");
    const forget = counters.filter(personal);
    const decrement = counters.filter((c) => !personal(c));
    if (forget.length > 0)
      await this.db
        .deleteFrom("login_attempts")
        .where((eb) =>
          eb.or(forget.map((c) => eb.and([eb("scope", "=", c.scope), eb("subject", "=", c.subject)]))),
        )
        .execute();
    if (decrement.length > 0)
      await this.db
        .updateTable("login_attempts")
        .set({ count: sql<number>`greatest(count - 1, 0)` })
        .where((eb) =>
          eb.or(decrement.map((c) => eb.and([eb("scope", "=", c.scope), eb("subject", "=", c.subject)]))),
        )
        .where("expires_at", ">", this.now())
        .execute();
  }
}

/** Removes the counters whose window has ended (the one-minute job; the index makes it cheap). */
export async function pruneLoginAttempts(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("login_attempts").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
