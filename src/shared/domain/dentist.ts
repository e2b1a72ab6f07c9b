import { labelled } from "./labels";
import type { StatusTone } from "./requests";

/** Each dentist's own status on a request (ADR 007), with its French labels and colours. */
export const { values: DENTIST_STATUSES, labels: DENTIST_STATUS_LABELS } = labelled({
  pending: "En attente",
  responded: "Répondu",
  confirmed: "Confirmé",
});
export type DentistStatus = (typeof DENTIST_STATUSES)[number];

export const DENTIST_STATUS_TONES: Record<DentistStatus, StatusTone> = {
  pending: "yellow",
  responded: "blue",
  confirmed: "green",
};
