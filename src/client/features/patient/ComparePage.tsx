import { ArrowLeft, Columns3 } from "lucide-react";
import { type ReactNode, useEffect, useId, useSyncExternalStore } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import { placeLabel } from "../../../shared/domain/geo";
import { BOOKING_ANCHOR } from "../../../shared/domain/journey";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { savingOf } from "../../../shared/policies/offers";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { EstimateDetails } from "../../components/estimate/EstimateDetails";
import { AmoOnlyNotice, RestFigure, restSaving, SanteBadge } from "../../components/estimate/EstimateParts";
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
import { useComparison, usePatientRequest } from "./api";
import { NOT_DETAILED } from "./OfferItem";
import { comparableOffers, MAX_COMPARED, type RestByOffer, restByOffer, sortOffers } from "./offerList";
import { PatientRequestNotFound } from "./RequestPage";
import { ToothAlignment } from "./ToothAlignment";

/*
 * /patient/request/:id/compare?offres=id1,id2 (D14): two to four offers side by side on the same
 * criteria. One table at every width: on a phone it scrolls sideways under a sticky criteria column,
 * so each offer keeps its full column and the criteria stay in view. Issue 15: with the comparison
 * endpoint, each offer's estimated reste à charge is the main figure (price beside it), the saving is
 * against the reste à charge of the patient's own quote, and the lines are aligned tooth by tooth.
 * Without it (it could not be loaded), the offers are compared on their price as before.
 */

const LOAD_ERROR = "Impossible de charger les propositions";

export interface ComparedOffers {
  offers: PatientOffer[];
  /** Why the offers shown are not exactly the ones asked for, or null. */
  notice: string | null;
}

/**
 * The offers of `?offres=`: the ones named (2 to 4 of the request's comparable offers, in the
 * order given); otherwise all of them when they are 2 to 4, else the four with the lowest estimated
 * reste à charge (`rests`; without it the four cheapest), said so.
 */
export function chooseCompared(
  all: readonly PatientOffer[],
  param: string | null,
  rests: RestByOffer = new Map(),
): ComparedOffers {
  const comparable = comparableOffers(all);
  const byRest = rests.size > 0;
  const byPrice = sortOffers(comparable, byRest ? "rest" : "price", rests);
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
          ? "Certaines propositions choisies ne sont plus disponibles : elles ne sont pas comparées."
          : null,
    };
  }
  const asked = ids.length > 0;
  if (byPrice.length <= MAX_COMPARED) {
    return {
      offers: byPrice,
      notice:
        asked && byPrice.length >= 2
          ? "Votre sélection n'a pas pu être retrouvée : toutes les propositions sont comparées."
          : null,
    };
  }
  return {
    offers: byPrice.slice(0, MAX_COMPARED),
    notice: `${asked ? "Votre sélection n'a pas pu être retrouvée. " : ""}Les quatre propositions ${byRest ? "au reste à charge estimé le plus bas" : "les moins chères"} sont comparées. Pour en choisir d'autres, cochez-les sur la page de la demande.`,
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

function CompareView({
  request,
  comparison,
  param,
}: {
  request: RequestDetail;
  comparison: Comparison | undefined;
  param: string | null;
}) {
  const treatment = treatmentLabel(request.treatment_type);
  const rests = restByOffer(comparison);
  const { offers, notice } = chooseCompared(request.offers ?? [], param, rests);
  const navigate = useNavigate();
  const captionId = useId();
  // Issue 16: on a phone, stacked cards (one per offer, the key figures aligned); the table on wider screens.
  const narrow = useNarrowScreen();
  const requestPath = `/patient/request/${encodeURIComponent(request.id)}`;

  if (offers.length < 2) {
    return (
      <>
        <PageHeader title="Comparer les propositions" documentTitle={`Comparer : ${treatment}`} />
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

  // The column set apart: the lowest estimated reste à charge, or the lowest price without estimates.
  const estimateOf = (o: PatientOffer) => comparison?.offers.find((e) => e.offer_id === o.id);
  const figureOf = (o: PatientOffer) => estimateOf(o)?.estimate.total.rest_cents ?? o.amount_cents;
  // Prices only while no compared offer is detailed line by line (nothing to estimate then).
  const estimated =
    comparison !== undefined &&
    offers.every((o) => estimateOf(o) !== undefined) &&
    offers.some((o) => estimateOf(o)?.structured);
  // An offer without lines has no real estimate: it is never the lowest reste à charge.
  const ranked = estimated ? offers.filter((o) => estimateOf(o)?.structured) : offers;
  const figure = (o: PatientOffer) => (estimated ? figureOf(o) : o.amount_cents);
  const lowest = Math.min(...ranked.map(figure));
  const isBest = (o: PatientOffer) => ranked.includes(o) && figure(o) === lowest;
  const original = comparison?.original ?? null;
  // The savings are on the reste à charge when both my devis and the offers are detailed.
  const restSavings = estimated && original !== null;
  const allOffers = request.offers ?? [];
  const othersToClose = (id: string) => allOffers.filter((o) => o.id !== id && o.state === "sent").length;
  const quote = request.quote_amount_cents;

  const rows: { label: ReactNode; cell: (offer: PatientOffer) => ReactNode; key: string }[] = [
    // The commune and, when both postal codes are known, the distance (ADR 019).
    {
      key: "city",
      label: "Ville",
      cell: (o) => placeLabel(o.dentist.city, o.dentist.distance_km) ?? <None />,
    },
    {
      key: "specialties",
      label: "Spécialités",
      cell: (o) => (o.dentist.specialties.length > 0 ? o.dentist.specialties.join(" · ") : <None />),
    },
    estimated
      ? {
          key: "rest",
          label: "Reste à charge estimé",
          cell: (o) => {
            const e = estimateOf(o);
            if (e && !e.structured)
              return (
                <div className="grid justify-items-start gap-1">
                  <span className="text-xl font-semibold text-slate-900">{formatEuros(o.amount_cents)}</span>
                  <span className="text-slate-600">{NOT_DETAILED}</span>
                </div>
              );
            return (
              <div className="grid justify-items-start gap-1">
                <RestFigure restCents={figureOf(o)} feeCents={o.amount_cents} size="md" hideLabel />
                <div className="flex flex-wrap gap-1.5">
                  {isBest(o) ? <Badge tone="green">Reste à charge le plus bas</Badge> : null}
                  {e?.estimate.all_sante ? <SanteBadge /> : null}
                </div>
              </div>
            );
          },
        }
      : {
          key: "amount",
          label: "Montant",
          cell: (o) => (
            <div className="grid justify-items-start gap-1">
              <span className="text-xl font-semibold text-slate-900">{formatEuros(o.amount_cents)}</span>
              {isBest(o) ? <Badge tone="green">Le moins cher</Badge> : null}
            </div>
          ),
        },
    {
      key: "saving",
      label: (
        <>
          Économie estimée
          {restSavings ? (
            <span className="block font-normal text-slate-600">
              sur le reste à charge de votre devis (
              <span className="tabular-nums">{formatEuros(original.total.rest_cents)}</span>)
            </span>
          ) : quote !== null && quote > 0 ? (
            <span className="block font-normal text-slate-600">
              par rapport à votre devis de <span className="tabular-nums">{formatEuros(quote)}</span>
            </span>
          ) : null}
        </>
      ),
      cell: (o) => {
        // Against the reste à charge of my devis when both are detailed, else against its price.
        const e = estimateOf(o);
        if (restSavings && e && !e.structured) return <None label="Non estimée" />;
        const saving = restSavings
          ? restSaving(e?.saving_cents ?? null, original?.total.rest_cents ?? null)
          : savingCell(quote, o.amount_cents);
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
        o.lines.length > 0 ? (
          <OfferLines lines={o.lines} hideLabel showBasket />
        ) : (
          <None label="Non détaillé" />
        ),
    },
    ...(estimated
      ? [
          {
            key: "calculation",
            label: "Calcul du reste à charge",
            cell: (o: PatientOffer) => {
              const e = estimateOf(o);
              return e?.structured ? (
                <EstimateDetails estimate={e.estimate} cover={comparison?.cover ?? null} />
              ) : (
                <None label="Non estimé" />
              );
            },
          },
        ]
      : []),
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
            onAccepted={() => navigate(`${requestPath}#${BOOKING_ANCHOR}`)}
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
        documentTitle={`Comparer : ${treatment}`}
        description={`${treatment} · ${offers.length} propositions côte à côte. L'ordre ne dépend que de votre choix.`}
      />
      {notice ? (
        <Alert className="mb-4" title="Sélection modifiée">
          {notice}
        </Alert>
      ) : null}
      {comparison && comparison.cover === null && (estimated || original) ? (
        <AmoOnlyNotice className="mb-3" />
      ) : null}
      {original ? (
        <p className="mb-3 text-slate-800">
          Votre devis : reste à charge estimé{" "}
          <span className="font-semibold tabular-nums">{formatEuros(original.total.rest_cents)}</span> pour un
          prix de <span className="tabular-nums">{formatEuros(original.total.fee_cents)}</span>.
        </p>
      ) : null}
      {narrow ? (
        <CompareCards
          offers={offers}
          rows={rows}
          isBest={isBest}
          caption={`Comparaison des propositions pour votre demande\u202f: ${treatment}`}
        />
      ) : (
        <>
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
                Comparaison des propositions pour votre demande : {treatment}
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
                        isBest(o) && "bg-green-50",
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
                          isBest(o) && "bg-green-50/60",
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
      )}
      {restSavings && comparison ? (
        <ToothAlignment rows={comparison.rows} offers={offers} />
      ) : comparison && !original && offers.some((o) => o.lines.length > 0) ? (
        <p className="mt-6 text-sm text-slate-700">
          Pour comparer les propositions dent par dent avec votre devis,{" "}
          <Link to={requestPath} className="font-medium text-brand-700 underline underline-offset-2">
            saisissez votre devis ligne par ligne
          </Link>{" "}
          sur la page de la demande.
        </p>
      ) : null}
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

const NARROW = "(max-width: 767px)";

/** Whether the screen is narrower than the table needs (below Tailwind's md). */
function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

/** The criteria read as short figures, aligned label | value in each card; the others full width. */
const FIGURE_ROWS = ["rest", "amount", "saving", "validity", "state", "received", "city", "specialties"];

/** The comparison on a phone: one card per offer, the same criteria in the same order in each. */
function CompareCards({
  offers,
  rows,
  isBest,
  caption,
}: {
  offers: PatientOffer[];
  rows: { label: ReactNode; cell: (offer: PatientOffer) => ReactNode; key: string }[];
  isBest: (offer: PatientOffer) => boolean;
  caption: string;
}) {
  const figures = FIGURE_ROWS.flatMap((key) => rows.filter((row) => row.key === key));
  const details = rows.filter((row) => !FIGURE_ROWS.includes(row.key) && row.key !== "decision");
  const decision = rows.find((row) => row.key === "decision");
  return (
    <ul className="grid gap-4" aria-label={caption}>
      {offers.map((o) => (
        <li
          key={o.id}
          aria-label={`Proposition du Dr ${o.dentist.full_name}`}
          className={cn(
            "grid min-w-0 gap-4 rounded-ui border bg-white p-4 text-sm shadow-sm tabular-nums",
            isBest(o) ? "border-green-600" : "border-slate-200",
          )}
        >
          <div className="flex items-start gap-3">
            <Avatar name={o.dentist.full_name} src={o.dentist.avatar_url} />
            <div className="grid min-w-0 justify-items-start gap-1">
              <h2 className="font-semibold text-slate-900 break-words">Dr {o.dentist.full_name}</h2>
              {o.dentist.is_verified ? <VerifiedBadge /> : null}
            </div>
          </div>
          <dl className="grid grid-cols-[minmax(0,8.5rem)_minmax(0,1fr)] gap-x-3 gap-y-3">
            {figures.map((row) => (
              <div key={row.key} className="contents">
                <dt className="font-semibold text-slate-700">{row.label}</dt>
                <dd className="min-w-0 break-words text-slate-900">{row.cell(o)}</dd>
              </div>
            ))}
          </dl>
          {decision ? <div className="border-t border-slate-200 pt-3">{decision.cell(o)}</div> : null}
          <dl className="grid gap-3 border-t border-slate-200 pt-3">
            {details.map((row) => (
              <div key={row.key} className="grid min-w-0 gap-1">
                <dt className="font-semibold text-slate-700">{row.label}</dt>
                <dd className="min-w-0 break-words text-slate-900">{row.cell(o)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
