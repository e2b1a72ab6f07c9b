import { URGENCY_LABELS, urgencyOf } from "../../../../shared/domain/requests";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatEuros } from "../../../../shared/format/money";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { Detail, DetailsCard } from "../../../components/request/RequestParts";
import { mayOpenToAll, OpenToAllButton } from "./OpenToAll";

/** The budget is shown with the euro sign; the patient's own text is kept as typed. */
export function withEuroSign(budget: string): string {
  return /\d/.test(budget) && !/€|euro/i.test(budget) ? `${budget} €` : budget;
}

/** 'Informations de la demande': treatment, urgency, budget, devis amount, recipient, description. */
export function RequestInfoCard({ request }: { request: RequestDetail }) {
  return (
    <DetailsCard
      title="Informations de la demande"
      className="lg:col-span-2"
      listClassName="grid gap-4 sm:grid-cols-2"
    >
      <Detail label="Traitement">{treatmentLabel(request.treatment_type)}</Detail>
      <Detail label="Urgence">{URGENCY_LABELS[urgencyOf(request.urgency)]}</Detail>
      {request.budget ? <Detail label="Budget">{withEuroSign(request.budget)}</Detail> : null}
      {request.quote_amount_cents !== null ? (
        <Detail label="Montant de votre devis actuel">
          <span className="tabular-nums">{formatEuros(request.quote_amount_cents)}</span>
        </Detail>
      ) : null}
      <Detail label="Destinataire">
        {request.recipient
          ? [request.recipient.full_name, request.recipient.city].filter(Boolean).join(" — ")
          : "Tous les dentistes vérifiés"}
        {request.recipient?.taking_requests && mayOpenToAll(request) ? (
          <span className="mt-2 block">
            <OpenToAllButton request={request} label="Envoyer aussi à tous les dentistes vérifiés" />
          </span>
        ) : null}
      </Detail>
      {request.description ? (
        <Detail label="Description" wide multiline>
          {request.description}
        </Detail>
      ) : null}
    </DetailsCard>
  );
}
