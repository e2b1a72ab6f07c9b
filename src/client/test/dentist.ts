import type { DentistDashboard, DentistRequestDetail } from "../../shared/schemas/dentist";
import type { Profile } from "../../shared/schemas/profile";
import type { QuoteLineDto } from "../../shared/schemas/quotes";
import { makeProfile } from "./renderApp";

/** A verified dentist's session: Dr Sophie Leroy, as the dentist screens' tests sign in. */
export function makeDentist(overrides: Partial<Profile> = {}): Profile {
  return makeProfile({
    role: "dentist",
    first_name: "Sophie",
    last_name: "Leroy",
    full_name: "Sophie Leroy",
    is_verified: true,
    ...overrides,
  });
}

/** A request as GET /api/dentist/requests/:id returns it to a dentist: new to them, no document. */
export function makeDentistRequestDetail(
  id: string,
  overrides: Partial<DentistRequestDetail> = {},
): DentistRequestDetail {
  return {
    id,
    patient_name: "Inès Martin",
    treatment_type: "crown",
    created_at: "2026-11-21T10:00:00.000Z",
    budget: "",
    urgency: "high",
    my_status: "pending",
    is_new: false,
    set_aside: false,
    quote_amount_cents: 120_000,
    appointment_status: null,
    appointment_starts_at: null,
    patient_city: null,
    distance_km: null,
    description: "Couronne sur la 36.",
    assigned: false,
    addressed_to_me: false,
    documents: [],
    conversation_id: null,
    quote_lines: [],
    ...overrides,
  };
}

/** GET /api/dentist/dashboard with nothing to do, nothing received this month and no reply yet. */
export function makeDentistDashboard(overrides: Partial<DentistDashboard> = {}): DentistDashboard {
  return {
    verified: true,
    pending_count: 0,
    todo: {
      requests: { count: 0, items: [] },
      appointments: { count: 0, items: [] },
      conversations: { count: 0, items: [] },
    },
    response_rate: 100,
    unread_messages: 0,
    recent_requests: [],
    recent_messages: [],
    monthly: { received: 0, replies: 0, confirmations: 0 },
    average_response_minutes: null,
    ...overrides,
  };
}

/** A patient's quote line: a ceramic-metal crown on 21, 600 € in the 100 % Santé basket (ceiling 515 €). */
export const CROWN_ON_21: QuoteLineDto = {
  code: "HBLD634",
  act: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
  tooth: 21,
  fee_cents: 600_00,
  basket: "100_sante",
  br_cents: 120_00,
  ceiling_cents: 515_00,
};

/** An empty page of GET /api/appointments. */
export const NO_APPOINTMENTS = { items: [], page: 1, page_size: 10, has_more: false };
