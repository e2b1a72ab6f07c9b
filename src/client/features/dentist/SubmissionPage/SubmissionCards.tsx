import { placeLabel } from "../../../../shared/domain/geo";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatDetailDate } from "../../../../shared/format/dates";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../../shared/schemas/dentist";
import { useDocumentDownload } from "../../../components/request/RequestDocuments";
import { Detail, DetailsCard } from "../../../components/request/RequestParts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { ConversationButton } from "../ConversationButton";
import { DocumentGrid } from "../DocumentGrid";
import { quoteAmountText, UrgencyBadge } from "../requestStatus";

/** The cards of a patient's submission, as the dentist reads it. */

/** 'Patient': name, commune and distance, date, urgency. */
export function PatientCard({ request }: { request: DentistRequestDetail }) {
  const place = placeLabel(request.patient_city, request.distance_km);
  return (
    <DetailsCard title="Patient">
      <Detail label="Nom">{request.patient_name}</Detail>
      {place ? <Detail label="Commune">{place}</Detail> : null}
      <Detail label="Date de la demande">{formatDetailDate(request.created_at)}</Detail>
      <Detail label="Urgence">
        <UrgencyBadge urgency={request.urgency} />
      </Detail>
    </DetailsCard>
  );
}

/** 'Traitement': type, the patient's devis amount, budget and description. */
export function TreatmentCard({ request }: { request: DentistRequestDetail }) {
  return (
    <DetailsCard title="Traitement" className="lg:col-span-2" listClassName="grid gap-4 sm:grid-cols-2">
      <Detail label="Type de traitement">{treatmentLabel(request.treatment_type)}</Detail>
      <Detail label="Montant du devis">{quoteAmountText(request.quote_amount_cents)}</Detail>
      <Detail label="Budget">{request.budget.trim() || DENTIST_MESSAGES.defaultBudget}</Detail>
      {request.description ? (
        <Detail label="Description" wide>
          <span className="whitespace-pre-line">{request.description}</span>
        </Detail>
      ) : null}
    </DetailsCard>
  );
}

/** 'Documents': every file of the request, viewable and downloadable (each access is recorded). */
export function DocumentsCard({ request }: { request: DentistRequestDetail }) {
  const { downloading, download } = useDocumentDownload({
    success: "Téléchargement du document terminé",
    failure: "Impossible de télécharger le document",
  });
  return (
    <Card className="lg:col-span-3">
      <CardHeader>
        <CardTitle>Documents</CardTitle>
        <CardDescription>
          Chaque consultation ou téléchargement est enregistré pour le patient.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {request.documents.length === 0 ? (
          <p className="text-slate-600">Aucun document disponible</p>
        ) : (
          <DocumentGrid
            documents={request.documents}
            downloading={downloading}
            onDownload={(id, name) => void download(id, name)}
            className="lg:grid-cols-3"
          />
        )}
      </CardContent>
    </Card>
  );
}

/** 'Conversation': the way to it once the dentist has replied. */
export function ConversationCard({ conversationId }: { conversationId: string | null }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Conversation</CardTitle>
      </CardHeader>
      <CardContent>
        {conversationId ? (
          <ConversationButton conversationId={conversationId} />
        ) : (
          <p className="text-slate-600">La conversation avec le patient commencera avec votre réponse.</p>
        )}
      </CardContent>
    </Card>
  );
}
