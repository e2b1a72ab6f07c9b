import type { DentistRequestDetail } from "../../../../shared/schemas/dentist";
import { type MyOffer, OFFER_MESSAGES, type OfferDto } from "../../../../shared/schemas/offers";
import { Alert } from "../../../components/ui/Alert";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import type { ReuseRequest } from "../OfferLinesField";
import { ProposalForm } from "./ProposalForm";
import { SentOffer } from "./SentOffer";

/**
 * This dentist's offer: the form before sending; the sent offer, read-only (withdrawable while
 * sent or expired); after a withdrawal, the withdrawn offer and the form again when the request
 * is still open (the server says so with `may_offer`).
 */
export function OfferSection({
  request,
  mine,
  justSent,
  reuse,
  conversationId,
  onSent,
}: {
  request: DentistRequestDetail;
  mine: MyOffer;
  justSent: boolean;
  reuse: ReuseRequest | null;
  conversationId: string | null;
  onSent: (conversationId: string) => void;
}) {
  const { offer, may_offer: mayOffer } = mine;
  const mayResend = mayOffer && offer?.state === "withdrawn";
  const form = (again: { title?: string; from?: OfferDto } = {}) => (
    <ProposalForm
      requestId={request.id}
      onSent={onSent}
      reuse={reuse}
      lastFees={mine.last_fees}
      devis={request.quote_lines}
      {...again}
    />
  );
  if (offer) {
    return (
      <>
        <SentOffer
          offer={offer}
          patientName={request.patient_name}
          justSent={justSent}
          conversationId={conversationId}
          mayResend={mayResend}
        />
        {mayResend ? form({ title: "Nouvelle proposition", from: offer }) : null}
      </>
    );
  }
  if (!mayOffer) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Votre proposition</CardTitle>
        </CardHeader>
        <CardContent>
          <Alert title={OFFER_MESSAGES.closed}>
            Le patient a déjà choisi un dentiste ou a retiré sa demande.
          </Alert>
        </CardContent>
      </Card>
    );
  }
  return form();
}
