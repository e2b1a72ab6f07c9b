import { CheckCircle2, UserPlus } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { ofName } from "../../../../shared/format/names";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../../shared/schemas/dentist";
import { PageHeader } from "../../../components/PageHeader";
import { NeedHelpLink } from "../../../components/support/NeedHelpLink";
import { Button } from "../../../components/ui/Button";
import { isApiError } from "../../../lib/api";
import { useAssignRequest } from "../api";
import { DentistRequestLoader } from "../DentistRequestLoader";
import { useMyOffer } from "../offersApi";
import { PatientQuoteCard } from "../PatientQuoteCard";
import { RequestStatusBadge } from "../requestStatus";
import { SetAsideButton } from "../SetAsideButton";
import { ReplyForm } from "./ReplyForm";
import { ConversationCard, DocumentsCard, PatientCard, TreatmentCard } from "./SubmissionCards";

export { REPLY_REDIRECT_MS } from "./ReplyForm";

/** /dentist/patient-submission/:id: a patient's request, its documents, assignment and reply. */
export function DentistPatientSubmissionPage() {
  const { id = "" } = useParams();
  return (
    <DentistRequestLoader
      id={id}
      title="Demande d'un patient"
      skeleton={["h-48 lg:col-span-2", "h-48", "h-64 lg:col-span-2"]}
    >
      {(request) => <SubmissionView request={request} />}
    </DentistRequestLoader>
  );
}

function SubmissionView({ request }: { request: DentistRequestDetail }) {
  const assign = useAssignRequest(request.id);
  const hasOffer = Boolean(useMyOffer(request.id).data?.offer);
  const offerLink = useRef<HTMLAnchorElement>(null);
  const assigning = useRef(false);

  // « S'assigner cette demande » gives way to « Vous suivez cette demande »: the focus goes on to
  // what comes next, « Proposer un devis », not to the page's body.
  useEffect(() => {
    if (!request.assigned || !assigning.current) return;
    assigning.current = false;
    offerLink.current?.focus();
  }, [request.assigned]);

  const onAssign = () => {
    assigning.current = true;
    assign.mutate(undefined, {
      onSuccess: () => toast.success(DENTIST_MESSAGES.assigned),
      onError: (error) => {
        assigning.current = false;
        toast.error(DENTIST_MESSAGES.assignFailed, {
          description: isApiError(error) ? error.message : undefined,
        });
      },
    });
  };

  return (
    <>
      <PageHeader
        title={`Demande ${ofName(request.patient_name)}`}
        documentTitle={`Demande ${ofName(request.patient_name)}`}
        description={
          <span className="flex flex-wrap items-center gap-3">
            <RequestStatusBadge request={request} />
            <span>{treatmentLabel(request.treatment_type)}</span>
          </span>
        }
        actions={
          <>
            <NeedHelpLink area="dentist" request={request} />
            <SetAsideButton request={request} />
            {request.assigned ? (
              <p className="flex items-center gap-2 font-medium text-green-800">
                <CheckCircle2 className="size-5" aria-hidden="true" />
                Vous suivez cette demande
              </p>
            ) : (
              <Button variant="outline" onClick={onAssign} loading={assign.isPending}>
                <UserPlus aria-hidden="true" />
                S'assigner cette demande
              </Button>
            )}
            <Button asChild>
              <Link ref={offerLink} to={`/dentist/quote-request/${request.id}`}>
                {hasOffer ? "Voir ma proposition" : "Proposer un devis"}
              </Link>
            </Button>
          </>
        }
      />

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <PatientCard request={request} />
        <TreatmentCard request={request} />
        <PatientQuoteCard lines={request.quote_lines} className="lg:col-span-3" />
        <DocumentsCard request={request} />
        <ReplyForm request={request} />
        <ConversationCard conversationId={request.conversation_id} />
      </div>
    </>
  );
}
