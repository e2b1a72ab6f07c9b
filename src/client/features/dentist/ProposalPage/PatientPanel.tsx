import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatDetailDate } from "../../../../shared/format/dates";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../../shared/schemas/dentist";
import { Detail, DetailsCard } from "../../../components/request/RequestParts";
import { quoteAmountText, UrgencyBadge } from "../requestStatus";

/** 'Patient': who asks, when, for what, how urgently, and what they said. */
export function PatientPanel({ request, age }: { request: DentistRequestDetail; age: number | null }) {
  return (
    <DetailsCard title="Patient" className="lg:col-start-3 lg:row-start-1">
      <Detail label="Nom">{request.patient_name}</Detail>
      {age !== null ? <Detail label="Âge">{`${age} ans`}</Detail> : null}
      <Detail label="Date de la demande">{formatDetailDate(request.created_at)}</Detail>
      <Detail label="Traitement">{treatmentLabel(request.treatment_type)}</Detail>
      <Detail label="Urgence">
        <UrgencyBadge urgency={request.urgency} />
      </Detail>
      <Detail label="Montant du devis">{quoteAmountText(request.quote_amount_cents)}</Detail>
      <Detail label="Budget">{request.budget.trim() || DENTIST_MESSAGES.defaultBudget}</Detail>
      {request.description ? (
        <Detail label="Description">
          <span className="whitespace-pre-line">{request.description}</span>
        </Detail>
      ) : null}
    </DetailsCard>
  );
}
