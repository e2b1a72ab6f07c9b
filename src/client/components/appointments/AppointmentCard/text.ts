import { toast } from "sonner";
import type { AppointmentSide } from "../../../../shared/domain/appointments";
import { formatAppointmentTime } from "../../../../shared/format/dates";
import { drName } from "../../../../shared/format/names";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../../shared/schemas/appointments";
import { isApiError } from "../../../lib/api";

/** What an appointment card says about the appointment and its other party, and how it says a refusal. */

export const OTHER: Record<AppointmentSide, { the: string; The: string }> = {
  patient: { the: "le dentiste", The: "Le dentiste" },
  dentist: { the: "le patient", The: "Le patient" },
};

/** When: the confirmed time, or the times proposed and still to confirm. */
export function appointmentWhen(appointment: { starts_at: string | null; options: string[] }): string {
  if (appointment.starts_at) return formatAppointmentTime(appointment.starts_at);
  const [first] = [...appointment.options].sort((a, b) => new Date(a).getTime() - new Date(b).getTime());
  if (!first) return "Date à convenir";
  return appointment.options.length === 1
    ? `${formatAppointmentTime(first)} (à confirmer)`
    : `${appointment.options.length} créneaux proposés, dès le ${formatAppointmentTime(first)}`;
}

/** The other party's name: 'Dr Sophie Leroy' for a patient, the patient's name for a dentist. */
export function otherPartyName(appointment: Appointment): string {
  return appointment.my_side === "patient"
    ? drName(appointment.dentist.full_name)
    : appointment.patient.full_name;
}

/** '12 rue de la Paix, 75002 Paris', or null when the dentist gave none of it. */
export function practiceAddress(dentist: Appointment["dentist"]): string | null {
  const town = [dentist.postcode, dentist.city].filter(Boolean).join(" ");
  const text = [dentist.address, town].filter(Boolean).join(", ");
  return text || null;
}

/** Toasts a refused change: the server's French message under a short title. */
export function toastFailure(error: unknown) {
  toast.error(APPOINTMENT_MESSAGES.failed, {
    description: isApiError(error) ? error.message : undefined,
  });
}
