import type { DentistStatus } from "../../../shared/domain/dentist";
import { type Urgency, urgencyOf } from "../../../shared/domain/requests";
import type { TreatmentType } from "../../../shared/domain/treatments";
import { isoOf } from "../../db/iso";
import { patientPlace } from "../../geo/distance";

/**
 * A request as a dentist's lists, dashboard and request page show it: the row of `summaryColumns`
 * (dentists.repo.ts), with the patient's commune and the distance to this dentist's practice in place
 * of her postal code, which never leaves the server (ADR 019).
 */
export function requestSummary(
  row: {
    id: string;
    patient_name: string;
    treatment_type: string;
    created_at: Date | string;
    budget: string;
    urgency: string;
    my_status: DentistStatus;
    is_new: boolean;
    set_aside: boolean;
    addressed_to_me: boolean;
    quote_amount_cents: number | null;
    appointment_status: "pending" | "confirmed" | null;
    appointment_starts_at: Date | string | null;
    patient_postal_code: string | null;
  },
  practicePostcode: string | null | undefined,
) {
  return {
    id: row.id,
    patient_name: row.patient_name || "Patient",
    treatment_type: row.treatment_type as TreatmentType,
    created_at: isoOf(row.created_at),
    budget: row.budget,
    urgency: urgencyOf(row.urgency) as Urgency,
    my_status: row.my_status,
    is_new: row.is_new,
    set_aside: row.set_aside,
    addressed_to_me: row.addressed_to_me,
    quote_amount_cents: row.quote_amount_cents,
    // Only the chosen dentist has a live appointment on a request.
    appointment_status: row.my_status === "confirmed" ? row.appointment_status : null,
    appointment_starts_at:
      row.my_status === "confirmed" && row.appointment_status === "confirmed" && row.appointment_starts_at
        ? isoOf(row.appointment_starts_at)
        : null,
    ...patientPlace(row.patient_postal_code, practicePostcode),
  };
}
