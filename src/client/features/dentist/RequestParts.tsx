import { ArrowLeft } from "lucide-react";
import { useNavigate } from "react-router";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { formatEuros } from "../../../shared/format/money";
import { DENTIST_MESSAGES, type DentistRequestSummary } from "../../../shared/schemas/dentist";
import { RequestNotFound } from "../../components/RequestParts";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { DentistStatusBadge } from "../../components/ui/StatusBadge";

/** Pieces shared by the dentist's request pages (patient submission, proposal). */

/** 'Retour': back in history, else to the list of requests. */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      className="mb-4 -ml-2"
      onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/dentist/quote-requests"))}
    >
      <ArrowLeft aria-hidden="true" />
      Retour
    </Button>
  );
}

/** 'Impossible de trouver cette demande.' with a way back to the requests. */
export function DentistRequestNotFound() {
  return (
    <RequestNotFound
      description={DENTIST_MESSAGES.notFound}
      backTo="/dentist/quote-requests"
      backLabel="Retour aux demandes"
    />
  );
}

/**
 * This dentist's status on a request, in agreement with the appointment (issue 16): chosen by the
 * patient, the request is 'Confirmé' only once the appointment is confirmed.
 */
export function dentistStatusLabel(
  status: DentistStatus,
  appointment: DentistRequestSummary["appointment_status"],
): string | null {
  if (status !== "confirmed") return null;
  if (appointment === "confirmed") return "Confirmé";
  if (appointment === "pending") return "Rendez-vous à confirmer";
  return "Proposition acceptée";
}

export function RequestStatusBadge({
  request,
}: {
  request: Pick<DentistRequestSummary, "my_status" | "appointment_status">;
}) {
  const label = dentistStatusLabel(request.my_status, request.appointment_status);
  if (!label) return <DentistStatusBadge status={request.my_status} />;
  return <Badge tone={request.appointment_status === "confirmed" ? "green" : "yellow"}>{label}</Badge>;
}

/** The patient's current devis amount, or "Non renseigné". */
export function quoteAmountText(cents: number | null): string {
  return cents === null ? "Non renseigné" : formatEuros(cents);
}
