import { CopyPlus, TriangleAlert } from "lucide-react";
import { formatEuros } from "../../../shared/format/money";
import { linesTotal } from "../../../shared/policies/offers";
import { QUOTE_MESSAGES, type QuoteLineDto } from "../../../shared/schemas/quotes";
import { BasketBadge } from "../../components/quote/BasketBadge";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";

/**
 * The patient's original devis, line by line (issue 15): tooth, code, act, basket, fee, BR, and the
 * fees above the ceiling of a 100 % Santé or maîtrisé act. With `onReuse`, a button fills the offer's
 * lines from it ("Reprendre les actes du devis"), so the dentist only changes fees and materials.
 */
export function PatientQuoteCard({
  lines,
  onReuse,
  className,
}: {
  lines: readonly QuoteLineDto[];
  onReuse?: () => void;
  className?: string;
}) {
  if (lines.length === 0) return null;
  return (
    <Card className={className}>
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle>Devis du patient</CardTitle>
          <CardDescription>
            Le devis que le patient a reçu, acte par acte, tel qu'il l'a saisi. Plafonds et bases de
            remboursement de la nomenclature en vigueur.
          </CardDescription>
        </div>
        {onReuse ? (
          <div className="mt-3 sm:mt-0">
            <Button variant="secondary" size="sm" onClick={onReuse}>
              <CopyPlus aria-hidden="true" />
              Reprendre les actes du devis
            </Button>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul
          aria-label="Actes du devis du patient"
          className="grid divide-y divide-slate-200 rounded-ui border border-slate-200"
        >
          {lines.map((line, index) => {
            const above = line.ceiling_cents !== null && line.fee_cents > line.ceiling_cents;
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a stored devis never move.
                key={index}
                className="grid gap-1 px-3 py-2.5"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <span className="min-w-0 text-slate-900">
                    <span className="font-medium">
                      {line.tooth !== null ? `Dent ${line.tooth}` : "Sans dent"}
                    </span>
                    {" · "}
                    {line.code ? <span className="font-mono text-slate-600">{line.code} </span> : null}
                    {line.act}
                  </span>
                  <span className="font-semibold text-slate-900 tabular-nums">
                    {formatEuros(line.fee_cents)}
                  </span>
                </div>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
                  <BasketBadge basket={line.basket} />
                  <span className="tabular-nums">
                    BR {line.br_cents > 0 ? formatEuros(line.br_cents) : "non renseignée"}
                  </span>
                  {above && line.ceiling_cents !== null ? (
                    <span className="inline-flex items-center gap-1 font-medium text-amber-900">
                      <TriangleAlert className="size-4" aria-hidden="true" />
                      {QUOTE_MESSAGES.aboveCeilingNotice(line.basket, line.ceiling_cents)}
                    </span>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        <p className="text-right text-slate-900">
          Total du devis :{" "}
          <span className="font-semibold tabular-nums">{formatEuros(linesTotal(lines))}</span>
        </p>
      </CardContent>
    </Card>
  );
}
