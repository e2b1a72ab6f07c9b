import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatDetailDateTime } from "../../../../shared/format/dates";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { JourneyCard } from "../../../components/journey/JourneyCard";
import { PageHeader } from "../../../components/PageHeader";
import { NeedHelpLink } from "../../../components/support/NeedHelpLink";
import { UnacceptButton } from "../AcceptOfferDialog";
import { useComparison } from "../api";
import { ConsentCard } from "../ConsentCard";
import { MyQuoteSection } from "../MyQuoteSection";
import { OffersCard } from "../OffersCard";
import { ReviewInvitations } from "../ReviewInvitations";
import { AccessLogCard } from "./AccessLogCard";
import { BookingCard } from "./BookingCard";
import { DocumentsCard } from "./DocumentsCard";
import { ManageRequest } from "./ManageRequest";
import { RecipientUnavailable } from "./OpenToAll";
import { RepliesCard } from "./RepliesCard";
import { RequestInfoCard } from "./RequestInfoCard";

/** The patient's request: its journey, booking, offers, details, documents, replies and access record. */
export function RequestView({ request }: { request: RequestDetail }) {
  const treatment = treatmentLabel(request.treatment_type);
  // The estimates of issue 15; the page works without them (price only) if they cannot be loaded.
  const comparison = useComparison(
    request.id,
    [...request.offers.map((o) => `${o.id}:${o.state}:${o.amount_cents}`), request.quote_amount_cents].join(),
  );
  // Issue 16: the accepted offer's booking sits right under the journey, not below the offers.
  const accepted = request.offers.find((o) => o.state === "accepted");
  const mayUnaccept = request.journey.state === "accepted" || request.journey.state === "appointment_pending";

  return (
    <>
      <PageHeader
        title={treatment}
        documentTitle={`Demande : ${treatment}`}
        actions={<NeedHelpLink area="patient" request={request} />}
        description={<span>Créée le {formatDetailDateTime(request.created_at)}</span>}
      />

      <JourneyCard journey={request.journey}>
        {accepted && mayUnaccept ? (
          <UnacceptButton
            requestId={request.id}
            offer={accepted}
            appointmentPending={request.journey.state === "appointment_pending"}
          />
        ) : null}
      </JourneyCard>

      {request.journey.state === "done" ? <ReviewInvitations requestId={request.id} /> : null}

      {accepted && request.journey.state !== "cancelled" ? (
        <BookingCard requestId={request.id} accepted={accepted} finished={request.journey.state === "done"} />
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <RecipientUnavailable request={request} />
        <OffersCard request={request} comparison={comparison.data} />
        <RequestInfoCard request={request} />
        <DocumentsCard request={request} />
        <MyQuoteSection
          request={request}
          comparison={comparison.data}
          comparisonPending={comparison.isPending}
        />
        <RepliesCard replies={request.replies} />
        <ConsentCard request={request} />
        <AccessLogCard request={request} />
        <ManageRequest request={request} />
      </div>
    </>
  );
}
