import { createHmac } from "node:crypto";

/**
 * An authenticator app, written from RFC 6238 and RFC 4226 (not with the library the server uses,
 * so that the tests check the server against the standard): the 6-digit code of an otpauth://
 * address's secret at an instant.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code an app shows for `otpauthUri` at `at` (30-second steps, HMAC-SHA1, 6 digits). */
export function totpCode(otpauthUri: string, at = Date.now()): string {
  const url = new URL(otpauthUri);
  const key = base32Decode(url.searchParams.get("secret") ?? "");
  const period = Number(url.searchParams.get("period") ?? 30);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

/**
 * Six digits that are none of the codes the server accepts around now (the previous, current and
 * next steps, and the next one again in case a step passes while the test runs).
 */
export function wrongTotpCode(otpauthUri: string): string {
  const now = Date.now();
  const valid = new Set([-1, 0, 1, 2].map((step) => totpCode(otpauthUri, now + step * 30_000)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}
