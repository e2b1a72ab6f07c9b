import { FolderOpen, SearchX } from "lucide-react";
import { useEffect, useId } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { JOURNEY_TONES } from "../../../shared/domain/journey";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import type { RequestSummary } from "../../../shared/schemas/requests";
import { useListParams } from "../../components/dashboard/useListParams";
import { PageHeader } from "../../components/PageHeader";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { type Column, QueryTable } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { SearchField } from "../../components/ui/SearchInput";
import { REQUESTS_PAGE_SIZE, usePatientRequests } from "./api";
import { UploadLink } from "./UploadLink";

const LOAD_ERROR = "Impossible de charger vos demandes";

const COLUMNS: Column<RequestSummary>[] = [
  { header: "Date", cell: (r) => formatListDate(r.created_at), className: "whitespace-nowrap" },
  { header: "Traitement", cell: (r) => treatmentLabel(r.treatment_type) },
  // The journey (issue 16): 'Proposition acceptée : choisissez un créneau', not 'Terminée' too early.
  { header: "Statut", cell: (r) => <Badge tone={JOURNEY_TONES[r.journey.state]}>{r.journey.label}</Badge> },
  {
    header: "Action",
    hideLabelInCard: true,
    cell: (r) => (
      <Button asChild variant="outline" size="sm">
        <Link
          to={`/patient/request/${r.id}`}
          aria-label={`Détails de la demande ${treatmentLabel(r.treatment_type)} du ${formatListDate(r.created_at)}`}
        >
          Détails
        </Link>
      </Button>
    ),
  },
];

/** /patient/requests 'Toutes mes demandes': server-side search and paging. */
export function PatientRequestsPage() {
  const { search, page, typed, setTyped, goToPage, reset } = useListParams();
  const countId = useId();

  const list = usePatientRequests(search, page);

  useEffect(() => {
    if (list.isError) toast.error(LOAD_ERROR, { id: "patient-requests-error" });
  }, [list.isError]);

  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / (list.data?.page_size ?? REQUESTS_PAGE_SIZE)));

  return (
    <>
      <PageHeader
        title="Toutes mes demandes"
        description="Retrouvez vos demandes de devis et suivez leur avancement."
        actions={<UploadLink />}
      />
      <search className="mb-5 grid max-w-md gap-1.5">
        <SearchField
          label="Rechercher une demande"
          placeholder="Ex. Couronne, En cours"
          value={typed}
          onValueChange={setTyped}
          aria-describedby={countId}
        />
        <p id={countId} className="min-h-5 text-sm text-slate-600" aria-live="polite">
          {list.data && total > 0 ? `${total} demande${total > 1 ? "s" : ""}` : ""}
        </p>
      </search>
      <QueryTable
        caption="Mes demandes"
        columns={COLUMNS}
        query={list}
        error={
          list.isError ? <LoadError title={LOAD_ERROR} onRetry={() => void list.refetch()} /> : undefined
        }
        empty={
          search ? (
            <EmptyState
              icon={SearchX}
              title="Aucun résultat trouvé"
              description={`Aucune demande ne correspond à « ${search} ».`}
              action={
                <Button variant="outline" onClick={reset}>
                  Réinitialiser la recherche
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={FolderOpen}
              title="Aucune demande trouvée"
              description="Vous n'avez pas encore fait de demande de devis."
              action={<UploadLink>Créer une demande</UploadLink>}
            />
          )
        }
        paging={{ page, pageCount, onPageChange: goToPage }}
      />
    </>
  );
}
