import { describe, expect, it } from "vitest";
import { duplicateSlotIssues, parisSlotSchema, SLOT_MESSAGES } from "../schemas/slots";
import { daysBetween, parisLocalNow, parisLocalToDate, parseParisSlot } from "./paris";

const instant = (local: string) => {
  const parsed = parseParisSlot(local);
  return parsed.ok ? parsed.instant.toISOString() : parsed.reason;
};

describe("Paris wall-clock slots (ADR 038)", () => {
  it("reads winter and summer time", () => {
    expect(instant("2026-12-03T09:30")).toBe("2026-12-03T08:30:00.000Z");
    expect(instant("2026-07-03T09:30")).toBe("2026-07-03T07:30:00.000Z");
    expect(instant("2026-12-20T23:59")).toBe("2026-12-20T22:59:00.000Z");
    expect(instant("2026-12-21T00:00")).toBe("2026-12-20T23:00:00.000Z");
  });

  it("refuses what is not a calendar time instead of rolling it over", () => {
    for (const local of [
      "2026-12-20T24:00",
      "2026-12-20T99:99",
      "2026-12-20T12:60",
      "2026-02-29T10:00",
      "2026-02-30T10:00",
      "2026-13-01T10:00",
      "2026-00-10T10:00",
      "2026-12-00T10:00",
      "0026-12-20T10:00",
      "2026-12-20 10:00",
      "2026-12-20T10:00Z",
      "2026-12-20T1:00",
      "",
    ])
      expect(instant(local), local).toBe("invalid");
    expect(instant("2028-02-29T10:00")).toBe("2028-02-29T09:00:00.000Z");
  });

  it("refuses the hour skipped in spring, and keeps the minutes around it", () => {
    expect(instant("2027-03-28T01:59")).toBe("2027-03-28T00:59:00.000Z");
    expect(instant("2027-03-28T02:00")).toBe("nonexistent");
    expect(instant("2027-03-28T02:30")).toBe("nonexistent");
    expect(instant("2027-03-28T02:59")).toBe("nonexistent");
    expect(instant("2027-03-28T03:00")).toBe("2027-03-28T01:00:00.000Z");
    expect(instant("2027-03-28T03:30")).toBe("2027-03-28T01:30:00.000Z");
  });

  it("reads the hour repeated in autumn as its first occurrence (summer time)", () => {
    expect(instant("2026-10-25T01:59")).toBe("2026-10-24T23:59:00.000Z");
    expect(instant("2026-10-25T02:00")).toBe("2026-10-25T00:00:00.000Z");
    expect(instant("2026-10-25T02:30")).toBe("2026-10-25T00:30:00.000Z");
    expect(instant("2026-10-25T02:59")).toBe("2026-10-25T00:59:00.000Z");
    expect(instant("2026-10-25T03:00")).toBe("2026-10-25T02:00:00.000Z");
  });

  it("throws from parisLocalToDate on a refused time", () => {
    expect(parisLocalToDate("2026-12-03T09:30").toISOString()).toBe("2026-12-03T08:30:00.000Z");
    expect(() => parisLocalToDate("2026-12-20T24:00")).toThrow(RangeError);
    expect(() => parisLocalToDate("2027-03-28T02:30")).toThrow(RangeError);
  });

  it("says why in French, and finds duplicates as instants", () => {
    expect(parisSlotSchema.safeParse("2026-12-20T24:00").error?.issues[0]?.message).toBe(
      SLOT_MESSAGES.invalid,
    );
    expect(parisSlotSchema.safeParse("2027-03-28T02:30").error?.issues[0]?.message).toBe(
      SLOT_MESSAGES.nonexistent,
    );
    expect(parisSlotSchema.safeParse(12).error?.issues[0]?.message).toBe(SLOT_MESSAGES.invalid);
    expect(parisSlotSchema.safeParse("2026-12-20T10:00").success).toBe(true);
    expect(
      duplicateSlotIssues(["2026-12-20T10:00", "2026-12-21T10:00", "2026-12-20T10:00"], ["slots"]),
    ).toEqual([{ code: "custom", path: ["slots", 2], message: SLOT_MESSAGES.duplicate }]);
    expect(duplicateSlotIssues(["2026-12-20T24:00", "2026-12-21T00:00"], ["slots"])).toEqual([]);
  });
});

describe("parisLocalNow", () => {
  it("answers each instant's own minute, asked in any order (it keeps the last minute's answer)", () => {
    expect(parisLocalNow(new Date("2026-03-29T00:59:30Z"))).toBe("2026-03-29T01:59");
    expect(parisLocalNow(new Date("2026-03-29T00:59:59Z"))).toBe("2026-03-29T01:59");
    // The spring change: 02:00 in Paris does not exist, the next minute is 03:00.
    expect(parisLocalNow(new Date("2026-03-29T01:00:00Z"))).toBe("2026-03-29T03:00");
    expect(parisLocalNow(new Date("2026-12-31T23:00:00Z"))).toBe("2027-01-01T00:00");
    expect(parisLocalNow(new Date("2026-03-29T00:59:00Z"))).toBe("2026-03-29T01:59");
  });
});

describe("daysBetween", () => {
  it("counts calendar days, across a month and a clock change", () => {
    expect(daysBetween("2026-12-04", "2026-12-07")).toBe(3);
    expect(daysBetween("2026-12-04", "2026-12-04")).toBe(0);
    expect(daysBetween("2026-11-28", "2026-12-05")).toBe(7);
    expect(daysBetween("2026-10-24", "2026-10-26")).toBe(2);
    expect(daysBetween("2026-12-07", "2026-12-04")).toBe(-3);
  });
});
