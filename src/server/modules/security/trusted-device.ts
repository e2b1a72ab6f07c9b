import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-auth/cookies";

/**
 * The trusted-device cookie: set at each successful login, it says "this browser has logged into
 * this account before". A login attempt that carries it for the account it names is throttled on
 * its own counter (login-throttle.ts), so strangers failing on that account, from anywhere, do not
 * lock its owner out of their usual browser.
 *
 * Value: `<user id>.<device id>.<HMAC-SHA256(AUTH_SECRET, user id + device id)>`, the device id
 * random. Nothing is stored on the server; a forged or foreign cookie is simply ignored. One
 * account per browser: a login into another account replaces it (a shared family computer keeps
 * the last one). It lasts a year and survives log-outs on purpose; it only reaches /api/account.
 */

const NAME = "sourio.trusted_device";
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const PATH = "/api/account";

export interface TrustedDevice {
  userId: string;
  deviceId: string;
}

/** `__Secure-` prefixed behind https, like Better Auth's session cookie. */
export function trustedDeviceCookieName(secure: boolean): string {
  return secure ? `__Secure-${NAME}` : NAME;
}

function signature(secret: string, userId: string, deviceId: string): Buffer {
  return createHmac("sha256", secret).update(`trusted-device:${userId}:${deviceId}`).digest();
}

export function newDeviceId(): string {
  return randomBytes(18).toString("base64url");
}

export function trustedDeviceValue(secret: string, device: TrustedDevice): string {
  const { userId, deviceId } = device;
  return `${userId}.${deviceId}.${signature(secret, userId, deviceId).toString("base64url")}`;
}

/** The device of a valid cookie in this Cookie header, or null (absent, malformed, forged). */
export function readTrustedDevice(
  secret: string,
  cookieHeader: string | undefined,
  secure: boolean,
): TrustedDevice | null {
  if (!cookieHeader) return null;
  const value = parseCookies(cookieHeader).get(trustedDeviceCookieName(secure));
  const [userId, deviceId, mac, ...rest] = value?.split(".") ?? [];
  if (!userId || !deviceId || !mac || rest.length > 0) return null;
  const expected = signature(secret, userId, deviceId);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, deviceId };
}

/** The Set-Cookie header value: httpOnly, SameSite=Lax, Secure behind https, a year. */
export function trustedDeviceSetCookie(secret: string, device: TrustedDevice, secure: boolean): string {
  const attributes = [
    `${trustedDeviceCookieName(secure)}=${trustedDeviceValue(secret, device)}`,
    `Path=${PATH}`,
    `Max-Age=${MAX_AGE_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}

/** The Set-Cookie header value that removes it (same name and path, or the browser keeps it). */
export function trustedDeviceClearCookie(secure: boolean): string {
  const attributes = [
    `${trustedDeviceCookieName(secure)}=`,
    `Path=${PATH}`,
    "Max-Age=0",
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}
