import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import type { Appointment, AppointmentList } from "../../shared/schemas/appointments";
import type { PatientOffer } from "../../shared/schemas/offers";
import { Toaster } from "../components/ui/Toaster";
import { QueryProvider } from "../lib/QueryProvider";
import { resetQueryClient } from "../lib/queryClient";
import { makeDentist } from "./dentist";
import { makeProfile, type stubApi } from "./renderApp";

/** The appointment tests' data: a patient, Dr Sophie Leroy, an accepted offer and its appointments. */

/** Tuesday 1 December 2026, 10:00 in Paris. */
export const NOW = new Date("2026-12-01T09:00:00.000Z");
export const REQUEST_ID = "33333333-3333-4333-8333-333333333333";
export const OFFER_ID = "44444444-4444-4444-8444-444444444444";

export const patient = makeProfile();
export const dentist = makeDentist({ id: "00000000-0000-4000-8000-000000000002" });

export function appointment(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: "a-1",
    request_id: REQUEST_ID,
    offer_id: OFFER_ID,
    treatment_type: "crown",
    amount_cents: 78_000,
    status: "pending",
    awaiting: "dentist",
    my_side: "patient",
    view: "awaiting_other",
    starts_at: null,
    // Monday 7 December 2026, 14:30 in Paris.
    options: ["2026-12-07T13:30:00.000Z"],
    taken_options: [],
    cancelled_by: null,
    may_confirm: false,
    may_change: true,
    other_standing: "active",
    patient: { id: patient.id, full_name: "Marie Curie" },
    dentist: {
      id: dentist.id,
      full_name: "Sophie Leroy",
      city: "Lyon",
      address: "12 rue de la République",
      postcode: "69002",
    },
    created_at: "2026-11-30T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    ...overrides,
  };
}

export const confirmed = (overrides: Partial<Appointment> = {}) =>
  appointment({
    status: "confirmed",
    awaiting: null,
    view: "confirmed",
    starts_at: "2026-12-07T13:30:00.000Z",
    options: [],
    ...overrides,
  });

export function list(items: Appointment[], overrides: Partial<AppointmentList> = {}): AppointmentList {
  return { items, page: 1, page_size: 10, has_more: false, ...overrides };
}

export function offer(overrides: Partial<PatientOffer> = {}): PatientOffer {
  return {
    id: OFFER_ID,
    request_id: REQUEST_ID,
    amount_cents: 78_000,
    comment: "",
    valid_until: null,
    state: "accepted",
    lines: [],
    slots: [
      // Past: not offered any more.
      "2026-11-30T09:00:00.000Z",
      // Monday 7 December, 14:30 in Paris (UTC+1).
      "2026-12-07T13:30:00.000Z",
      // Wednesday 9 December, 09:15 in Paris.
      "2026-12-09T08:15:00.000Z",
    ],
    taken_slots: [],
    created_at: "2026-11-22T09:00:00.000Z",
    dentist: {
      id: dentist.id,
      full_name: "Sophie Leroy",
      city: "Lyon",
      avatar_url: null,
      specialties: [],
      is_verified: true,
      erased: false,
      rating: { average: null, count: 0 },
    },
    conversation_id: null,
    ...overrides,
  };
}

/** Renders a piece with react-query and the toasts, the clock at NOW. */
export function renderPiece(ui: ReactNode) {
  resetQueryClient();
  const user = userEvent.setup();
  render(
    <QueryProvider>
      {ui}
      <Toaster />
    </QueryProvider>,
  );
  return user;
}

/** The calls made to the API, as "METHOD /path?query", with their bodies. */
export function callsOf(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls.map(([input, init]) => {
    const url = new URL(String(input), "http://localhost");
    return {
      key: `${init?.method ?? "GET"} ${url.pathname}${url.search}`,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
  });
}

/** The clock of every test in the calling file stands at NOW (dates only; timers run). */
export function freezeClockAtNow() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
