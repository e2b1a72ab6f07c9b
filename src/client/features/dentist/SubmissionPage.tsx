import { CheckCircle2, MessagesSquare, Send, UserPlus } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { placeLabel } from "../../../shared/domain/geo";
import { URGENCY_LABELS, urgencyOf } from "../../../shared/domain/requests";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDate } from "../../../shared/format/dates";
import { mayReply, REPLY_REFUSED } from "../../../shared/policies/replies";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../shared/schemas/dentist";
import { PageHeader } from "../../components/PageHeader";
import { Detail } from "../../components/RequestParts";
import { NeedHelpLink } from "../../components/support/NeedHelpLink";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { downloadDocument } from "../../lib/download";
import { useDocumentTitle } from "../../lib/title";
import { useAssignRequest, useDentistRequest, useReplyToRequest } from "./api";
import { DocumentGrid } from "./DocumentGrid";
import { useMyOffer } from "./offersApi";
import { PatientQuoteCard } from "./PatientQuoteCard";
import { BackButton, DentistRequestNotFound, quoteAmountText, RequestStatusBadge } from "./RequestParts";

/** After a successful reply the dentist goes back to the dashboard after this long (spec §4). */
export const REPLY_REDIRECT_MS = 2000;

const LOAD_ERROR = "Impossible de charger la demande";
const URGENCY_TONES = { high: "red", medium: "gray", low: "gray" } as const;

function LoadingDetail() {
  useDocumentTitle("Demande d'un patient");
  return (
    <div aria-busy="true">
      <p className="sr-only">Chargement...</p>
      <h1 className="sr-only">Demande d'un patient</h1>
      <div className="mb-6 grid gap-3">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-48" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-48 lg:col-span-2" />
        <Skeleton className="h-48" />
        <Skeleton className="h-64 lg:col-span-2" />
      </div>
    </div>
  );
}

/** /dentist/patient-submission/:id: a patient's request, its documents, assignment and reply. */
export function DentistPatientSubmissionPage() {
  const { id = "" } = useParams();
  const query = useDentistRequest(id);
  const notFound = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !notFound) toast.error(LOAD_ERROR, { id: "dentist-request-error" });
  }, [query.isError, notFound]);

  return (
    <>
      <BackButton />
      {query.isPending ? (
        <LoadingDetail />
      ) : notFound ? (
        <DentistRequestNotFound />
      ) : query.isError ? (
        <>
          <PageHeader title="Demande d'un patient" />
          <LoadError
            title={LOAD_ERROR}
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        <SubmissionView request={query.data} />
      )}
    </>
  );
}

function Documents({ request }: { request: DentistRequestDetail }) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const onDownload = async (documentId: string, fileName: string) => {
    setDownloading(documentId);
    try {
      await downloadDocument(documentId, fileName);
      toast.success("Téléchargement du document terminé");
    } catch (error) {
      toast.error("Impossible de télécharger le document", {
        description: isApiError(error) ? error.message : undefined,
      });
    } finally {
      setDownloading(null);
    }
  };
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
            onDownload={(id, name) => void onDownload(id, name)}
            className="lg:grid-cols-3"
          />
        )}
      </CardContent>
    </Card>
  );
}

function ReplyForm({ request }: { request: DentistRequestDetail }) {
  const navigate = useNavigate();
  const reply = useReplyToRequest(request.id);
  const [text, setText] = useState("");
  const [redirecting, setRedirecting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fieldId = useId();
  const noteId = `${fieldId}-note`;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const allowed = mayReply(request.my_status) && !redirecting;
  const blocked = !mayReply(request.my_status) && !redirecting;
  const canSend = allowed && text.trim().length > 0 && !reply.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    reply.mutate(text.trim(), {
      onSuccess: () => {
        toast.success(DENTIST_MESSAGES.replySent);
        setText("");
        setRedirecting(true);
        timer.current = setTimeout(() => navigate("/dentist/dashboard"), REPLY_REDIRECT_MS);
      },
      onError: (error) => {
        toast.error(DENTIST_MESSAGES.replyFailed, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });
  };

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Répondre au patient</CardTitle>
        <CardDescription>
          Votre réponse ouvre une conversation avec le patient ; vous pourrez ensuite échanger dans vos
          messages.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3" onSubmit={onSubmit} aria-label="Réponse au patient">
          <Label htmlFor={fieldId}>Votre réponse au patient</Label>
          <Textarea
            id={fieldId}
            rows={6}
            maxLength={5000}
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={!allowed || reply.isPending}
            aria-describedby={blocked ? noteId : undefined}
            placeholder="Bonjour, j'ai étudié votre devis et vos radiographies…"
          />
          {blocked ? (
            <p id={noteId} className="text-sm font-medium text-slate-700">
              {REPLY_REFUSED}
            </p>
          ) : null}
          {redirecting ? (
            <p className="flex items-center gap-2 text-sm text-green-800" role="status">
              <CheckCircle2 className="size-4" aria-hidden="true" />
              Réponse envoyée. Vous allez être redirigé vers votre tableau de bord…
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={!canSend} loading={reply.isPending}>
              <Send aria-hidden="true" />
              Envoyer la réponse
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function SubmissionView({ request }: { request: DentistRequestDetail }) {
  const assign = useAssignRequest(request.id);
  const hasOffer = Boolean(useMyOffer(request.id).data?.offer);
  const treatment = treatmentLabel(request.treatment_type);
  const urgency = urgencyOf(request.urgency);

  const onAssign = () =>
    assign.mutate(undefined, {
      onSuccess: () => toast.success(DENTIST_MESSAGES.assigned),
      onError: (error) =>
        toast.error(DENTIST_MESSAGES.assignFailed, {
          description: isApiError(error) ? error.message : undefined,
        }),
    });

  return (
    <>
      <PageHeader
        title={`Demande de ${request.patient_name}`}
        documentTitle={`Demande de ${request.patient_name}`}
        description={
          <span className="flex flex-wrap items-center gap-3">
            <RequestStatusBadge request={request} />
            <span>{treatment}</span>
          </span>
        }
        actions={
          <>
            <NeedHelpLink area="dentist" request={request} />
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
              <Link to={`/dentist/quote-request/${request.id}`}>
                {hasOffer ? "Voir ma proposition" : "Proposer un devis"}
              </Link>
            </Button>
          </>
        }
      />

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Patient</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4">
              <Detail label="Nom">{request.patient_name}</Detail>
              {placeLabel(request.patient_city, request.distance_km) ? (
                <Detail label="Commune">{placeLabel(request.patient_city, request.distance_km)}</Detail>
              ) : null}
              <Detail label="Date de la demande">{formatDetailDate(request.created_at)}</Detail>
              <Detail label="Urgence">
                <Badge tone={URGENCY_TONES[urgency]}>{URGENCY_LABELS[urgency]}</Badge>
              </Detail>
            </dl>
          </CardContent>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Traitement</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Type de traitement">{treatment}</Detail>
              <Detail label="Montant du devis">{quoteAmountText(request.quote_amount_cents)}</Detail>
              <Detail label="Budget">{request.budget.trim() || DENTIST_MESSAGES.defaultBudget}</Detail>
              {request.description ? (
                <Detail label="Description" wide>
                  <span className="whitespace-pre-line">{request.description}</span>
                </Detail>
              ) : null}
            </dl>
          </CardContent>
        </Card>

        <PatientQuoteCard lines={request.quote_lines} className="lg:col-span-3" />

        <Documents request={request} />

        <ReplyForm request={request} />

        <Card>
          <CardHeader>
            <CardTitle>Conversation</CardTitle>
          </CardHeader>
          <CardContent>
            {request.conversation_id ? (
              <Button asChild variant="outline">
                <Link to={`/dentist/messages/${request.conversation_id}`}>
                  <MessagesSquare aria-hidden="true" />
                  Voir la conversation
                </Link>
              </Button>
            ) : (
              <p className="text-slate-600">La conversation avec le patient commencera avec votre réponse.</p>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
