import type { PatientOffer } from "../../../shared/schemas/offers";

/**
 * Tests only: an offer as the patient's API returns it, sent, 1 000 € without lines, by a verified
 * dentist (`dentist` changes what is said of them); spread it and override what a test needs.
 */
export function patientOffer(
  id: string,
  requestId: string,
  dentist: Partial<PatientOffer["dentist"]> = {},
): PatientOffer {
  return {
    id,
    request_id: requestId,
    amount_cents: 100_000,
    comment: "",
    valid_until: null,
    state: "sent",
    lines: [],
    slots: [],
    taken_slots: [],
    created_at: "2026-11-22T09:00:00.000Z",
    dentist: {
      id: `d-${id}`,
      full_name: "Paul Martin",
      city: null,
      avatar_url: null,
      specialties: [],
      is_verified: true,
      erased: false,
      rating: { average: null, count: 0 },
      ...dentist,
    },
    conversation_id: null,
  };
}

/** A verified dentist with a city and specialties (Lyon: the demo patient's city). */
export const LEROY: PatientOffer["dentist"] = {
  id: "d-a",
  full_name: "Sophie Leroy",
  city: "Lyon",
  avatar_url: null,
  specialties: ["Implantologie", "Prothèse"],
  is_verified: true,
  erased: false,
  rating: { average: 4.5, count: 12 },
};
