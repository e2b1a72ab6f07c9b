import type { UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { ofName } from "../../../../shared/format/names";
import { type DraftLine, fromLineDtos } from "../../../../shared/forms/quoteLines";
import type { DentistRequestDetail } from "../../../../shared/schemas/dentist";
import type { MyOffer } from "../../../../shared/schemas/offers";
import { VerificationPending } from "../../../components/dashboard/VerificationPending";
import { PageHeader } from "../../../components/PageHeader";
import { Button } from "../../../components/ui/Button";
import { LoadError } from "../../../components/ui/LoadError";
import { Loading } from "../../../components/ui/Loading";
import { Skeleton } from "../../../components/ui/Skeleton";
import { isApiError } from "../../../lib/api";
import { useSession } from "../../../lib/session";
import { DentistBackButton, DentistRequestLoader } from "../DentistRequestLoader";
import type { ReuseRequest } from "../OfferLinesField";
import { useMyOffer } from "../offersApi";
import { PatientQuoteCard } from "../PatientQuoteCard";
import { DocumentsCard } from "./DocumentsCard";
import { OfferSection } from "./OfferSection";
import { PatientPanel } from "./PatientPanel";

/*
 * /dentist/quote-request/:id: the request's documents by type, the patient, and this dentist's
 * offer (ADR 008) — the form before sending, then the sent offer, read-only.
 */

const TITLE = "Proposer un devis";
/** A line of the patient's devis taken into the offer: its act, tooth and fee, not the BR it stated (ADR 038). */
const offerDraft = (draft: DraftLine): DraftLine => ({ ...draft, br: "" });
const OFFER_LOAD_ERROR = "Impossible de charger votre proposition";

/** /dentist/quote-request/:id */
export function DentistQuoteRequestPage() {
  const { id = "" } = useParams();
  const { profile } = useSession();
  if (profile && !profile.is_verified) {
    return (
      <>
        <DentistBackButton />
        <PageHeader title={TITLE} />
        <VerificationPending />
      </>
    );
  }
  return <ProposalLoader id={id} />;
}

function ProposalLoader({ id }: { id: string }) {
  const mine = useMyOffer(id);
  return (
    <DentistRequestLoader
      id={id}
      title={TITLE}
      skeleton={["h-64 lg:col-span-2", "h-96", "h-[36rem] lg:col-span-2"]}
    >
      {(request) => <ProposalView request={request} mine={mine} />}
    </DentistRequestLoader>
  );
}

function ProposalView({ request, mine }: { request: DentistRequestDetail; mine: UseQueryResult<MyOffer> }) {
  const treatment = treatmentLabel(request.treatment_type);
  const [sent, setSent] = useState<{ conversationId: string } | null>(null);
  const [reuse, setReuse] = useState<ReuseRequest | null>(null);
  const conversationId = sent?.conversationId ?? request.conversation_id;
  // The form is shown: no offer yet, or a withdrawn one, on a request still open.
  const formShown =
    mine.data?.may_offer === true && (mine.data.offer === null || mine.data.offer.state === "withdrawn");
  // Sent (now, or before): the page shows his proposal, no longer a form to propose one.
  const title = sent !== null || (mine.data?.offer && !formShown) ? "Ma proposition" : TITLE;

  return (
    <>
      <PageHeader
        title={title}
        documentTitle={`Proposition : ${request.patient_name}`}
        description={`Demande ${ofName(request.patient_name)} · ${treatment}`}
        actions={
          <Button asChild variant="outline">
            <Link to={`/dentist/patient-submission/${request.id}`}>Voir la demande</Link>
          </Button>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <PatientPanel request={request} age={mine.data?.patient_age ?? null} />
        <div className="grid min-w-0 gap-6 lg:col-span-2 lg:row-start-1">
          <DocumentsCard request={request} />
          <PatientQuoteCard
            lines={request.quote_lines}
            onReuse={
              formShown
                ? () =>
                    setReuse({
                      key: (reuse?.key ?? 0) + 1,
                      lines: fromLineDtos(request.quote_lines).map(offerDraft),
                    })
                : undefined
            }
          />
          {mine.isPending ? (
            <Loading>
              <Skeleton className="h-[36rem]" />
            </Loading>
          ) : mine.isError ? (
            <LoadError
              title={OFFER_LOAD_ERROR}
              message={isApiError(mine.error) ? mine.error.message : undefined}
              onRetry={() => void mine.refetch()}
            />
          ) : (
            <OfferSection
              request={request}
              mine={mine.data}
              justSent={sent !== null}
              reuse={reuse}
              conversationId={conversationId}
              onSent={(conversation) => setSent({ conversationId: conversation })}
            />
          )}
        </div>
      </div>
    </>
  );
}
