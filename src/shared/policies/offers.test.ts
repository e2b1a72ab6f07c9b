import { describe, expect, it } from "vitest";
import { isFdiTooth } from "../domain/offers";
import { offerInputSchema, offerTimingIssues } from "../schemas/offers";
import { ageOn, isPlausibleBirthDate } from "../schemas/profile";
import { linesTotal, mayOffer, offerStateOf, parisLocalToDate, parisToday, savingOf } from "./offers";

describe("offer rules", () => {
  it("reads slots as Paris wall-clock time, winter and summer", () => {
    expect(parisLocalToDate("2026-12-03T09:30").toISOString()).toBe("2026-12-03T08:30:00.000Z");
    expect(parisLocalToDate("2026-07-03T09:30").toISOString()).toBe("2026-07-03T07:30:00.000Z");
    expect(() => parisLocalToDate("2026-07-03 09:30")).toThrow();
  });

  it("knows today's day in Paris around midnight UTC", () => {
    expect(parisToday(new Date("2026-11-21T23:30:00Z"))).toBe("2026-11-22");
    expect(parisToday(new Date("2026-11-21T22:30:00Z"))).toBe("2026-11-21");
  });

  it("derives 'expired' from the validity day, only for a sent offer", () => {
    const now = new Date("2026-11-21T09:00:00Z");
    expect(offerStateOf({ status: "sent", valid_until: "2026-11-21" }, now)).toBe("sent");
    expect(offerStateOf({ status: "sent", valid_until: "2026-11-20" }, now)).toBe("expired");
    expect(offerStateOf({ status: "sent", valid_until: null }, now)).toBe("sent");
    expect(offerStateOf({ status: "accepted", valid_until: "2026-01-01" }, now)).toBe("accepted");
    expect(offerStateOf({ status: "withdrawn", valid_until: null }, now)).toBe("withdrawn");
  });

  it("computes the saving against the original quote, never a negative one", () => {
    expect(savingOf(120_000, 78_000)).toEqual({ cents: 42_000, percent: 35 });
    expect(savingOf(120_000, 120_000)).toBeNull();
    expect(savingOf(120_000, 130_000)).toBeNull();
    expect(savingOf(null, 10_000)).toBeNull();
  });

  it("accepts the FDI numbers of the permanent teeth only", () => {
    const valid = [11, 18, 21, 28, 31, 38, 41, 48];
    for (const tooth of valid) expect(isFdiTooth(tooth)).toBe(true);
    for (const tooth of [10, 19, 20, 49, 51, 85, 9, 36.5]) expect(isFdiTooth(tooth)).toBe(false);
  });

  it.each([
    ["new", "pending", true],
    ["in_review", "responded", true],
    ["in_review", "confirmed", false],
    ["completed", "pending", false],
    ["cancelled", "pending", false],
  ])("lets a dentist offer on open requests unless confirmed: %s, %s → %s", (request, dentist, expected) => {
    expect(mayOffer(request, dentist)).toBe(expected);
  });

  it("wants the lines to add up to the amount", () => {
    const lines = [
      { act: "Couronne", tooth: 36, fee_cents: 75_000 },
      { act: "Inlay-core", tooth: null, fee_cents: 15_000 },
    ];
    expect(linesTotal(lines)).toBe(90_000);
    expect(offerInputSchema.safeParse({ amount_cents: 90_000, lines }).success).toBe(true);
    const wrong = offerInputSchema.safeParse({ amount_cents: 80_000, lines });
    expect(wrong.error?.issues[0]?.path).toEqual(["lines"]);
  });

  it("checks the timing against the clock", () => {
    const now = new Date("2026-11-21T09:00:00Z"); // 10:00 in Paris
    expect(offerTimingIssues({ valid_until: "2026-11-21", slots: ["2026-11-21T10:01"] }, now)).toEqual([]);
    expect(
      offerTimingIssues(
        { valid_until: "2026-11-20", slots: ["2026-11-21T10:00", "2027-11-22T10:00"] },
        now,
      ).map((i) => i.path.join(".")),
    ).toEqual(["valid_until", "slots.0", "slots.1"]);
  });
});

describe("birth dates", () => {
  it("computes the age in whole years", () => {
    expect(ageOn("1990-11-22", "2026-11-21")).toBe(35);
    expect(ageOn("1990-11-21", "2026-11-21")).toBe(36);
  });
  it("accepts real past days within 120 years", () => {
    expect(isPlausibleBirthDate("1990-02-28", "2026-11-21")).toBe(true);
    expect(isPlausibleBirthDate("1990-02-30", "2026-11-21")).toBe(false);
    expect(isPlausibleBirthDate("2026-11-22", "2026-11-21")).toBe(false);
    expect(isPlausibleBirthDate("1890-01-01", "2026-11-21")).toBe(false);
  });
});
