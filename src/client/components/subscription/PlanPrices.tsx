import { VAT_RATE_PERCENT } from "../../../shared/domain/subscription";
import { formatEuros } from "../../../shared/format/money";
import type { PlanPriceDto } from "../../../shared/schemas/billing";
import { useConfig, usePlans } from "../../lib/config";

/** Why the dentists' amounts are read TTC: they cannot recover the TVA. */
export const VAT_NOT_RECOVERABLE =
  "La TVA n'étant pas récupérable pour les soins dentaires, les montants TTC sont ceux que vous payez.";

/** « 890,00 € HT + 178,00 € de TVA (20 %), soit 74,17 € HT par mois »: how a plan's TTC is made. */
export function planDetail(p: PlanPriceDto): string {
  const detail = `${formatEuros(p.ht_cents)} HT + ${formatEuros(p.vat_cents)} de TVA (${VAT_RATE_PERCENT} %)`;
  return p.monthly_ht_cents === p.ht_cents
    ? detail
    : `${detail}, soit ${formatEuros(p.monthly_ht_cents)} HT par mois`;
}

/**
 * The dentists' plans at the prices the server charges (GET /api/config), for the public pages (an
 * island: no router, JSON props). While they load: a line that says so (what the pre-rendered HTML
 * holds); when they cannot be read: where to ask. `compact`: one sentence, for the terms of use.
 */
export function PlanPrices({ compact = false }: { compact?: boolean }) {
  const plans = usePlans();
  const { contact_email } = useConfig();
  if (plans === null)
    return (
      <p className="text-slate-600" aria-busy="true">
        Chargement des tarifs…
      </p>
    );
  if (plans.length === 0)
    return (
      <p>
        Les tarifs n'ont pas pu être chargés. Rechargez la page, ou écrivez-nous à{" "}
        <a
          href={`mailto:${contact_email}`}
          className="font-medium text-brand-800 underline underline-offset-2"
        >
          {contact_email}
        </a>
        .
      </p>
    );
  if (compact)
    return (
      <p className="tabular-nums">
        Tarifs en vigueur :{" "}
        {plans
          .map(
            (p) => `${p.label} : ${formatEuros(p.ht_cents)} HT ${p.period} (${formatEuros(p.ttc_cents)} TTC)`,
          )
          .join("\u202f; ")}
        .
      </p>
    );
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {plans.map((p) => (
        <li key={p.id} className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm">
          <h3>{p.label}</h3>
          <p className="mt-2 tabular-nums">
            <span className="text-2xl font-semibold text-brand-800">{formatEuros(p.ttc_cents)} TTC</span>{" "}
            {p.period}
          </p>
          <p className="mt-1 text-sm text-slate-600 tabular-nums">{planDetail(p)}</p>
        </li>
      ))}
    </ul>
  );
}
