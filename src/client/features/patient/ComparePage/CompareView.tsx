import { Columns3 } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatEuros } from "../../../../shared/format/money";
import type { Comparison } from "../../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { AmoOnlyNotice } from "../../../components/estimate/EstimateParts";
import { PageHeader } from "../../../components/PageHeader";
import { Alert } from "../../../components/ui/Alert";
import { Button } from "../../../components/ui/Button";
import { EmptyState } from "../../../components/ui/EmptyState";
import { rankByComparison } from "../offerList";
import { ToothAlignment } from "../ToothAlignment";
import { CompareCards, useNarrowScreen } from "./CompareCards";
import { CompareTable } from "./CompareTable";
import { chooseCompared } from "./chooseCompared";
import { compareRows } from "./compareRows";

/** The offers chosen, side by side: a table from a tablet up, cards on a phone. */
export function CompareView({
  request,
  comparison,
  param,
}: {
  request: RequestDetail;
  comparison: Comparison | undefined;
  param: string | null;
}) {
  const treatment = treatmentLabel(request.treatment_type);
  // Ordered as the comparison ranks them: by reste à charge, the partial offers last.
  const rests = rankByComparison(comparison);
  const { offers, notice } = chooseCompared(request.offers ?? [], param, rests, request.status);
  const navigate = useNavigate();
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
          description="Il faut au moins deux propositions pour les comparer. Un e-mail vous préviendra de chaque nouvelle proposition."
          action={
            <Button asChild>
              <Link to={requestPath}>Voir la demande</Link>
            </Button>
          }
        />
      </>
    );
  }

  const { rows, isBest, estimated, original, restSavings } = compareRows({
    request,
    comparison,
    offers,
    requestPath,
    navigate,
  });

  return (
    <>
      <PageHeader
        title="Comparer les propositions"
        documentTitle={`Comparer : ${treatment}`}
        description={`${treatment} · ${offers.length} propositions comparées. L'ordre ne dépend que de votre choix.`}
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
        <CompareTable offers={offers} rows={rows} isBest={isBest} treatment={treatment} />
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
