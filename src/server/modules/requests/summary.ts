import { journeyOf } from "../../../shared/domain/journey";
import type { RequestStatus, Urgency } from "../../../shared/domain/requests";
import type { TreatmentType } from "../../../shared/domain/treatments";
import { isoOf } from "../../db/iso";

/** A request's summary with its journey at `now` (ADR 016). */
export function summary(
  row: {
    id: string;
    treatment_type: string;
    status: string;
    urgency: string;
    created_at: Date | string;
    document_count: number;
    open_offers: number;
    appointment_status: "pending" | "confirmed" | null;
    appointment_starts_at: Date | string | null;
  },
  now: Date,
) {
  const appointment = row.appointment_status
    ? { status: row.appointment_status, starts_at: row.appointment_starts_at }
    : null;
  return {
    id: row.id,
    treatment_type: row.treatment_type as TreatmentType,
    status: row.status as RequestStatus,
    urgency: row.urgency as Urgency,
    created_at: isoOf(row.created_at),
    document_count: row.document_count,
    journey: journeyOf({ id: row.id, status: row.status, open_offers: row.open_offers, appointment }, now),
  };
}
