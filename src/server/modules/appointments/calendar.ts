import { createEvent } from "ics";
import { APPOINTMENT_LIMITS } from "../../../shared/domain/appointments";

/**
 * A confirmed appointment as an iCalendar file (RFC 5545, made by `ics`): UTC start, the
 * appointment's length, the practice's address and a stable UID (a re-import updates the event).
 * No treatment or other medical detail: calendars sync to third parties.
 */
export function appointmentIcs(p: {
  id: string;
  startsAt: Date;
  updatedAt: Date;
  title: string;
  place: string | null;
  link: string;
  brandName: string;
  host: string;
}): string {
  const { error, value } = createEvent({
    productId: `${p.brandName}//Rendez-vous//FR`,
    uid: `${p.id}@${p.host}`,
    start: p.startsAt.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: APPOINTMENT_LIMITS.durationMinutes },
    title: p.title,
    description: `Rendez-vous pris sur ${p.brandName} : ${p.link}`,
    location: p.place ?? undefined,
    url: p.link,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    lastModified: p.updatedAt.getTime(),
  });
  if (error || !value) throw error ?? new Error("fichier agenda vide");
  return value;
}
