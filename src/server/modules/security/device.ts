import { SECURITY_MESSAGES } from "../../../shared/schemas/account";

/*
 * 'Appareils connectés': a French label of a session's device from its user agent, and its IP
 * address masked. A few lines are enough for what people recognise (browser and system); a full
 * user-agent database would be a dependency for nothing more.
 */

// Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera|OPT)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (patterns: ReadonlyArray<[RegExp, string]>, text: string) =>
  patterns.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/** "Chrome sur Windows", "Safari sur iPhone", "Navigateur sur Android", "Appareil inconnu". */
export function deviceLabel(userAgent: string | null | undefined): string {
  const text = (userAgent ?? "").slice(0, 512);
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} sur ${system}`;
  if (system) return `Navigateur sur ${system}`;
  return browser ?? SECURITY_MESSAGES.unknownDevice;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The address without what points to one home: an IPv4 keeps its first three numbers
 * ("203.0.113.*"), an IPv6 its first three groups, the network ("2001:db8:85a3:*").
 */
export function maskIp(ip: string | null | undefined): string | null {
  const value = (ip ?? "").trim();
  if (!value) return null;
  const v4 = IPV4.exec(value.replace(/^::ffff:/i, ""));
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.*`;
  if (!value.includes(":") || !/^[0-9a-f:]+$/i.test(value)) return null;
  const [head = ""] = value.split("::");
  const groups = head.split(":").filter(Boolean).slice(0, 3);
  return groups.length > 0 ? `${groups.join(":")}:*` : "::*";
}
