import { describe, expect, it } from "vitest";
import { formatAppointmentTime, formatDetailDate, formatDetailDateTime, formatListDate } from "./dates";

describe("dates in French", () => {
  it("writes the first of the month « 1er », in Paris, and no other day", () => {
    expect(formatDetailDate("2026-12-01T10:00:00Z")).toBe("1er décembre 2026");
    // 23:30 UTC on 30 November is already 1 December in Paris.
    expect(formatDetailDate("2026-11-30T23:30:00Z")).toBe("1er décembre 2026");
    expect(formatDetailDate("2026-12-11T10:00:00Z")).toBe("11 décembre 2026");
    expect(formatDetailDate("2026-12-21T10:00:00Z")).toBe("21 décembre 2026");
    expect(formatDetailDate("2026-12-31T10:00:00Z")).toBe("31 décembre 2026");
  });

  it("keeps « 1er » in times and appointments, and lists in figures", () => {
    expect(formatDetailDateTime("2027-01-01T13:05:00Z")).toBe("1er janvier 2027 à 14:05");
    expect(formatAppointmentTime("2026-12-01T09:30:00Z")).toBe("mardi 1er décembre 2026 à 10:30");
    expect(formatAppointmentTime("2026-12-07T13:30:00Z")).toBe("lundi 7 décembre 2026 à 14:30");
    expect(formatListDate("2026-12-01T10:00:00Z")).toBe("01/12/2026");
  });
});
