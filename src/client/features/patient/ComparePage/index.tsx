import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import { PageHeader } from "../../../components/PageHeader";
import { Button } from "../../../components/ui/Button";
import { LoadError } from "../../../components/ui/LoadError";
import { Skeleton } from "../../../components/ui/Skeleton";
import { isApiError } from "../../../lib/api";
import { useDocumentTitle } from "../../../lib/title";
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

function LoadingCompare() {
  useDocumentTitle("Comparer les propositions");
  return (
    <div aria-busy="true">
      <p className="sr-only">Chargement...</p>
      <h1 className="sr-only">Comparer les propositions</h1>
      <div className="mb-6 grid gap-3">
        <Skeleton className="h-9 w-72" />
        <Skeleton className="h-5 w-56" />
      </div>
      <Skeleton className="h-[36rem]" />
    </div>
  );
}

/** /patient/request/:id/compare */
export function PatientComparePage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const query = usePatientRequest(id);
  // The estimates (issue 15): waited for, so the figures do not change under the eyes; on failure
  // the offers are compared on their price.
  const comparison = useComparison(id);
  const notFound = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !notFound) toast.error(LOAD_ERROR, { id: "patient-compare-error" });
  }, [query.isError, notFound]);

  return (
    <>
      <Button asChild variant="ghost" className="mb-4 -ml-2">
        <Link to={`/patient/request/${encodeURIComponent(id)}`}>
          <ArrowLeft aria-hidden="true" />
          Retour à la demande
        </Link>
      </Button>
      {query.isPending || (query.isSuccess && comparison.isPending) ? (
        <LoadingCompare />
      ) : notFound ? (
        <PatientRequestNotFound />
      ) : query.isError ? (
        <>
          <PageHeader title="Comparer les propositions" />
          <LoadError
            title={LOAD_ERROR}
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        <CompareView request={query.data} comparison={comparison.data} param={params.get("offres")} />
      )}
    </>
  );
}
