import type { DentistStatus } from "../../../shared/domain/dentist";
import { URGENCY_LABELS, urgencyOf } from "../../../shared/domain/requests";
import { formatEuros } from "../../../shared/format/money";
import { DENTIST_MESSAGES, type DentistRequestSummary } from "../../../shared/schemas/dentist";
import { Badge } from "../../components/ui/Badge";
import { DentistStatusBadge } from "../../components/ui/StatusBadge";
import { isApiError } from "../../lib/api";

/** A request as the dentist sees it: their own status on it, the patient's devis amount. */

/**
 * This dentist's status on a request, in agreement with the appointment (issue 16): chosen by the
 * patient, the request is 'Confirmé' only once the appointment is confirmed, and « Terminée » once
 * its time has passed (the patient's word for it, shared/domain/journey.ts).
 */
export function dentistStatusLabel(
  status: DentistStatus,
  appointment: DentistRequestSummary["appointment_status"],
  startsAt: string | null = null,
  now: Date = new Date(),
): string | null {
  if (status !== "confirmed") return null;
  if (appointment === "confirmed")
    return startsAt !== null && new Date(startsAt).getTime() <= now.getTime() ? "Terminée" : "Confirmé";
  if (appointment === "pending") return "Rendez-vous à confirmer";
  return "Proposition acceptée";
}

export function RequestStatusBadge({
  request,
}: {
  request: Pick<DentistRequestSummary, "my_status" | "appointment_status" | "appointment_starts_at"> & {
    set_aside?: boolean;
  };
}) {
  // Set aside by him (« Ne pas donner suite », ADR 091) and not answered since.
  if (request.set_aside && request.my_status === "pending") return <Badge tone="gray">Écartée</Badge>;
  const label = dentistStatusLabel(
    request.my_status,
    request.appointment_status,
    request.appointment_starts_at,
  );
  if (!label) return <DentistStatusBadge status={request.my_status} />;
  return <Badge tone={request.appointment_status === "confirmed" ? "green" : "yellow"}>{label}</Badge>;
}

/** The patient's current devis amount, or "Non renseigné". */
export function quoteAmountText(cents: number | null): string {
  return cents === null ? "Non renseigné" : formatEuros(cents);
}

const URGENCY_TONES = { high: "red", medium: "gray", low: "gray" } as const;

/** The patient's urgency: red when high. */
export function UrgencyBadge({ urgency }: { urgency: string | null | undefined }) {
  const level = urgencyOf(urgency);
  return <Badge tone={URGENCY_TONES[level]}>{URGENCY_LABELS[level]}</Badge>;
}

/**
 * Why a reply or a proposal on an open request page was not sent: a 404 there means the request
 * closed meanwhile (the patient cancelled it or chose another proposal), said as such; any other
 * refusal its own message.
 */
export function sendFailure(error: unknown): string {
  if (isApiError(error) && error.status === 404) return DENTIST_MESSAGES.closedMeanwhile;
  return isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.";
}
