import { describe, expect, it } from "vitest";
import { deviceLabel, maskIp } from "./device";

describe("deviceLabel", () => {
  it.each([
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "Chrome sur Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Safari sur iPhone",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
      "Safari sur macOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
      "Edge sur Windows",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox sur Linux"],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
      "Samsung Internet sur Android",
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
      "Chrome sur iPad",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0",
      "Opera sur Windows",
    ],
    ["Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko)", "Navigateur sur Android"],
    ["curl/8.5.0", "Appareil inconnu"],
    ["", "Appareil inconnu"],
    [null, "Appareil inconnu"],
  ])("%s → %s", (userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label);
  });
});

describe("maskIp", () => {
  it.each([
    ["203.0.113.42", "203.0.113.*"],
    ["::ffff:192.168.1.20", "192.168.1.*"],
    ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:db8:85a3:*"],
    ["2001:db8::1", "2001:db8:*"],
    ["::1", "::*"],
    ["", null],
    [null, null],
    ["pas une adresse", null],
  ])("%s → %s", (ip, masked) => {
    expect(maskIp(ip)).toBe(masked);
  });
});
