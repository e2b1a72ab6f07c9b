import type { StatusTone } from "./requests";

/** Each dentist's own status on a request (ADR 007), with its French labels and colours. */
export const DENTIST_STATUSES = ["pending", "responded", "confirmed"] as const;
export type DentistStatus = (typeof DENTIST_STATUSES)[number];

export const DENTIST_STATUS_LABELS: Record<DentistStatus, string> = {
  pending: "En attente",
  responded: "Répondu",
  confirmed: "Confirmé",
};

export const DENTIST_STATUS_TONES: Record<DentistStatus, StatusTone> = {
  pending: "yellow",
  responded: "blue",
  confirmed: "green",
};
