import { ArrowLeft } from "lucide-react";
import { useNavigate } from "react-router";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import { RequestNotFound } from "../../components/RequestParts";
import { Button } from "../../components/ui/Button";

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
