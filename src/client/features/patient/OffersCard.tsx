import { Columns3, HandCoins } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { Comparison } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { AmoOnlyNotice } from "../../components/estimate/EstimateParts";
import { LabelledSelect } from "../../components/OptionSelect";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { OfferItem } from "./OfferItem";
import {
  comparableOffers,
  compareUrl,
  liveFirst,
  MAX_COMPARED,
  type OfferOrder,
  rankByComparison,
  sortOffers,
} from "./offerList";

/*
 * Issue 15: the dentists' offers on the request page, in the order the patient chooses —
 * by estimated reste à charge by default (once the comparison is known), by price, or newest first.
 * Nothing is paid for: no dentist is placed higher for money.
 */

const ORDER_LABELS: Record<OfferOrder, string> = {
  rest: "Reste à charge estimé",
  price: "Prix croissant",
  recent: "Plus récentes",
  rating: "Note des patients",
};

export function OffersCard({
  request,
  comparison: loaded,
}: {
  request: RequestDetail;
  /** Undefined while it loads or when it could not be loaded: the offers show their price only. */
  comparison: Comparison | undefined;
}) {
  const offers = request.offers ?? [];
  // Estimates only mean something once an offer is detailed line by line: until then, prices only.
  const comparison = loaded?.offers.some((o) => o.structured) ? loaded : undefined;
  // No choice yet: by reste à charge once it is known, by price until then.
  const [chosenOrder, setOrder] = useState<OfferOrder | null>(null);
  const order = chosenOrder ?? (comparison ? "rest" : "price");
  const [checked, setChecked] = useState<string[]>([]);
  const sorted = liveFirst(sortOffers(offers, order, rankByComparison(comparison)), request.status);
  const comparable = comparableOffers(sorted);
  const canCompare = comparable.length >= 2;
  // In the order shown; an offer that stopped being comparable drops out of the selection.
  const chosen = comparable.filter((offer) => checked.includes(offer.id));
  const toggle = (id: string, on: boolean) =>
    setChecked((current) =>
      on ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id),
    );
  const openOthers = (id: string) => offers.filter((o) => o.id !== id && o.state === "sent").length;
  const orders = (Object.keys(ORDER_LABELS) as OfferOrder[]).filter((o) => o !== "rest" || comparison);

  return (
    <Card className="lg:col-span-2">
      <CardHeader className="sm:flex sm:items-end sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle>Propositions</CardTitle>
          <CardDescription>
            Les devis des dentistes pour cette demande : ceux que vous pouvez encore accepter d'abord, puis
            dans l'ordre de votre choix. Aucun dentiste ne paie pour être mieux placé.
          </CardDescription>
        </div>
        {offers.length > 1 ? (
          <LabelledSelect
            groupClassName="mt-3 sm:mt-0 sm:w-56 sm:shrink-0"
            label="Trier par"
            value={order}
            options={orders}
            labelOf={(value) => ORDER_LABELS[value]}
            onValueChange={setOrder}
          />
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {offers.length === 0 ? (
          <p className="flex items-center gap-3 text-slate-600">
            <HandCoins className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            Aucune proposition pour le moment.
          </p>
        ) : (
          <>
            {comparison && comparison.cover === null ? <AmoOnlyNotice /> : null}
            {canCompare ? (
              <CompareBar requestId={request.id} chosen={chosen} comparable={comparable} />
            ) : null}
            <ul className="grid gap-4" aria-label="Propositions reçues">
              {sorted.map((offer) => (
                <OfferItem
                  key={offer.id}
                  offer={offer}
                  request={request}
                  comparison={comparison}
                  othersToClose={openOthers(offer.id)}
                  compare={
                    canCompare && offer.state !== "withdrawn"
                      ? { checked: checked.includes(offer.id), onChange: (on) => toggle(offer.id, on) }
                      : null
                  }
                />
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** 'Comparer (n)' for 2 to 4 checked offers, and 'Comparer toutes les propositions' when they fit. */
function CompareBar({
  requestId,
  chosen,
  comparable,
}: {
  requestId: string;
  chosen: PatientOffer[];
  comparable: PatientOffer[];
}) {
  const count = chosen.length;
  const ready = count >= 2 && count <= MAX_COMPARED;
  const hintId = useId();
  const hint =
    count > MAX_COMPARED
      ? "Comparez quatre propositions au maximum."
      : count < 2
        ? "Cochez de deux à quatre propositions pour les comparer côte à côte."
        : `${count} propositions sélectionnées.`;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-ui border border-slate-200 bg-slate-50 p-3">
      <Button asChild variant={ready ? "primary" : "outline"} size="sm">
        <Link
          to={compareUrl(
            requestId,
            chosen.map((o) => o.id),
          )}
          aria-disabled={ready ? undefined : true}
          aria-describedby={hintId}
          onClick={(event) => {
            if (!ready) event.preventDefault();
          }}
        >
          <Columns3 aria-hidden="true" />
          Comparer ({count})
        </Link>
      </Button>
      <p
        id={hintId}
        aria-live="polite"
        className={count > MAX_COMPARED ? "text-sm font-medium text-red-700" : "text-sm text-slate-700"}
      >
        {hint}
      </p>
      {comparable.length <= MAX_COMPARED ? (
        <Link
          to={compareUrl(
            requestId,
            comparable.map((o) => o.id),
          )}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline sm:ml-auto"
        >
          Comparer toutes les propositions
        </Link>
      ) : null}
    </div>
  );
}
