import { labelled } from "./labels";

export type StatusTone = "yellow" | "blue" | "green" | "gray";

/**
 * Stored request statuses (ADR 007, ADR 016) with their French labels and colours. 'accepted': an
 * offer is accepted, the appointment is to come (closed to the other dentists); 'completed' is kept
 * for requests closed before issue 16 whose appointment has passed. What the patient sees is the
 * journey (domain/journey.ts), derived from this status, the offers and the appointment.
 */
export const { values: REQUEST_STATUSES, labels: REQUEST_STATUS_LABELS } = labelled({
  new: "Nouvelle",
  in_review: "En cours",
  accepted: "Proposition acceptée",
  completed: "Terminée",
  cancelled: "Annulée",
});
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const REQUEST_STATUS_TONES: Record<RequestStatus, StatusTone> = {
  new: "yellow",
  in_review: "blue",
  accepted: "green",
  completed: "green",
  cancelled: "gray",
};

/** Anything unknown shows 'En attente' in grey. */
export function requestStatusLabel(status: string): string {
  return REQUEST_STATUS_LABELS[status as RequestStatus] ?? "En attente";
}
export function requestStatusTone(status: string): StatusTone {
  return REQUEST_STATUS_TONES[status as RequestStatus] ?? "gray";
}

/**
 * Urgency (glossary: docs/glossary.md): ONE label per value, everywhere (lists, badges, details), and a
 * hint the request form adds after it.
 */
export const { values: URGENCIES, labels: URGENCY_LABELS } = labelled({
  high: "Urgent",
  medium: "Normal",
  low: "Non urgent",
});
export type Urgency = (typeof URGENCIES)[number];
export const DEFAULT_URGENCY: Urgency = "medium";
export const URGENCY_HINTS: Record<Urgency, string> = {
  high: "moins d'une semaine",
  medium: "1 à 4 semaines",
  low: "plus d'un mois",
};
/** The form's option text: "Normal (1 à 4 semaines)". */
export function urgencyFormLabel(urgency: Urgency): string {
  return `${URGENCY_LABELS[urgency]} (${URGENCY_HINTS[urgency]})`;
}

/** Unknown urgencies show as Normal. */
export function urgencyOf(value: string | null | undefined): Urgency {
  return (URGENCIES as readonly string[]).includes(value ?? "") ? (value as Urgency) : DEFAULT_URGENCY;
}

/** Document types of an upload (a document's `document_type`). */
export const { values: DOCUMENT_TYPES, labels: DOCUMENT_TYPE_LABELS } = labelled({
  xray: "Radiographie",
  quote: "Devis",
  photo: "Photo",
  other: "Autre",
});
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * The guessed document type: a name containing devis, quote or facture → quote, whatever the file
 * (a phone photo of the devis, `devis-….jpg`, is read as one: issue 34); then images → photo; videos →
 * other; a name containing radio, xray or pano → xray; otherwise other.
 */
export function guessDocumentType(file: { name: string; type: string }): DocumentType {
  const name = file.name.toLowerCase();
  if (/devis|quote|facture/.test(name)) return "quote";
  if (file.type.startsWith("image/")) return "photo";
  if (file.type.startsWith("video/")) return "other";
  if (/radio|xray|pano/.test(name)) return "xray";
  return "other";
}

/** Upload limits: 10 MB per file (limits.ts), at most this many files per request. */
export const MAX_FILES_PER_REQUEST = 10;

/** Active requests are those neither completed nor cancelled (an accepted one is active). */
export function isActiveRequest(status: string): boolean {
  return status !== "completed" && status !== "cancelled";
}

/** The patient settled the request with a dentist: an offer is accepted (closed to the others). */
export function isSettledRequest(status: string): boolean {
  return status === "accepted" || status === "completed";
}
