import { describe, expect, it } from "vitest";
import {
  appointmentViewOf,
  mayChangeAppointment,
  mayConfirmAppointment,
  mayUnacceptOffer,
  mayWithdrawOffer,
  offerAcceptBlocker,
  reminderSchedule,
} from "./appointments";
import { offerStateOf, savingOf } from "./offers";

const NOW = new Date("2026-11-21T09:00:00Z");

describe("offer transitions (ADR 011)", () => {
  it("lets the patient withdraw an acceptance until the appointment is confirmed (ADR 016)", () => {
    expect(mayUnacceptOffer("accepted", null)).toBe(true);
    expect(mayUnacceptOffer("accepted", "pending")).toBe(true);
    expect(mayUnacceptOffer("accepted", "confirmed")).toBe(false);
    expect(mayUnacceptOffer("sent", null)).toBe(false);
    expect(mayUnacceptOffer("closed", null)).toBe(false);
    expect(offerAcceptBlocker("sent", "accepted")).toBe("already_decided");
  });

  it("accepts only a sent, unexpired offer on an open request", () => {
    expect(offerAcceptBlocker("sent", "new")).toBeNull();
    expect(offerAcceptBlocker("sent", "in_review")).toBeNull();
    expect(offerAcceptBlocker("expired", "in_review")).toBe("expired");
    expect(offerAcceptBlocker("withdrawn", "in_review")).toBe("withdrawn");
    expect(offerAcceptBlocker("accepted", "completed")).toBe("already_decided");
    expect(offerAcceptBlocker("closed", "completed")).toBe("already_decided");
    expect(offerAcceptBlocker("sent", "completed")).toBe("already_decided");
    expect(offerAcceptBlocker("sent", "cancelled")).toBe("cancelled");
    // A dentist no longer verified: his open offer waits, not to be accepted; a decided one stays so.
    expect(offerAcceptBlocker("sent", "in_review", false)).toBe("dentist_unverified");
    expect(offerAcceptBlocker("accepted", "accepted", false)).toBe("already_decided");
  });

  it("derives 'expired' at midnight in Paris, and withdraws only what was not decided", () => {
    const offer = { status: "sent" as const, valid_until: "2026-11-25" };
    expect(offerStateOf(offer, new Date("2026-11-25T22:59:59Z"))).toBe("sent");
    expect(offerStateOf(offer, new Date("2026-11-25T23:00:00Z"))).toBe("expired");
    expect(offerStateOf({ ...offer, status: "accepted" }, new Date("2027-01-01T00:00:00Z"))).toBe("accepted");
    expect(mayWithdrawOffer("sent")).toBe(true);
    expect(mayWithdrawOffer("expired")).toBe(true);
    for (const state of ["accepted", "closed", "withdrawn"] as const)
      expect(mayWithdrawOffer(state)).toBe(false);
  });

  it("computes the saving against the patient's quote", () => {
    expect(savingOf(120_000, 78_000)).toEqual({ cents: 42_000, percent: 35 });
    expect(savingOf(120_000, 120_000)).toBeNull();
    expect(savingOf(null, 78_000)).toBeNull();
  });
});

describe("appointment transitions (ADR 011)", () => {
  const pendingForDentist = { status: "pending" as const, awaiting: "dentist" as const, starts_at: null };
  const confirmed = { status: "confirmed" as const, awaiting: null, starts_at: "2026-12-03T08:30:00Z" };

  it("shows each side whose turn it is", () => {
    expect(appointmentViewOf(pendingForDentist, "dentist", NOW)).toBe("awaiting_me");
    expect(appointmentViewOf(pendingForDentist, "patient", NOW)).toBe("awaiting_other");
    expect(mayConfirmAppointment(pendingForDentist, "dentist", NOW)).toBe(true);
    expect(mayConfirmAppointment(pendingForDentist, "patient", NOW)).toBe(false);
    expect(mayChangeAppointment(pendingForDentist, "patient", NOW)).toBe(true);
  });

  it("lets either side move or cancel a confirmed appointment until it starts", () => {
    expect(appointmentViewOf(confirmed, "patient", NOW)).toBe("confirmed");
    expect(mayConfirmAppointment(confirmed, "patient", NOW)).toBe(false);
    for (const side of ["patient", "dentist"] as const)
      expect(mayChangeAppointment(confirmed, side, NOW)).toBe(true);
    const at = new Date("2026-12-03T08:30:00Z");
    expect(appointmentViewOf(confirmed, "dentist", at)).toBe("past");
    expect(mayChangeAppointment(confirmed, "dentist", at)).toBe(false);
    const cancelled = { status: "cancelled" as const, awaiting: null, starts_at: null };
    expect(appointmentViewOf(cancelled, "patient", NOW)).toBe("cancelled");
    expect(mayChangeAppointment(cancelled, "patient", NOW)).toBe(false);
  });

  it("schedules the reminders 7 days and 1 day before, only those still ahead", () => {
    const startsAt = new Date("2026-12-03T08:30:00Z");
    expect(reminderSchedule(startsAt, NOW)).toEqual([
      { kind: "7d", due_at: new Date("2026-11-26T08:30:00Z") },
      { kind: "1d", due_at: new Date("2026-12-02T08:30:00Z") },
    ]);
    expect(reminderSchedule(startsAt, new Date("2026-11-30T00:00:00Z")).map((r) => r.kind)).toEqual(["1d"]);
    expect(reminderSchedule(startsAt, new Date("2026-12-03T00:00:00Z"))).toEqual([]);
  });
});
