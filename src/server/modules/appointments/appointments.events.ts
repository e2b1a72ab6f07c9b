import type { AnnounceDeps } from "../../realtime/bus";
import { loggableError } from "../../redact";

/** The appointment and its two parties (an AppointmentWithContacts, or the ids alone). */
export interface AnnouncedAppointment {
  id: string;
  request_id: string;
  patient: { id: string };
  dentist: { id: string };
}

/**
 * Both parties' open screens reload the appointment (ids only). Called after the commit, by the
 * appointments' use cases and by whatever else changes an appointment (an acceptance withdrawn
 * cancels a pending one); a failure is only logged.
 */
export function announceAppointment(deps: AnnounceDeps, a: AnnouncedAppointment): void {
  deps.bus
    .publish({
      kind: "appointment",
      appointmentId: a.id,
      requestId: a.request_id,
      userIds: [a.patient.id, a.dentist.id],
    })
    .catch((error) => deps.log.error({ err: loggableError(error) }, "rendez-vous non diffusé"));
}
