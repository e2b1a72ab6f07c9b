import { SearchX } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { DENTIST_STATUS_LABELS } from "../../../shared/domain/dentist";
import { DISTANCE_FILTERS_KM, type DistanceFilter, placeLabel } from "../../../shared/domain/geo";
import { URGENCY_LABELS, urgencyOf } from "../../../shared/domain/requests";
import {
  TREATMENT_LABELS,
  TREATMENT_TYPES,
  type TreatmentType,
  treatmentLabel,
} from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import { mayReply } from "../../../shared/policies/replies";
import {
  DENTIST_LIST_STATUSES,
  DENTIST_MESSAGES,
  type DentistListStatus,
  type DentistRequestSummary,
} from "../../../shared/schemas/dentist";
import { useListParams } from "../../components/dashboard/useListParams";
import { VerificationPending } from "../../components/dashboard/VerificationPending";
import { LabelledSelect } from "../../components/OptionSelect";
import { PageHeader } from "../../components/PageHeader";
import {
  SubscriptionLimitNotice,
  useSubscriptionLimited,
} from "../../components/subscription/SubscriptionLimit";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { type Column, ListPagination, QueryTable } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { SearchField } from "../../components/ui/SearchInput";
import { NewBadge } from "../../components/ui/StatusBadge";
import { cn } from "../../lib/cn";
import { type StatusFilter, useDentistRequests } from "./api";
import { SelectionBar, selectionColumn, useRequestSelection } from "./RequestSelection";
import { quoteAmountText, RequestStatusBadge } from "./requestStatus";
import { SetAsideButton } from "./SetAsideButton";

const ALL = "all" as const;
/**
 * The status filter's choices: a request chosen by the patient shows « Proposition acceptée »,
 * « Rendez-vous à confirmer », « Confirmé » or « Terminée » as its appointment goes (issue 16); its
 * filter names them all, « Acceptées par le patient », never one of them for rows that read another.
 * « Écartées »: those he set aside (ADR 091), out of « En attente ». Said of the requests, as one
 * agrees them (« Répondues », not the badge's « Répondu »).
 */
const STATUS_FILTER_LABELS: Record<DentistListStatus, string> = {
  ...DENTIST_STATUS_LABELS,
  responded: "Répondues",
  confirmed: "Acceptées par le patient",
  set_aside: "Écartées",
};
const URGENCY_TONES = { high: "red", medium: "gray", low: "gray" } as const;

const COLUMNS: Column<DentistRequestSummary>[] = [
  {
    header: "Patient",
    cell: (r) => {
      // Where the patient lives and how far from the practice (ADR 019): sorted out without opening
      // the request (which records a view in the patient's access history).
      const place = placeLabel(r.patient_city, r.distance_km);
      return (
        <>
          <span className="inline-flex flex-wrap items-center gap-2 font-medium">
            {r.patient_name}
            {r.is_new && !r.set_aside ? <NewBadge /> : null}
          </span>
          {place ? <span className="block text-sm text-slate-600">{place}</span> : null}
        </>
      );
    },
  },
  { header: "Traitement", cell: (r) => treatmentLabel(r.treatment_type) },
  { header: "Date", cell: (r) => formatListDate(r.created_at), className: "whitespace-nowrap" },
  { header: "Budget", cell: (r) => r.budget.trim() || DENTIST_MESSAGES.defaultBudget },
  {
    header: "Urgence",
    cell: (r) => {
      const urgency = urgencyOf(r.urgency);
      return <Badge tone={URGENCY_TONES[urgency]}>{URGENCY_LABELS[urgency]}</Badge>;
    },
  },
  {
    header: "Devis du patient",
    cell: (r) => quoteAmountText(r.quote_amount_cents),
    className: "whitespace-nowrap tabular-nums",
  },
  { header: "Statut", cell: (r) => <RequestStatusBadge request={r} /> },
  {
    header: "Action",
    hideLabelInCard: true,
    cell: (r) => {
      const reply = mayReply(r.my_status);
      return (
        <span className="flex flex-wrap items-center gap-2">
          <Button asChild variant={reply && !r.set_aside ? "primary" : "outline"} size="sm">
            <Link
              to={`/dentist/patient-submission/${r.id}`}
              aria-label={`${reply ? "Répondre à" : "Voir"} la demande ${ofName(r.patient_name)} (${treatmentLabel(r.treatment_type)}, ${formatListDate(r.created_at)})`}
            >
              {reply ? "Répondre" : "Voir"}
            </Link>
          </Button>
          {/* Sorted out from the list, without opening the request (ADR 091). */}
          <SetAsideButton request={r} size="sm" />
        </span>
      );
    },
  },
];

function parseStatus(value: string | null): StatusFilter {
  return (DENTIST_LIST_STATUSES as readonly string[]).includes(value ?? "") ? (value as StatusFilter) : "all";
}

function parseTreatment(value: string | null): TreatmentType | "" {
  return (TREATMENT_TYPES as readonly string[]).includes(value ?? "") ? (value as TreatmentType) : "";
}

function parseWithin(value: string | null): DistanceFilter | "" {
  return (DISTANCE_FILTERS_KM as readonly string[]).includes(value ?? "") ? (value as DistanceFilter) : "";
}

/** /dentist/quote-requests 'Demandes de devis': server-side search, filters and paging, kept in the URL. */
export function DentistQuoteRequestsPage() {
  const { params, search, page, typed, setTyped, update, goToPage, reset } = useListParams();
  const status = parseStatus(params.get("status"));
  const treatment = parseTreatment(params.get("treatment"));
  const within = parseWithin(params.get("distance"));

  const list = useDentistRequests({ search, status, treatment, within, page });
  const data = list.data;
  // Ticked rows of this page (ADR 091's addendum), set aside or put back together.
  const selection = useRequestSelection(
    data?.items,
    JSON.stringify([search, status, treatment, within, page]),
  );
  const columns = selection.eligible.length > 0 ? [selectionColumn(selection), ...COLUMNS] : COLUMNS;
  // A lapsed subscription (issue 35): only the requests whose patient chose him are listed; say why.
  const limited = useSubscriptionLimited();

  useEffect(() => {
    if (list.isError) toast.error(DENTIST_MESSAGES.listFailed, { id: "dentist-requests-error" });
  }, [list.isError]);

  const treatments = [
    ...new Set<TreatmentType>([...(data?.treatments ?? []), ...(treatment ? [treatment] : [])]),
  ];
  const filtered = Boolean(search || status !== "all" || treatment || within);
  // His practice has a point (ADR 019): the patients' distance can filter the list (ADR 094).
  const byDistance = Boolean(data?.distance_filter || within);

  return (
    <>
      <PageHeader
        title="Demandes de devis"
        description="Les demandes des patients auxquelles vous pouvez répondre."
      />
      {data && !data.verified ? (
        <VerificationPending />
      ) : (
        <>
          {limited ? <SubscriptionLimitNotice className="mb-5" /> : null}
          <search
            className={cn(
              // On a phone, the selects two by two under the search: the first requests stay in the
              // first screen.
              "mb-5 grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-3 sm:gap-4 md:items-start",
              byDistance
                ? "md:grid-cols-2 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)]"
                : "md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]",
            )}
          >
            <SearchField
              className="col-span-2 md:col-span-1"
              label="Rechercher un patient ou un traitement"
              placeholder="Ex. Dupont, Couronne"
              value={typed}
              onValueChange={setTyped}
            />
            <LabelledSelect
              label="Statut"
              value={status}
              options={[ALL, ...DENTIST_LIST_STATUSES]}
              labelOf={(s) => (s === ALL ? "Tous" : STATUS_FILTER_LABELS[s])}
              onValueChange={(value) => update({ status: value === ALL ? null : value, page: null })}
            />
            <LabelledSelect
              label="Traitement"
              value={treatment || ALL}
              options={[ALL, ...treatments]}
              labelOf={(t) => (t === ALL ? "Tous les traitements" : TREATMENT_LABELS[t])}
              onValueChange={(value) => update({ treatment: value === ALL ? null : value, page: null })}
            />
            {byDistance ? (
              <LabelledSelect
                label="Distance du patient"
                value={within || ALL}
                options={[ALL, ...DISTANCE_FILTERS_KM]}
                labelOf={(km) => (km === ALL ? "Toutes les distances" : `Jusqu'à ${km}\u00a0km`)}
                onValueChange={(value) => update({ distance: value === ALL ? null : value, page: null })}
              />
            ) : null}
          </search>
          {within ? (
            <p className="-mt-2 mb-5 text-sm text-slate-600">
              À vol d'oiseau, depuis votre cabinet. Les demandes dont la distance n'est pas connue (commune du
              patient non renseignée ou non localisée) ne sont pas montrées avec ce filtre.
            </p>
          ) : null}
          <SelectionBar selection={selection} />
          <QueryTable
            caption="Demandes de devis"
            columns={columns}
            query={list}
            error={
              list.isError ? (
                <LoadError title={DENTIST_MESSAGES.listFailed} onRetry={() => void list.refetch()} />
              ) : undefined
            }
            empty={
              <EmptyState
                icon={SearchX}
                title="Aucune demande"
                description={DENTIST_MESSAGES.noMatch}
                action={
                  filtered ? (
                    <Button variant="outline" onClick={reset}>
                      Réinitialiser les filtres
                    </Button>
                  ) : undefined
                }
              />
            }
          />
          <ListPagination className="mt-4" page={page} hasMore={data?.has_more} onPageChange={goToPage} />
        </>
      )}
    </>
  );
}
