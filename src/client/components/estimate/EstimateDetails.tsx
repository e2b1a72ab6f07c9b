import { type ReactNode, useId } from "react";
import { SOURCES, tariffOn } from "../../../shared/domain/acts";
import { AMO_RATE } from "../../../shared/domain/out-of-pocket";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import {
  type Cover,
  type EstimatedLine,
  QUOTE_MESSAGES,
  type QuoteEstimateDto,
} from "../../../shared/schemas/quotes";
import { cn } from "../../lib/cn";
import { BasketBadge } from "../quote/BasketBadge";
import { Badge } from "../ui/Badge";

/*
 * 'Comment est-ce calculé ?' (issue 15): a native <details> with, for each line, the fee, the
 * reimbursement base, the Assurance Maladie's and the mutuelle's parts and what is left to pay, then
 * the rules of src/shared/domain/out-of-pocket.ts in plain French for this patient's cover. Each line
 * is a short list of label and amount (not a six-column table): it fits a phone and a comparison column.
 * Issue 33: the tariffs used (the period in force on the estimate's day) and their sources.
 */

const AMO_PERCENT = Math.round(AMO_RATE * 100);

/** "Dent 36", or nothing for a line without a tooth. */
const toothText = (tooth: number | null) => (tooth === null ? null : `dent ${tooth}`);

function Amounts({ rows, className }: { rows: [ReactNode, number, boolean?][]; className?: string }) {
  return (
    <dl className={cn("grid gap-1 text-sm tabular-nums", className)}>
      {rows.map(([label, cents, strong], index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of rows.
          key={index}
          className={cn(
            "flex justify-between gap-3",
            strong && "border-t border-slate-200 pt-1 font-semibold",
          )}
        >
          <dt className={strong ? "text-slate-900" : "text-slate-600"}>{label}</dt>
          <dd className="text-right text-slate-900">{formatEuros(cents)}</dd>
        </div>
      ))}
    </dl>
  );
}

function LineDetail({ line, withMutuelle }: { line: EstimatedLine; withMutuelle: boolean }) {
  const tooth = toothText(line.tooth);
  return (
    <li className="grid gap-2 py-3 first:pt-0 last:pb-0">
      <div className="grid gap-1">
        <p className="text-sm font-medium text-slate-900">
          {line.code ? <span className="text-slate-600">{line.code} · </span> : null}
          {line.act}
          {tooth ? <span className="font-normal text-slate-600"> · {tooth}</span> : null}
        </p>
        <div className="flex flex-wrap items-center gap-1.5">
          <BasketBadge basket={line.basket} />
          {line.above_ceiling && line.ceiling_cents !== null ? (
            <Badge tone="yellow">{QUOTE_MESSAGES.aboveCeilingNotice(line.basket, line.ceiling_cents)}</Badge>
          ) : null}
        </div>
        {line.ceiling_cents !== null ? (
          <p className="text-sm text-slate-600">
            Plafond des honoraires : <span className="tabular-nums">{formatEuros(line.ceiling_cents)}</span>
          </p>
        ) : null}
      </div>
      <Amounts
        rows={[
          ["Honoraires", line.fee_cents],
          ["Base de remboursement (BR)", line.br_cents],
          [`Assurance Maladie (${AMO_PERCENT} % de la BR)`, line.amo_cents],
          ...(withMutuelle ? [["Mutuelle", line.mutuelle_cents] as [string, number]] : []),
          ["Reste à charge", line.rest_cents, true],
        ]}
      />
    </li>
  );
}

/** "15 décembre 2025", "1er janvier 2026": a calendar day 'YYYY-MM-DD' in words. */
function dayInWords(day: string): string {
  return formatDetailDate(`${day}T12:00:00Z`).replace(/^1 /, "1er ");
}

/** Which tariffs (baskets, BR, ceilings) the lines carry: the period in force on `day`, its sources. */
export function EstimateTariffs({ day }: { day: string }) {
  const period = tariffOn(day);
  const sourcesId = useId();
  return (
    <div className="grid gap-1 text-sm text-slate-700">
      <p>
        Tarifs en vigueur le {dayInWords(day)} : {period.label}.
      </p>
      <p id={sourcesId}>Sources :</p>
      <ul aria-labelledby={sourcesId} className="grid list-disc gap-1 pl-5">
        {period.sources.map((id) => {
          const source = SOURCES[id];
          return (
            <li key={id} className="wrap-anywhere">
              {source.url ? (
                <a
                  href={source.url}
                  target="_blank"
                  rel="noreferrer"
                  className="rounded-sm font-medium text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                >
                  {source.title} <span className="sr-only">(nouvel onglet)</span>
                </a>
              ) : (
                source.title
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The rules behind the figures, in plain French, for this cover (null: Assurance Maladie only). */
export function EstimateRules({ cover }: { cover: Cover | null }) {
  return (
    <ul className="grid list-disc gap-1 pl-5 text-sm text-slate-700">
      <li>
        L'Assurance Maladie rembourse {AMO_PERCENT} % de la base de remboursement (BR) de chaque acte. Un acte
        hors nomenclature, comme un implant, n'a pas de BR : elle ne le rembourse pas.
      </li>
      {cover ? (
        <>
          <li>
            {cover.ro_included
              ? `Votre mutuelle complète le remboursement jusqu'à ${cover.percent_of_br} % de la BR, Assurance Maladie comprise (« RO inclus »).`
              : `Votre mutuelle verse ${cover.percent_of_br} % de la BR en plus de l'Assurance Maladie.`}{" "}
            Elle ne rembourse jamais plus que ce qui reste après l'Assurance Maladie.
          </li>
          {cover.responsible ? (
            <li>
              Avec un contrat responsable, un acte 100 % Santé ne vous coûte rien tant que ses honoraires
              restent sous son plafond : seul un dépassement resterait à votre charge.
            </li>
          ) : (
            <li>
              Votre contrat n'est pas responsable : les actes 100 % Santé suivent le pourcentage ci-dessus.
            </li>
          )}
          <li>
            {cover.implant_allowance_cents !== null
              ? `Les implants sont payés par votre forfait implant de ${formatEuros(cover.implant_allowance_cents)} par an. Un autre acte sans BR n'est pas remboursé par la mutuelle.`
              : "Sans forfait implant renseigné, les implants et les autres actes sans BR restent à votre charge."}
          </li>
          {cover.annual_ceiling_cents !== null ? (
            <li>
              Le plafond annuel de votre mutuelle ({formatEuros(cover.annual_ceiling_cents)}) s'applique aux
              autres actes, dans l'ordre du devis.
            </li>
          ) : null}
        </>
      ) : (
        <li>Sans mutuelle renseignée, la part de la mutuelle n'est pas comptée.</li>
      )}
      <li>
        C'est une estimation : ce que votre mutuelle a déjà remboursé cette année n'est pas connu ici. Seule
        votre mutuelle peut confirmer son remboursement.
      </li>
    </ul>
  );
}

/**
 * 'Comment est-ce calculé ?': the estimate line by line and in total, then the rules. Closed by
 * default; `summary` replaces the default title where several are shown side by side.
 */
export function EstimateDetails({
  estimate,
  cover,
  summary = "Comment est-ce calculé ?",
  className,
}: {
  estimate: QuoteEstimateDto;
  cover: Cover | null;
  summary?: string;
  className?: string;
}) {
  const withMutuelle = cover !== null;
  const t = estimate.total;
  return (
    <details className={cn("group rounded-ui border border-slate-200 bg-white", className)}>
      <summary className="cursor-pointer rounded-ui px-3 py-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700">
        {summary}
      </summary>
      <div className="grid gap-4 border-t border-slate-200 p-3">
        <ul className="grid divide-y divide-slate-200" aria-label="Calcul acte par acte">
          {estimate.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never move.
            <LineDetail key={index} line={line} withMutuelle={withMutuelle} />
          ))}
        </ul>
        {estimate.lines.length > 1 ? (
          <div className="grid gap-1 rounded-ui bg-slate-50 p-2">
            <p className="text-sm font-semibold text-slate-900">Total</p>
            <Amounts
              rows={[
                ["Honoraires", t.fee_cents],
                ["Assurance Maladie", t.amo_cents],
                ...(withMutuelle ? [["Mutuelle", t.mutuelle_cents] as [string, number]] : []),
                ["Reste à charge", t.rest_cents, true],
              ]}
            />
          </div>
        ) : null}
        <EstimateRules cover={cover} />
        {estimate.tariff_day ? <EstimateTariffs day={estimate.tariff_day} /> : null}
      </div>
    </details>
  );
}
