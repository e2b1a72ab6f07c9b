import { describe, expect, it } from "vitest";
import { isJourneyActive, journeyOf, journeyStateOf, offersCount } from "./journey";

const now = new Date("2026-11-25T12:00:00Z");
const id = "7f1e3c55-0000-4000-8000-000000000001";
const base = { id, status: "in_review", open_offers: 0, appointment: null };

describe("journeyOf", () => {
  it("is 'Envoyée' with nothing to do while no offer is open", () => {
    const journey = journeyOf({ ...base, status: "new" }, now);
    expect(journey).toMatchObject({ state: "sent", label: "Envoyée", next: null });
    expect(journeyOf(base, now).state).toBe("sent");
  });

  it("is 'En cours' once a dentist took it on or answered in words, leading to the answers", () => {
    expect(journeyOf(base, now)).toMatchObject({
      state: "sent",
      label: "En cours",
      next: { label: "Voir les réponses", path: `/patient/request/${id}#reponses` },
    });
  });

  it("asks to compare the open offers, counting them", () => {
    const two = journeyOf({ ...base, open_offers: 2 }, now);
    expect(two.state).toBe("compare");
    expect(two.label).toBe("2 propositions à comparer");
    expect(two.next).toEqual({ label: "Comparer 2 propositions", path: `/patient/request/${id}/compare` });
    const one = journeyOf({ ...base, status: "new", open_offers: 1 }, now);
    expect(one.label).toBe("1 proposition à comparer");
    expect(one.next?.label).toBe("Voir la proposition");
  });

  it("asks to choose a slot once an offer is accepted and no appointment is live", () => {
    const journey = journeyOf({ ...base, status: "accepted" }, now);
    expect(journey.state).toBe("accepted");
    expect(journey.label).toBe("Proposition acceptée\u202f: choisissez un créneau");
    expect(journey.next).toEqual({ label: "Choisir un créneau", path: `/patient/request/${id}#rendez-vous` });
  });

  it("waits for the confirmation of a pending appointment", () => {
    const journey = journeyOf(
      { ...base, status: "accepted", appointment: { status: "pending", starts_at: null } },
      now,
    );
    expect(journey.state).toBe("appointment_pending");
    expect(journey.label).toBe("Rendez-vous à confirmer");
    expect(journey.next?.label).toBe("Voir le rendez-vous");
  });

  it("is confirmed until the appointment's time, then 'Terminée'", () => {
    const confirmed = (startsAt: string) =>
      journeyStateOf(
        { ...base, status: "accepted", appointment: { status: "confirmed", starts_at: startsAt } },
        now,
      );
    expect(confirmed("2026-11-25T12:01:00Z")).toBe("appointment_confirmed");
    expect(confirmed("2026-11-25T12:00:00Z")).toBe("done");
    expect(
      journeyOf(
        {
          ...base,
          status: "accepted",
          appointment: { status: "confirmed", starts_at: "2026-11-20T09:00:00Z" },
        },
        now,
      ),
    ).toMatchObject({ state: "done", label: "Terminée", next: null });
  });

  it("reads a request completed before issue 16 as done, and a cancelled one as cancelled", () => {
    expect(journeyStateOf({ ...base, status: "completed" }, now)).toBe("done");
    expect(journeyOf({ ...base, status: "cancelled", open_offers: 2 }, now)).toMatchObject({
      state: "cancelled",
      label: "Annulée",
      next: null,
    });
  });

  it("ignores open offers once an offer is accepted", () => {
    expect(journeyStateOf({ ...base, status: "accepted", open_offers: 3 }, now)).toBe("accepted");
  });
});

describe("helpers", () => {
  it("pluralises with the French rules", () => {
    expect(offersCount(0)).toBe("0 proposition");
    expect(offersCount(1)).toBe("1 proposition");
    expect(offersCount(3)).toBe("3 propositions");
  });
  it("says which journeys are still active", () => {
    expect(isJourneyActive("accepted")).toBe(true);
    expect(isJourneyActive("done")).toBe(false);
    expect(isJourneyActive("cancelled")).toBe(false);
  });
});
