import type { StatusTone } from "./requests";

/**
 * Appointments booked on an accepted offer (ADR 011). Stored statuses: 'pending' (one side
 * proposed times, the other must answer: `awaiting`), 'confirmed' and 'cancelled'. What people see
 * depends on who looks and when (see shared/policies/appointments.ts).
 */
export const APPOINTMENT_STATUSES = ["pending", "confirmed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_SIDES = ["patient", "dentist"] as const;
export type AppointmentSide = (typeof APPOINTMENT_SIDES)[number];

/** The appointment as one side sees it. */
export const APPOINTMENT_VIEWS = ["awaiting_me", "awaiting_other", "confirmed", "past", "cancelled"] as const;
export type AppointmentView = (typeof APPOINTMENT_VIEWS)[number];

export const APPOINTMENT_VIEW_LABELS: Record<AppointmentSide, Record<AppointmentView, string>> = {
  patient: {
    awaiting_me: "Nouveau créneau proposé par le dentiste",
    awaiting_other: "En attente de confirmation du dentiste",
    confirmed: "Confirmé",
    past: "Passé",
    cancelled: "Annulé",
  },
  dentist: {
    awaiting_me: "À confirmer",
    awaiting_other: "En attente de réponse du patient",
    confirmed: "Confirmé",
    past: "Passé",
    cancelled: "Annulé",
  },
};

export const APPOINTMENT_VIEW_TONES: Record<AppointmentView, StatusTone> = {
  awaiting_me: "yellow",
  awaiting_other: "blue",
  confirmed: "green",
  past: "gray",
  cancelled: "gray",
};

export const APPOINTMENT_LIMITS = {
  /** Times one side may propose at once. */
  maxOptions: 3,
  /** The length written in the calendar file. */
  durationMinutes: 60,
  /** Proposed times at most this many days ahead. */
  horizonDays: 365,
} as const;

/** Reminder e-mails before a confirmed appointment, and how long before. */
export const REMINDERS = [
  { kind: "7d", beforeMs: 7 * 24 * 60 * 60 * 1000 },
  { kind: "1d", beforeMs: 24 * 60 * 60 * 1000 },
] as const;
export type ReminderKind = (typeof REMINDERS)[number]["kind"];
