import { ArrowLeft, Columns3 } from "lucide-react";
import { type ReactNode, useEffect, useId } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { savingOf } from "../../../shared/policies/offers";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { RequestDetail } from "../../../shared/schemas/requests";
import {
  OfferLines,
  OfferSlots,
  OfferStateBadge,
  VerifiedBadge,
  validityText,
} from "../../components/OfferDetails";
import { PageHeader } from "../../components/PageHeader";
import { Alert } from "../../components/ui/Alert";
import { Avatar } from "../../components/ui/Avatar";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDocumentTitle } from "../../lib/title";
import { AcceptOfferButton, acceptBlockerText } from "./AcceptOfferDialog";
import { usePatientRequest } from "./api";
import { comparableOffers, MAX_COMPARED, PatientRequestNotFound, sortOffers } from "./RequestPage";

/*
 * /patient/request/:id/compare?offres=id1,id2 (D14): two to four offers side by side on the same
 * criteria. One table at every width: on a phone it scrolls sideways under a sticky criteria column,
 * so each offer keeps its full column and the criteria stay in view.
 */

const LOAD_ERROR = "Impossible de charger les propositions";

export interface ComparedOffers {
  offers: PatientOffer[];
  /** Why the offers shown are not exactly the ones asked for, or null. */
  notice: string | null;
}

/**
 * The offers of `?offres=`: the ones named (2 to 4 of the request's comparable offers, in the
 * order given); otherwise all of them when they are 2 to 4, else the four cheapest, said so.
 */
export function chooseCompared(all: readonly PatientOffer[], param: string | null): ComparedOffers {
  const comparable = comparableOffers(all);
  const byPrice = sortOffers(comparable, "price");
  const ids = [
    ...new Set(
      (param ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const picked = ids
    .map((id) => comparable.find((offer) => offer.id === id))
    .filter((offer): offer is PatientOffer => offer !== undefined);
  if (picked.length >= 2 && picked.length <= MAX_COMPARED) {
    return {
      offers: picked,
      notice:
        picked.length < ids.length
          ? "Certaines propositions choisies ne sont plus disponibles : elles ne sont pas comparées."
          : null,
    };
  }
  const asked = ids.length > 0;
  if (byPrice.length <= MAX_COMPARED) {
    return {
      offers: byPrice,
      notice:
        asked && byPrice.length >= 2
          ? "Votre sélection n'a pas pu être retrouvée : toutes les propositions sont comparées."
          : null,
    };
  }
  return {
    offers: byPrice.slice(0, MAX_COMPARED),
    notice: `${asked ? "Votre sélection n'a pas pu être retrouvée. " : ""}Les quatre propositions les moins chères sont comparées. Pour en choisir d'autres, cochez-les sur la page de la demande.`,
  };
}

/** '420,00 € (35 %)' saved against the patient's quote, or null. */
export function savingCell(quoteCents: number | null, offerCents: number): string | null {
  const saving = savingOf(quoteCents, offerCents);
  return saving ? `${formatEuros(saving.cents)} (${saving.percent}\u00a0%)` : null;
}

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
      {query.isPending ? (
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
        <CompareView request={query.data} param={params.get("offres")} />
      )}
    </>
  );
}

function CompareView({ request, param }: { request: RequestDetail; param: string | null }) {
  const treatment = treatmentLabel(request.treatment_type);
  const { offers, notice } = chooseCompared(request.offers ?? [], param);
  const navigate = useNavigate();
  const captionId = useId();
  const requestPath = `/patient/request/${encodeURIComponent(request.id)}`;

  if (offers.length < 2) {
    return (
      <>
        <PageHeader title="Comparer les propositions" documentTitle={`Comparer : ${treatment}`} />
        <EmptyState
          icon={Columns3}
          title="Pas assez de propositions à comparer"
          description="Il faut au moins deux propositions pour les comparer. Les dentistes répondent en général sous 48 heures."
          action={
            <Button asChild>
              <Link to={requestPath}>Voir la demande</Link>
            </Button>
          }
        />
      </>
    );
  }

  const cheapest = Math.min(...offers.map((o) => o.amount_cents));
  const allOffers = request.offers ?? [];
  const othersToClose = (id: string) => allOffers.filter((o) => o.id !== id && o.state === "sent").length;
  const quote = request.quote_amount_cents;

  const rows: { label: ReactNode; cell: (offer: PatientOffer) => ReactNode; key: string }[] = [
    { key: "city", label: "Ville", cell: (o) => o.dentist.city ?? <None /> },
    {
      key: "specialties",
      label: "Spécialités",
      cell: (o) => (o.dentist.specialties.length > 0 ? o.dentist.specialties.join(" · ") : <None />),
    },
    {
      key: "amount",
      label: "Montant",
      cell: (o) => (
        <div className="grid justify-items-start gap-1">
          <span className="text-xl font-semibold text-slate-900">{formatEuros(o.amount_cents)}</span>
          {o.amount_cents === cheapest ? <Badge tone="green">Le moins cher</Badge> : null}
        </div>
      ),
    },
    {
      key: "saving",
      label: (
        <>
          Économie estimée
          {quote !== null && quote > 0 ? (
            <span className="block font-normal text-slate-600">
              par rapport à votre devis de <span className="tabular-nums">{formatEuros(quote)}</span>
            </span>
          ) : null}
        </>
      ),
      cell: (o) => {
        const saving = savingCell(quote, o.amount_cents);
        return saving ? (
          <span className="font-medium text-green-800">{saving}</span>
        ) : (
          <None label="Aucune économie estimée" />
        );
      },
    },
    {
      key: "validity",
      label: "Validité",
      cell: (o) =>
        o.state === "expired" ? "Expirée" : o.valid_until ? validityText(o.valid_until) : "Sans date limite",
    },
    { key: "state", label: "État", cell: (o) => <OfferStateBadge state={o.state} /> },
    { key: "received", label: "Reçue le", cell: (o) => formatDetailDate(o.created_at) },
    {
      key: "lines",
      label: "Détail des actes",
      cell: (o) =>
        o.lines.length > 0 ? <OfferLines lines={o.lines} hideLabel /> : <None label="Non détaillé" />,
    },
    {
      key: "slots",
      label: "Créneaux proposés",
      cell: (o) =>
        o.slots.length > 0 ? (
          <OfferSlots slots={o.slots} hideLabel />
        ) : (
          <None label="Aucun créneau proposé" />
        ),
    },
    {
      key: "comment",
      label: "Commentaire",
      cell: (o) =>
        o.comment ? <p className="whitespace-pre-line">{o.comment}</p> : <None label="Aucun commentaire" />,
    },
    {
      key: "decision",
      label: "Votre choix",
      cell: (o) => {
        if (o.state === "accepted") {
          return (
            <div className="grid justify-items-start gap-2">
              <p className="font-medium text-green-800">Vous avez accepté cette proposition.</p>
              <Link
                to={requestPath}
                className="font-medium text-brand-700 underline-offset-2 hover:underline"
              >
                Choisir mon rendez-vous
              </Link>
            </div>
          );
        }
        const blocker = offerAcceptBlocker(o.state, request.status);
        return blocker === null ? (
          <AcceptOfferButton
            requestId={request.id}
            offer={o}
            othersToClose={othersToClose(o.id)}
            size="sm"
            onAccepted={() => navigate(requestPath)}
          />
        ) : (
          <span className="text-slate-600">{acceptBlockerText(blocker)}</span>
        );
      },
    },
  ];

  const criteria =
    "sticky left-0 z-10 w-28 min-w-28 border-r border-slate-200 bg-slate-50 px-3 py-3 sm:w-48 sm:min-w-48";

  return (
    <>
      <PageHeader
        title="Comparer les propositions"
        documentTitle={`Comparer : ${treatment}`}
        description={`${treatment} · ${offers.length} propositions côte à côte. L'ordre ne dépend que de votre choix.`}
      />
      {notice ? (
        <Alert className="mb-4" title="Sélection modifiée">
          {notice}
        </Alert>
      ) : null}
      <p className="mb-2 text-sm text-slate-600 md:hidden">
        Faites glisser le tableau vers la gauche pour voir les autres propositions.
      </p>
      {/* `relative`: the table's screen-reader-only texts are absolutely positioned; without a
          positioned scroll container they escape its clipping and widen the page on a phone. */}
      <section
        className="relative overflow-x-auto rounded-ui border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700"
        aria-labelledby={captionId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone it scrolls sideways; the keyboard must reach it.
        tabIndex={0}
      >
        <table className="w-full border-collapse text-left text-sm tabular-nums">
          <caption id={captionId} className="sr-only">
            Comparaison des propositions pour votre demande : {treatment}
          </caption>
          <thead className="border-b border-slate-200">
            <tr>
              <td className={cn(criteria, "z-20")}>
                <span className="sr-only">Critère</span>
              </td>
              {offers.map((o) => (
                <th
                  key={o.id}
                  scope="col"
                  // Equal columns: no offer looks bigger because its text is longer.
                  style={{ width: `${100 / offers.length}%` }}
                  className={cn(
                    "min-w-52 px-3 py-3 sm:px-4 align-top font-normal",
                    o.amount_cents === cheapest && "bg-green-50",
                  )}
                >
                  <div className="flex items-start gap-3">
                    <Avatar name={o.dentist.full_name} src={o.dentist.avatar_url} />
                    <div className="grid justify-items-start gap-1">
                      <span className="font-semibold text-slate-900">Dr {o.dentist.full_name}</span>
                      {o.dentist.is_verified ? <VerifiedBadge /> : null}
                    </div>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className={cn(criteria, "align-top font-semibold text-slate-700")}>
                  {row.label}
                </th>
                {offers.map((o) => (
                  <td
                    key={o.id}
                    className={cn(
                      "min-w-52 px-3 py-3 sm:px-4 align-top text-slate-900",
                      o.amount_cents === cheapest && "bg-green-50/60",
                    )}
                  >
                    {row.cell(o)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** An empty cell: a dash on screen, words for screen readers. */
function None({ label = "Non précisé" }: { label?: string }) {
  return (
    <>
      <span aria-hidden="true" className="text-slate-600">
        —
      </span>
      <span className="sr-only">{label}</span>
    </>
  );
}
