import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { loadConfig } from "../../config";
import { runMailJobs } from "../../jobs";
import type { Mailer, MailMessage } from "../../mail/mailer";
import { passwordOperations } from "../../password-hasher";
import { createTestContext, type TestContext, uniqueEmail } from "../../testing/harness";
import { ipKey, LoginThrottle, loginLimits, type Scope } from "../../throttle/login-throttle";
import { readTrustedDevice, trustedDeviceCookieName, trustedDeviceValue } from "../security/trusted-device";
import { accountWorkSettled } from "./account.service";

/*
 * Limits here: 2 failures per (account, IP) and per trusted device, 4 per IP, so a ceiling of 20
 * per account (small: every failure costs a real password hash). The clock is the app's: tests
 * move it instead of waiting.
 */
const WINDOW_MS = 15 * 60 * 1000;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
let ctx: TestContext;
let throttle: LoginThrottle;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { LOGIN_RATE_LIMIT_PER_ACCOUNT: "2", LOGIN_RATE_LIMIT_PER_IP: "4" },
    clock,
  });
  throttle = new LoginThrottle(
    ctx.database.db,
    ctx.config.authSecret,
    loginLimits(ctx.config.loginRateLimit),
    clock,
  );
});
afterAll(async () => ctx?.close());

let addresses = 0;
/** A new client address (TEST-NET-3), so tests do not share per-IP counters. */
const newAddress = () => `203.0.113.${++addresses}`;

interface Attempt {
  email: string;
  password: string;
  from: string;
  cookie?: string;
}
const login = ({ email, password, from, cookie }: Attempt, app = ctx.app) =>
  app.inject({
    method: "POST",
    url: "/api/account/login",
    remoteAddress: from,
    payload: { email, password },
    headers: cookie ? { cookie } : {},
  });

const DEVICE = trustedDeviceCookieName(false);
/** The trusted-device cookie pair a response set, to send back. */
function deviceCookie(response: LightMyRequestResponse): string {
  const cookies = response.cookies as Array<{ name: string; value: string }>;
  const device = cookies.find((c) => c.name === DEVICE);
  if (!device) throw new Error(`no trusted-device cookie in response ${response.statusCode}`);
  return `${device.name}=${device.value}`;
}

/** A new patient, signed up from an address of its own (sign-ups count per IP too). */
async function patient() {
  const email = uniqueEmail("patient");
  const password = "le-bon-mot-de-passe";
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/account/signup",
    remoteAddress: newAddress(),
    payload: {
      role: "patient",
      first_name: "Marie",
      last_name: "Dupont",
      email,
      password,
      accept_terms: true,
    },
  });
  expect(response.statusCode).toBe(201);
  return { email, password, id: String(response.json().profile.id) };
}

/** The count stored for one counter, or null without a row (or once its window has ended). */
async function stored(scope: Scope, value: string): Promise<number | null> {
  const row = await ctx.database.db
    .selectFrom("login_attempts")
    .select(["count", "expires_at"])
    .where("scope", "=", scope)
    .where("subject", "=", throttle.counter(scope, value, 0).subject)
    .executeTakeFirst();
  return row && new Date(row.expires_at) > clock() ? row.count : null;
}

async function failTimes(n: number, attempt: Attempt): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await login(attempt)).statusCode);
  return statuses;
}

describe("login throttling", () => {
  it("a stranger failing 50 times from one address locks neither the owner's other devices nor their trusted browser", async () => {
    const owner = await patient();
    const home = newAddress();
    const stranger = newAddress();

    const first = await login({ ...owner, from: home });
    expect(first.statusCode).toBe(200);
    const trusted = deviceCookie(first);

    const statuses = await failTimes(50, { email: owner.email, password: "devine-123", from: stranger });
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(new Set(statuses.slice(2))).toEqual(new Set([429]));
    // From the stranger's address, the right password without the owner's cookie is refused too.
    const blocked = await login({ ...owner, from: stranger });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: "RATE_LIMITED",
      message: "Trop de tentatives de connexion. Veuillez réessayer dans quelques minutes.",
    });
    const retryAfter = Number(blocked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);

    // Refused attempts counted nowhere: the account's ceiling saw 2 failures, not 50.
    expect(await stored("account", owner.email)).toBe(2);

    // The owner: from another address (a new device), and from the stranger's address (a shared
    // network) with the browser they used before.
    expect((await login({ ...owner, from: newAddress() })).statusCode).toBe(200);
    expect((await login({ ...owner, from: stranger, cookie: trusted })).statusCode).toBe(200);
  });

  it("a cookie that is forged, or trusted for another account, buys nothing", async () => {
    const victim = await patient();
    const attacker = await patient();
    const from = newAddress();
    const own = deviceCookie(await login({ ...attacker, from }));
    const forged = `${DEVICE}=${victim.id}.fake-device.${"A".repeat(43)}`;
    const wrong = { email: victim.email, password: "devine-123", from };
    const statuses = [
      ...(await failTimes(1, { ...wrong, cookie: own })),
      ...(await failTimes(1, { ...wrong, cookie: forged })),
      ...(await failTimes(1, { ...wrong, cookie: own })),
    ];
    expect(statuses).toEqual([401, 401, 429]);
    expect((await login({ ...victim, from, cookie: own })).statusCode).toBe(429);
  });

  it("locks one account from one address after the failures, right password included, until the window ends", async () => {
    const owner = await patient();
    const other = await patient();
    const from = newAddress();
    expect(await failTimes(2, { email: owner.email, password: "devine-123", from })).toEqual([401, 401]);
    expect((await login({ ...owner, from })).statusCode).toBe(429);
    // The same address may still log into another account (the per-IP limit is higher).
    expect((await login({ ...other, from })).statusCode).toBe(200);

    offsetMs += WINDOW_MS;
    expect((await login({ ...owner, from })).statusCode).toBe(200);
  });

  it("charges parallel attempts one by one: a burst gets no more tries than the limit", async () => {
    const owner = await patient();
    const from = newAddress();
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => login({ email: owner.email, password: "devine-123", from })),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([401, 401, 429, 429, 429, 429]);
  });

  it("never asks to wait longer than the window: an attempt timed just before the one that opened it", async () => {
    // Parallel attempts each read the clock, then queue on the counter's row: the one that opens the
    // window may have read it last. The others then see it end up to that gap beyond their own time.
    const counters = throttle.requestCounters(newAddress());
    for (let i = 0; i < 4; i += 1) expect(await throttle.take(counters)).toBeNull();
    offsetMs -= 1_500;
    try {
      expect(await throttle.take(counters)).toBe(WINDOW_MS / 1000);
    } finally {
      offsetMs += 1_500;
    }
  });

  it("a success forgets the failures of that account from that address", async () => {
    const owner = await patient();
    const from = newAddress();
    expect(await failTimes(1, { email: owner.email, password: "faute-de-frappe", from })).toEqual([401]);
    expect((await login({ ...owner, from })).statusCode).toBe(200);
    expect(await stored("account_ip", `${owner.email}\n${from}`)).toBeNull();
    expect(await failTimes(2, { email: owner.email, password: "faute-de-frappe", from })).toEqual([401, 401]);
  });

  it("limits the failures of one address over many accounts, known or not", async () => {
    const owner = await patient();
    const from = newAddress();
    const sprayed = [owner.email, ...Array.from({ length: 3 }, () => uniqueEmail("inconnu"))];
    const statuses = [];
    for (const email of sprayed) statuses.push((await login({ email, password: "123456", from })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const another = await patient();
    expect((await login({ ...another, from })).statusCode).toBe(429);
    expect((await login({ ...owner, from })).statusCode).toBe(429);
    expect((await login({ ...another, from: newAddress() })).statusCode).toBe(200);
  });

  it("an unknown e-mail is locked at the same point as a known one", async () => {
    const owner = await patient();
    const from = newAddress();
    const known = await failTimes(3, { email: owner.email, password: "devine-123", from });
    const unknown = await failTimes(3, {
      email: uniqueEmail("personne"),
      password: "devine-123",
      from: newAddress(),
    });
    expect(known).toEqual([401, 401, 429]);
    expect(unknown).toEqual(known);
  });

  it("a distributed attack meets the account's ceiling; the owner's trusted browser still logs in", async () => {
    const owner = await patient();
    const trusted = deviceCookie(await login({ ...owner, from: newAddress() }));
    // 10 addresses × 2 failures = the ceiling of 20.
    for (let i = 0; i < 10; i++)
      expect(await failTimes(2, { email: owner.email, password: "devine-123", from: newAddress() })).toEqual([
        401, 401,
      ]);
    expect(await stored("account", owner.email)).toBe(20);
    expect((await login({ ...owner, from: newAddress() })).statusCode).toBe(429);
    expect((await login({ ...owner, from: newAddress(), cookie: trusted })).statusCode).toBe(200);
  });

  it("a trusted browser has its own limit: the cookie alone is no free pass", async () => {
    const owner = await patient();
    const trusted = deviceCookie(await login({ ...owner, from: newAddress() }));
    const statuses = await failTimes(3, {
      email: owner.email,
      password: "devine-123",
      from: newAddress(),
      cookie: trusted,
    });
    expect(statuses).toEqual([401, 401, 429]);
    expect((await login({ ...owner, from: newAddress(), cookie: trusted })).statusCode).toBe(429);
    expect((await login({ ...owner, from: newAddress() })).statusCode).toBe(200);
  });

  it("keeps the counters in the database: a second instance on it sees them", async () => {
    const second = await buildApp({ config: ctx.config, database: ctx.database, clock });
    await second.ready();
    try {
      const owner = await patient();
      const from = newAddress();
      expect(await failTimes(2, { email: owner.email, password: "devine-123", from })).toEqual([401, 401]);
      expect(await stored("account_ip", `${owner.email}\n${from}`)).toBe(2);
      expect(await stored("ip", from)).toBe(2);
      expect((await login({ ...owner, from }, second)).statusCode).toBe(429);
      expect((await login({ ...owner, from: newAddress() }, second)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("keeps no e-mail nor address in clear in the table", async () => {
    const owner = await patient();
    const from = newAddress();
    await failTimes(1, { email: owner.email, password: "devine-123", from });
    const rows = await ctx.database.db.selectFrom("login_attempts").select(["subject"]).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const { subject } of rows) {
      expect(subject).not.toContain(owner.email);
      expect(subject).not.toContain(from);
    }
  });

  it("lets counters expire with the clock, and the one-minute job removes them", async () => {
    const owner = await patient();
    const from = newAddress();
    expect(await failTimes(3, { email: owner.email, password: "devine-123", from })).toEqual([401, 401, 429]);
    const subject = throttle.counter("account_ip", `${owner.email}\n${from}`, 0).subject;
    const rowsOf = () =>
      ctx.database.db.selectFrom("login_attempts").select("count").where("subject", "=", subject).execute();
    await runMailJobs(ctx.app);
    expect(await rowsOf()).toHaveLength(1);

    offsetMs += WINDOW_MS;
    await runMailJobs(ctx.app);
    expect(await rowsOf()).toHaveLength(0);
    expect((await login({ ...owner, from })).statusCode).toBe(200);
  });

  it("limits the requests of one address to the other account routes", async () => {
    const from = newAddress();
    const forgot = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/account/forgot-password",
        remoteAddress: from,
        payload: { email: uniqueEmail("oubli") },
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await forgot()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const signup = await ctx.app.inject({
      method: "POST",
      url: "/api/account/signup",
      remoteAddress: from,
      payload: {
        role: "patient",
        first_name: "A",
        last_name: "B",
        email: uniqueEmail(),
        password: "Sourire-Sain-2026",
        accept_terms: true,
      },
    });
    expect(signup.statusCode).toBe(429);
    expect(signup.json().error.code).toBe("RATE_LIMITED");
    await accountWorkSettled();
  });
});

describe("the same work whether an account exists or not", () => {
  const work = async (request: () => Promise<LightMyRequestResponse>) => {
    const before = passwordOperations();
    const response = await request();
    await accountWorkSettled();
    return { status: response.statusCode, hashes: passwordOperations() - before, body: response.body };
  };

  it("login: an unknown e-mail costs one password hash, like a wrong or a right password", async () => {
    const owner = await patient();
    const from = newAddress();
    const wrong = await work(() => login({ email: owner.email, password: "devine-123", from }));
    const unknown = await work(() => login({ email: uniqueEmail("personne"), password: "devine-123", from }));
    const right = await work(() => login({ ...owner, from }));
    expect([wrong.status, unknown.status, right.status]).toEqual([401, 401, 200]);
    expect(unknown.body).toBe(wrong.body);
    expect([wrong.hashes, unknown.hashes, right.hashes]).toEqual([1, 1, 1]);
  });

  it("sign-up: an e-mail already used costs the password hash of a new account", async () => {
    const owner = await patient();
    const signUp = (email: string) => () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/account/signup",
        remoteAddress: newAddress(),
        payload: {
          role: "patient",
          first_name: "A",
          last_name: "B",
          email,
          password: "Sourire-Sain-2026",
          accept_terms: true,
        },
      });
    const created = await work(signUp(uniqueEmail("nouveau")));
    const taken = await work(signUp(owner.email));
    expect([created.status, taken.status]).toEqual([201, 409]);
    expect(taken.hashes).toBe(created.hashes);
  });

  it("forgot-password answers before any account work: the same answer, the e-mail sent afterwards", async () => {
    const owner = await patient();
    // An SMTP server that holds every e-mail until released (outside the product).
    const sent: MailMessage[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const mailer: Mailer = {
      send: async (message) => {
        await held;
        sent.push(message);
      },
      close: () => {},
    };
    const app = await buildApp({ config: ctx.config, database: ctx.database, mailer, clock });
    await app.ready();
    try {
      const forgot = (email: string) =>
        app.inject({
          method: "POST",
          url: "/api/account/forgot-password",
          remoteAddress: newAddress(),
          payload: { email },
        });
      const known = await forgot(owner.email);
      const unknown = await forgot(uniqueEmail("personne"));
      expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
      expect(known.body).toBe(unknown.body);
      expect(sent).toHaveLength(0);
      release();
      await accountWorkSettled();
      expect(sent.map((m) => m.to)).toEqual([owner.email]);
    } finally {
      release();
      await app.close();
    }
  });
});

describe("ipKey", () => {
  it("counts IPv4 as is, IPv4-mapped IPv6 as its IPv4, IPv6 by its /64", () => {
    expect(ipKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(ipKey("2001:0DB8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(ipKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipKey("2001:db8:1:3::1")).not.toBe(ipKey("2001:db8:1:2::1"));
    expect(ipKey("::1")).toBe("0:0:0:0::/64");
    expect(ipKey("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });
});

describe("limits", () => {
  it("default to 10 per account and address, 30 per address, a ceiling of 100 per account", () => {
    const config = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "x".repeat(32), DATA_DIR: ctx.dataDir });
    expect(loginLimits(config.loginRateLimit)).toEqual({
      perAccountIp: 10,
      perIp: 30,
      perAccount: 100,
      windowMs: WINDOW_MS,
    });
  });
});

describe("trusted-device cookie", () => {
  const secret = "s".repeat(40);
  const device = { userId: "0b8f2d7e-3f43-4a8e-9a55-6f0e3c1d2b4a", deviceId: "abc123" };
  const header = (value: string, secure = false) => `other=1; ${trustedDeviceCookieName(secure)}=${value}`;

  it("reads back what it signed, under the name of its scheme", () => {
    const value = trustedDeviceValue(secret, device);
    expect(readTrustedDevice(secret, header(value), false)).toEqual(device);
    expect(readTrustedDevice(secret, header(value, true), true)).toEqual(device);
    expect(readTrustedDevice(secret, header(value), true)).toBeNull();
  });

  it("ignores a cookie signed with another secret, altered, or malformed", () => {
    const value = trustedDeviceValue(secret, device);
    const [, , mac] = value.split(".");
    expect(readTrustedDevice("t".repeat(40), header(value), false)).toBeNull();
    expect(readTrustedDevice(secret, header(`${device.userId}.other.${mac}`), false)).toBeNull();
    expect(
      readTrustedDevice(
        secret,
        header(`1b8f2d7e-3f43-4a8e-9a55-6f0e3c1d2b4a.${device.deviceId}.${mac}`),
        false,
      ),
    ).toBeNull();
    for (const bad of ["", "a.b", `${value}.x`, `${device.userId}.${device.deviceId}.`])
      expect(readTrustedDevice(secret, header(bad), false)).toBeNull();
    expect(readTrustedDevice(secret, undefined, false)).toBeNull();
  });
});
