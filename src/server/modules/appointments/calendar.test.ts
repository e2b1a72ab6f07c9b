import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { appointmentIcs } from "./calendar";

describe("the calendar file of an appointment", () => {
  const appointment = {
    id: "0b7c6a52-4a40-4a8e-9d0e-2b1f4c5d6e7f",
    // Thursday 3 December 2026, 09:30 in Paris (winter time, UTC+1).
    startsAt: new Date("2026-12-03T08:30:00Z"),
    updatedAt: new Date("2026-11-21T09:00:00Z"),
    title: "Rendez-vous dentaire — Anne Martin",
    place: "12 rue de la Paix, 75002 Paris",
    link: "https://sourio.example/patient/request/r1",
    brandName: "Sourio",
    host: "sourio.example",
  };
  const ics = appointmentIcs(appointment);

  it("is a valid iCalendar event at the right instant, for an hour, at the practice", () => {
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(ics) as unknown[]);
    expect(calendar.getFirstPropertyValue("prodid")).toBe("Sourio//Rendez-vous//FR");
    const vevent = calendar.getFirstSubcomponent("vevent");
    if (!vevent) throw new Error("pas d'événement");
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe("0b7c6a52-4a40-4a8e-9d0e-2b1f4c5d6e7f@sourio.example");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-03T08:30:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-03T09:30:00.000Z");
    expect(event.summary).toBe("Rendez-vous dentaire — Anne Martin");
    // The comma is escaped in the file and read back as written.
    expect(ics).toContain("LOCATION:12 rue de la Paix\\, 75002 Paris");
    expect(event.location).toBe("12 rue de la Paix, 75002 Paris");
    expect(event.description).toBe(
      "Rendez-vous pris sur Sourio\u202f: https://sourio.example/patient/request/r1",
    );
    expect(vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
  });

  it("leaves the location out when the practice has no address", () => {
    const bare = appointmentIcs({ ...appointment, place: null });
    expect(bare).not.toContain("LOCATION");
  });
});
