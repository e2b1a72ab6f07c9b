import { HandCoins, SearchX, Undo2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { OFFER_STATES, type OfferState } from "../../../shared/domain/offers";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import type { DentistOfferItem } from "../../../shared/schemas/offers";
import { parsePage } from "../../components/dashboard/useListParams";
import { VerificationPending, VerifiedOnly } from "../../components/dashboard/VerificationPending";
import { OfferStateBadge } from "../../components/OfferDetails";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { type Column, ListPagination, QueryTable } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDentistOffers } from "./offersApi";
import { WithdrawOfferDialog } from "./WithdrawOfferDialog";

/*
 * /dentist/offers 'Mes propositions' (ADR 008): every offer this dentist sent, newest first, filtered
 * by the state people see (?etat=) and paged (?page=) in the URL so Back and a reload keep them.
 */

const LIST_ERROR = "Impossible de charger vos propositions";

export const OFFER_FILTERS: { value: OfferState | null; label: string }[] = [
  { value: null, label: "Toutes" },
  { value: "sent", label: "Envoyées" },
  { value: "accepted", label: "Acceptées" },
  { value: "closed", label: "Clôturées" },
  { value: "expired", label: "Expirées" },
  { value: "withdrawn", label: "Retirées" },
];

function parseState(value: string | null): OfferState | null {
  return (OFFER_STATES as readonly string[]).includes(value ?? "") ? (value as OfferState) : null;
}

/** "jusqu'au 31/12/2026" (a Paris calendar day), or "Sans date limite". */
function validityCell(validUntil: string | null): string {
  return validUntil ? `Jusqu'au ${formatListDate(`${validUntil}T12:00:00Z`)}` : "Sans date limite";
}

/** What the offer is about, for the accessible names of its row's actions. */
function offerName(offer: DentistOfferItem): string {
  return `${treatmentLabel(offer.treatment_type)}, ${offer.patient_name}`;
}

/** /dentist/offers */
export function DentistOffersPage() {
  return (
    <>
      <PageHeader
        title="Mes propositions"
        description="Les propositions de devis que vous avez envoyées aux patients, des plus récentes aux plus anciennes."
      />
      <VerifiedOnly>
        <OffersList />
      </VerifiedOnly>
    </>
  );
}

function OffersList() {
  const [params, setParams] = useSearchParams();
  const state = parseState(params.get("etat"));
  const page = parsePage(params.get("page"));
  const list = useDentistOffers(state, page);
  const [withdrawing, setWithdrawing] = useState<DentistOfferItem | null>(null);
  const data = list.data;
  const forbidden = isApiError(list.error) && list.error.status === 403;

  useEffect(() => {
    if (list.isError && !forbidden) toast.error(LIST_ERROR, { id: "dentist-offers-error" });
  }, [list.isError, forbidden]);

  /** The URL of a filter and page (the first page and 'Toutes' are left out). */
  const searchFor = (next: { state: OfferState | null; page: number }) => {
    const query = new URLSearchParams();
    if (next.state) query.set("etat", next.state);
    if (next.page > 1) query.set("page", String(next.page));
    const text = query.toString();
    return text ? `?${text}` : "";
  };

  if (forbidden) return <VerificationPending />;

  const columns: Column<DentistOfferItem>[] = [
    {
      header: "Traitement",
      cell: (o) => <span className="font-medium">{treatmentLabel(o.treatment_type)}</span>,
    },
    { header: "Patient", cell: (o) => o.patient_name },
    {
      header: "Montant",
      cell: (o) => <span className="whitespace-nowrap">{formatEuros(o.amount_cents)}</span>,
    },
    { header: "Envoyée le", cell: (o) => formatListDate(o.created_at), className: "whitespace-nowrap" },
    { header: "Validité", cell: (o) => validityCell(o.valid_until) },
    { header: "État", cell: (o) => <OfferStateBadge state={o.state} /> },
    {
      header: "Actions",
      hideLabelInCard: true,
      cell: (o) => (
        <div className="flex flex-wrap gap-2">
          {/* Closed: the patient chose another proposal or cancelled; the request is no longer his to open. */}
          {o.state === "closed" ? (
            <span className="text-sm text-slate-600">Demande fermée</span>
          ) : (
            <Button asChild variant="outline" size="sm">
              <Link
                to={`/dentist/quote-request/${encodeURIComponent(o.request_id)}`}
                aria-label={`Voir la proposition : ${offerName(o)}`}
              >
                Voir
              </Link>
            </Button>
          )}
          {o.may_withdraw ? (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Retirer la proposition : ${offerName(o)}`}
              onClick={() => setWithdrawing(o)}
            >
              <Undo2 aria-hidden="true" />
              Retirer
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <>
      <nav aria-label="Filtrer par état" className="mb-5">
        <ul className="inline-flex flex-wrap gap-1 rounded-ui bg-slate-100 p-1 text-slate-700">
          {OFFER_FILTERS.map((filter) => {
            const active = filter.value === state;
            return (
              <li key={filter.label}>
                <Link
                  to={{ search: searchFor({ state: filter.value, page: 1 }) }}
                  aria-current={active ? "true" : undefined}
                  className={cn(
                    "inline-block rounded-md px-3 py-1.5 text-sm font-medium hover:text-slate-900",
                    active && "bg-white text-brand-800 shadow-sm",
                  )}
                >
                  {filter.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <QueryTable
        caption={`Mes propositions : ${OFFER_FILTERS.find((f) => f.value === state)?.label ?? "Toutes"}`}
        columns={columns}
        query={list}
        error={
          list.isError ? (
            <LoadError
              title={LIST_ERROR}
              message={isApiError(list.error) ? list.error.message : undefined}
              onRetry={() => void list.refetch()}
            />
          ) : undefined
        }
        empty={
          state === null && page === 1 ? (
            <EmptyState
              icon={HandCoins}
              title="Vous n'avez encore envoyé aucune proposition."
              description="Répondez aux demandes des patients : vos propositions de devis apparaîtront ici."
              action={
                <Button asChild>
                  <Link to="/dentist/quote-requests">Voir les demandes de devis</Link>
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={SearchX}
              title="Aucune proposition dans cet état."
              action={
                <Button asChild variant="outline">
                  <Link to={{ search: "" }}>Voir toutes les propositions</Link>
                </Button>
              }
            />
          )
        }
      />
      <ListPagination
        className="mt-4"
        page={page}
        hasMore={data?.has_more}
        onPageChange={(next) => {
          setParams(new URLSearchParams(searchFor({ state, page: next })));
          window.scrollTo({ top: 0 });
        }}
      />
      <WithdrawOfferDialog offer={withdrawing} onClose={() => setWithdrawing(null)} />
    </>
  );
}
