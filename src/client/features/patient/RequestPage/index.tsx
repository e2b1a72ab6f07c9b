import { useParams } from "react-router";
import { RequestLoader } from "../../../components/request/RequestLoader";
import { RequestNotFound } from "../../../components/request/RequestParts";
import { usePatientRequest } from "../api";
import { RequestView } from "./RequestView";

export {
  comparableOffers,
  compareUrl,
  liveFirst,
  MAX_COMPARED,
  type OfferOrder,
  savingText,
  sortOffers,
} from "../offerList";
export { withEuroSign } from "./RequestInfoCard";

/**
 * /patient/request/:id: the patient's request, its offers and booking; cancelling or deleting it;
 * and who opened its documents (ADR 005).
 */
export function PatientRequestPage() {
  const { id = "" } = useParams();
  const query = usePatientRequest(id);
  return (
    <RequestLoader
      query={query}
      title="Détails de la demande"
      loadError="Impossible de charger les détails de la demande"
      toastId="patient-request-error"
      backTo="/patient/requests"
      skeleton={["h-72 lg:col-span-2", "h-72"]}
      notFound={<PatientRequestNotFound />}
    >
      {(request) => <RequestView request={request} />}
    </RequestLoader>
  );
}

export function PatientRequestNotFound() {
  return (
    <RequestNotFound
      description="Cette demande n'existe pas ou a été supprimée."
      backTo="/patient/dashboard"
      backLabel="Retour au tableau de bord"
    />
  );
}
