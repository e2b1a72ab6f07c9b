import { FileText } from "lucide-react";
import { type ReactNode, useId } from "react";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { EstimateDetails } from "../../components/estimate/EstimateDetails";
import { AmoOnlyNotice, RestFigure, SanteBadge } from "../../components/estimate/EstimateParts";
import { OfferLines } from "../../components/OfferDetails";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Skeleton } from "../../components/ui/Skeleton";

/**
 * 'Mon devis' (issue 15): the patient's original quote line by line with its reste à charge estimated
 * for their mutuelle (the comparison's `original`), the reference every offer's saving is measured
 * against. `actions` holds the way to enter or change the lines, when the request is still open.
 */
export function MyQuoteCard({
  request,
  comparison,
  comparisonPending,
  actions,
  children,
}: {
  request: RequestDetail;
  comparison: Comparison | undefined;
  comparisonPending: boolean;
  actions?: ReactNode;
  /** The line editor, when it is open (replaces the lines shown). */
  children?: ReactNode;
}) {
  const titleId = useId();
  const lines = request.quote_lines;
  const original = comparison?.original ?? null;
  return (
    <Card className="lg:col-span-2" role="region" aria-labelledby={titleId}>
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle id={titleId}>Mon devis</CardTitle>
          <CardDescription>
            Le devis de votre dentiste, acte par acte : il sert à estimer votre reste à charge et l'économie
            de chaque proposition.
          </CardDescription>
        </div>
        {actions ? <div className="mt-3 flex shrink-0 gap-2 sm:mt-0">{actions}</div> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {children ??
          (lines.length === 0 ? (
            <p className="flex items-start gap-3 text-slate-700">
              <FileText className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
              <span>
                Votre devis n'est pas détaillé. Saisissez-le ligne par ligne pour comparer votre reste à
                charge avec chaque proposition, dent par dent.
              </span>
            </p>
          ) : (
            <>
              {original ? (
                <div className="flex flex-wrap items-end justify-between gap-3">
                  <RestFigure restCents={original.total.rest_cents} feeCents={original.total.fee_cents} />
                  {original.all_sante ? <SanteBadge /> : null}
                </div>
              ) : comparisonPending ? (
                <Skeleton className="h-14 w-56" />
              ) : null}
              {comparison && comparison.cover === null ? <AmoOnlyNotice /> : null}
              <OfferLines lines={lines} label="Actes de votre devis" showBasket />
              {original ? <EstimateDetails estimate={original} cover={comparison?.cover ?? null} /> : null}
            </>
          ))}
      </CardContent>
    </Card>
  );
}
