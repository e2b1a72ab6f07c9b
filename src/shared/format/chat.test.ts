import { describe, expect, it } from "vitest";
import { reconnectDelay } from "../realtime";
import { chatTimeLabel, oneLine } from "./chat";

// Saturday 21 November 2026, 15:00 in Paris.
const NOW = new Date("2026-11-21T14:00:00Z");

describe("chat time labels (Europe/Paris)", () => {
  it("shows today's time as HH:mm in Paris", () => {
    expect(chatTimeLabel("2026-11-21T08:05:00Z", NOW)).toBe("09:05");
    // 00:30 in Paris is still today although it is the day before in UTC.
    expect(chatTimeLabel("2026-11-20T23:30:00Z", NOW)).toBe("00:30");
  });
  it("says 'Hier' for yesterday in Paris", () => {
    expect(chatTimeLabel("2026-11-20T22:30:00Z", NOW)).toBe("Hier");
    expect(chatTimeLabel("2026-11-20T06:00:00Z", NOW)).toBe("Hier");
  });
  it("names the weekday under seven days, then dd/MM/yyyy", () => {
    expect(chatTimeLabel("2026-11-17T10:00:00Z", NOW)).toBe("mardi");
    expect(chatTimeLabel("2026-11-15T10:00:00Z", NOW)).toBe("dimanche");
    expect(chatTimeLabel("2026-11-14T10:00:00Z", NOW)).toBe("14/11/2026");
    expect(chatTimeLabel("2025-12-31T10:00:00Z", NOW)).toBe("31/12/2025");
  });
});

describe("realtime reconnect schedule (1, 2, 5, 10, 10… s)", () => {
  it("waits 1, 2, 5, 10 s, then every 10 s", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(reconnectDelay)).toEqual([
      1000, 2000, 5000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe("a message in one line (lists)", () => {
  it("joins an offer's lines with « · », drops the blank line before its comment", () => {
    const offer =
      "Proposition de devis : 820,00 €\nValable jusqu'au 6 janvier 2027\n\nMême matériau que votre devis.\nDeux rendez-vous.";
    expect(oneLine(offer)).toBe(
      "Proposition de devis : 820,00 € · Valable jusqu'au 6 janvier 2027 · Même matériau que votre devis. · Deux rendez-vous.",
    );
  });
  it("collapses spaces, keeps a one-line message as it is, and leaves nothing of blank text", () => {
    expect(oneLine("  Bonjour,   voici\tmon devis.  ")).toBe("Bonjour, voici mon devis.");
    expect(oneLine("Ligne 1\r\n  Ligne 2 ")).toBe("Ligne 1 · Ligne 2");
    expect(oneLine(" \n \n")).toBe("");
  });
});
