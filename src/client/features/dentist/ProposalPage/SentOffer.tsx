import { Undo2 } from "lucide-react";
import { useState } from "react";
import { formatDetailDate } from "../../../../shared/format/dates";
import { formatEuros } from "../../../../shared/format/money";
import { mayWithdrawOffer } from "../../../../shared/policies/appointments";
import { APPOINTMENT_MESSAGES } from "../../../../shared/schemas/appointments";
import { OFFER_MESSAGES, type OfferDto } from "../../../../shared/schemas/offers";
import { OfferLines, OfferSlots, OfferStateBadge, validityText } from "../../../components/OfferDetails";
import { Detail } from "../../../components/request/RequestParts";
import { Alert } from "../../../components/ui/Alert";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { ConversationButton } from "../ConversationButton";
import { WithdrawOfferDialog } from "../WithdrawOfferDialog";

/**
 * The sent offer, read-only: amount, validity, comment, acts and slots, 'Retirer ma proposition'
 * while it is sent or expired, and the way to the conversation.
 */
export function SentOffer({
  offer,
  patientName,
  justSent,
  conversationId,
  mayResend,
}: {
  offer: OfferDto;
  patientName: string;
  justSent: boolean;
  conversationId: string | null;
  mayResend: boolean;
}) {
  const [withdrawing, setWithdrawing] = useState(false);
  const withdrawn = offer.state === "withdrawn";
  return (
    <Card>
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle>{withdrawn ? "Votre proposition retirée" : "Votre proposition"}</CardTitle>
            <OfferStateBadge state={offer.state} />
          </div>
          <CardDescription>Envoyée le {formatDetailDate(offer.created_at)}</CardDescription>
        </div>
        {mayWithdrawOffer(offer.state) ? (
          <div className="mt-3 sm:mt-0">
            <Button variant="outline" size="sm" onClick={() => setWithdrawing(true)}>
              <Undo2 aria-hidden="true" />
              Retirer ma proposition
            </Button>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-5">
        {justSent && offer.state === "sent" ? (
          <Alert variant="success" title={OFFER_MESSAGES.sent}>
            Le patient la retrouve avec sa demande et peut vous écrire dans vos messages.
          </Alert>
        ) : null}
        {withdrawn ? (
          <Alert title="Vous avez retiré cette proposition : le patient ne la voit plus.">
            {mayResend ? "Vous pouvez envoyer une nouvelle proposition ci-dessous." : null}
          </Alert>
        ) : null}
        <dl className="grid gap-4 sm:grid-cols-2">
          <Detail label="Montant proposé">
            <span className="text-xl font-semibold tabular-nums">{formatEuros(offer.amount_cents)}</span>
          </Detail>
          <Detail label="Validité">
            {offer.valid_until ? validityText(offer.valid_until) : "Sans date limite"}
          </Detail>
          {offer.comment ? (
            <Detail label="Commentaire" wide multiline>
              {offer.comment}
            </Detail>
          ) : null}
        </dl>
        <OfferLines lines={offer.lines} showBasket />
        <OfferSlots
          slots={offer.slots}
          taken={offer.taken_slots}
          takenHint={APPOINTMENT_MESSAGES.takenHintOwn}
        />
        {conversationId ? (
          <div>
            <ConversationButton conversationId={conversationId} />
          </div>
        ) : null}
      </CardContent>
      <WithdrawOfferDialog
        offer={
          withdrawing
            ? {
                id: offer.id,
                request_id: offer.request_id,
                amount_cents: offer.amount_cents,
                patient_name: patientName,
                state: offer.state,
              }
            : null
        }
        onClose={() => setWithdrawing(false)}
      />
    </Card>
  );
}
