import { FolderOpen, Plus, SearchX } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { JOURNEY_TONES } from "../../../shared/domain/journey";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import type { RequestSummary } from "../../../shared/schemas/requests";
import { PageHeader } from "../../components/PageHeader";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { type Column, DataTable } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { SearchInput } from "../../components/ui/SearchInput";
import { REQUESTS_PAGE_SIZE, usePatientRequests } from "./api";

/** Typing pauses this long before the list asks the server (search is server-side). */
export const SEARCH_DEBOUNCE_MS = 300;

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
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const [typed, setTyped] = useState(search);
  const searchId = useId();

  // The URL holds the search and the page, so Back and a reload keep them.
  useEffect(() => {
    const term = typed.trim();
    if (term === search) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (term) next.set("q", term);
          else next.delete("q");
          next.delete("page");
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, setParams]);

  const list = usePatientRequests(search, page);

  useEffect(() => {
    if (list.isError) toast.error(LOAD_ERROR, { id: "patient-requests-error" });
  }, [list.isError]);

  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / (list.data?.page_size ?? REQUESTS_PAGE_SIZE)));

  const goToPage = (next: number) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (next > 1) copy.set("page", String(next));
      else copy.delete("page");
      return copy;
    });

  const resetSearch = () => {
    setTyped("");
    setParams({}, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Toutes mes demandes"
        description="Retrouvez vos demandes de devis et suivez leur avancement."
        actions={
          <Button asChild>
            <Link to="/patient/upload">
              <Plus aria-hidden="true" />
              Nouvelle demande
            </Link>
          </Button>
        }
      />
      <search className="mb-5 grid max-w-md gap-1.5">
        <Label htmlFor={searchId}>Rechercher une demande</Label>
        <SearchInput
          id={searchId}
          placeholder="Ex. Couronne, En cours"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          aria-describedby={`${searchId}-count`}
        />
        <p id={`${searchId}-count`} className="min-h-5 text-sm text-slate-600" aria-live="polite">
          {list.data && total > 0 ? `${total} demande${total > 1 ? "s" : ""}` : ""}
        </p>
      </search>
      <DataTable
        caption="Mes demandes"
        columns={COLUMNS}
        rows={list.data?.items}
        rowKey={(r) => r.id}
        loading={list.isPending}
        loadingRows={5}
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
                <Button variant="outline" onClick={resetSearch}>
                  Réinitialiser la recherche
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={FolderOpen}
              title="Aucune demande trouvée"
              description="Vous n'avez pas encore fait de demande de devis."
              action={
                <Button asChild>
                  <Link to="/patient/upload">
                    <Plus aria-hidden="true" />
                    Créer une demande
                  </Link>
                </Button>
              }
            />
          )
        }
        paging={{ page, pageCount, onPageChange: goToPage }}
      />
    </>
  );
}
