import { BadgeCheck } from "lucide-react";

const euros = new Intl.NumberFormat("fr-FR", {
  style: "currency",
  currency: "EUR",
  maximumFractionDigits: 0,
});

const EXAMPLE_QUOTE = 2400;
const EXAMPLE_OFFERS = [
  { dentist: "Cabinet A", city: "Lyon 3e", amount: 1560, delay: "Rendez-vous sous 10 jours" },
  { dentist: "Cabinet B", city: "Villeurbanne", amount: 1680, delay: "Rendez-vous sous 3 semaines" },
  { dentist: "Cabinet C", city: "Lyon 7e", amount: 1890, delay: "Rendez-vous sous 1 semaine" },
] as const;

/** The illustrative comparison of /how-it-works#exemple (made-up amounts, clearly labelled). */
export function ExampleComparison() {
  return (
    <section id="exemple" aria-labelledby="exemple-title" className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="exemple-title">Exemple de comparaison</h2>
        <span className="rounded-full bg-amber-50 px-3 py-1 text-sm font-semibold text-amber-900 ring-1 ring-amber-300">
          Exemple illustratif
        </span>
      </div>
      <p>
        Montants fictifs, pour montrer comment les propositions vous sont présentées. Devis initial : trois
        couronnes céramo-métalliques,{" "}
        <span className="tabular font-semibold">{euros.format(EXAMPLE_QUOTE)}</span>.
      </p>
      {/* Wider than a phone, the table scrolls sideways: the keyboard must reach it (axe's
          "scrollable-region-focusable"), named by its caption. */}
      <section
        aria-labelledby="exemple-caption"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that may scroll sideways; the keyboard must reach it.
        tabIndex={0}
        className="overflow-x-auto rounded-ui border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <table className="w-full min-w-[32rem] text-left text-sm">
          <caption id="exemple-caption" className="sr-only">
            Exemple illustratif : trois propositions pour un devis de 2 400 €
          </caption>
          <thead className="bg-slate-50 text-slate-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Dentiste vérifié
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Proposition
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Économie
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Disponibilité
              </th>
            </tr>
          </thead>
          <tbody>
            {EXAMPLE_OFFERS.map((offer, index) => {
              const saving = EXAMPLE_QUOTE - offer.amount;
              return (
                <tr key={offer.dentist} className={index === 0 ? "bg-brand-50" : "border-t border-slate-200"}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    <span className="inline-flex items-center gap-1.5">
                      <BadgeCheck className="size-4 text-brand-700" aria-hidden="true" />
                      {offer.dentist}, {offer.city}
                    </span>
                    {index === 0 ? (
                      <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
                        Meilleure offre
                      </span>
                    ) : null}
                  </th>
                  <td className="px-4 py-3 tabular text-slate-900">{euros.format(offer.amount)}</td>
                  <td className="px-4 py-3 tabular text-slate-900">
                    {euros.format(saving)} ({Math.round((saving / EXAMPLE_QUOTE) * 100)} %)
                  </td>
                  <td className="px-4 py-3 text-slate-700">{offer.delay}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <p className="text-sm text-slate-600">
        Dans votre espace, chaque offre indique aussi les actes prévus, la validité de la proposition et les
        créneaux de rendez-vous proposés.
      </p>
    </section>
  );
}
