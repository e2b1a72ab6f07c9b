import { ArrowLeft } from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { RequestLoader } from "../../../components/request/RequestLoader";
import { Button } from "../../../components/ui/Button";
import { useComparison, usePatientRequest } from "../api";
import { PatientRequestNotFound } from "../RequestPage";
import { CompareView } from "./CompareView";

export { type ComparedOffers, chooseCompared, savingCell } from "./chooseCompared";

/*
 * /patient/request/:id/compare?offres=id1,id2: two to four offers side by side on the same
 * criteria (several dentists may answer one request; the patient compares and accepts one). One
 * table from a tablet up: it scrolls sideways under a sticky criteria column, so each offer keeps its full column
 * and the criteria stay in view; on a phone, one card per offer. Issue 15: with the comparison
 * endpoint, each offer's estimated reste à charge is the main figure (price beside it), the saving is
 * against the reste à charge of the patient's own quote, and the lines are aligned tooth by tooth.
 * Without it (it could not be loaded), the offers are compared on their price as before.
 */

const LOAD_ERROR = "Impossible de charger les propositions";

/** /patient/request/:id/compare */
export function PatientComparePage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const query = usePatientRequest(id);
  // The estimates (issue 15): waited for, so the figures do not change under the eyes; on failure
  // the offers are compared on their price.
  const comparison = useComparison(id);
  return (
    <RequestLoader
      query={query}
      waiting={comparison.isPending}
      title="Comparer les propositions"
      loadError={LOAD_ERROR}
      toastId="patient-compare-error"
      back={
        <Button asChild variant="ghost" className="mb-4 -ml-2">
          <Link to={`/patient/request/${encodeURIComponent(id)}`}>
            <ArrowLeft aria-hidden="true" />
            Retour à la demande
          </Link>
        </Button>
      }
      skeleton={["h-[36rem] lg:col-span-3"]}
      notFound={<PatientRequestNotFound />}
    >
      {(request) => (
        <CompareView request={request} comparison={comparison.data} param={params.get("offres")} />
      )}
    </RequestLoader>
  );
}
