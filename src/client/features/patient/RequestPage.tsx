import { ArrowLeft, Download, FileText, MessageSquareText, ShieldCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { BOOKING_ANCHOR } from "../../../shared/domain/journey";
import { DOCUMENT_TYPE_LABELS, URGENCY_LABELS, urgencyOf } from "../../../shared/domain/requests";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { formatFileSize } from "../../../shared/format/size";
import { mayCancelRequest, mayDeleteRequest } from "../../../shared/policies/requests";
import {
  ACCESS_ACTION_LABELS,
  type DocumentAccessDto,
  type RequestDetail,
} from "../../../shared/schemas/requests";
import { RequestAppointment } from "../../components/appointments/RequestAppointment";
import { JourneyCard } from "../../components/journey/JourneyCard";
import { PageHeader } from "../../components/PageHeader";
import { Detail, RequestNotFound } from "../../components/RequestParts";
import { NeedHelpLink } from "../../components/support/NeedHelpLink";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { type Column, DataTable } from "../../components/ui/DataTable";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { downloadDocument } from "../../lib/download";
import { useDocumentTitle } from "../../lib/title";
import { UnacceptButton } from "./AcceptOfferDialog";
import { useCancelRequest, useComparison, useDeleteRequest, usePatientRequest } from "./api";
import { ConsentCard } from "./ConsentCard";
import { MyQuoteSection } from "./MyQuoteSection";
import { OffersCard } from "./OffersCard";
import { ReadDocumentAction } from "./reading/ReadDocumentAction";

export {
  comparableOffers,
  compareUrl,
  MAX_COMPARED,
  type OfferOrder,
  savingText,
  sortOffers,
} from "./offerList";

const LOAD_ERROR = "Impossible de charger les détails de la demande";
const DOWNLOAD_ERROR = "Impossible de télécharger le fichier";

const accessColumns = (brand: string): Column<DocumentAccessDto>[] => [
  { header: "Personne", cell: (a) => a.actor_name },
  { header: "Rôle", cell: (a) => (a.actor_kind === "dentist" ? "Dentiste" : `Équipe ${brand}`) },
  { header: "Action", cell: (a) => ACCESS_ACTION_LABELS[a.action] },
  { header: "Document", cell: (a) => <span className="break-all">{a.document_name ?? "—"}</span> },
  { header: "Date", cell: (a) => formatDetailDateTime(a.created_at), className: "whitespace-nowrap" },
];

/** Spec §2: the budget is shown with the euro sign; the patient's own text is kept as typed. */
export function withEuroSign(budget: string): string {
  return /\d/.test(budget) && !/€|euro/i.test(budget) ? `${budget} €` : budget;
}

function BackButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      className="mb-4 -ml-2"
      onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/patient/requests"))}
    >
      <ArrowLeft aria-hidden="true" />
      Retour
    </Button>
  );
}

export function PatientRequestNotFound() {
  return (
    <RequestNotFound
      description="Cette demande n'existe pas ou a été supprimée."
      backTo="/patient/dashboard"
      backLabel="Retour au tableau de bord"
    />
  );
}

function LoadingDetail() {
  useDocumentTitle("Détails de la demande");
  return (
    <div aria-busy="true">
      <p className="sr-only">Chargement...</p>
      <h1 className="sr-only">Détails de la demande</h1>
      <div className="mb-6 grid gap-3">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-48" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-72 lg:col-span-2" />
        <Skeleton className="h-72" />
      </div>
    </div>
  );
}

/** /patient/request/:id (spec §2, §8; D8 cancel, D10 access record). */
export function PatientRequestPage() {
  const { id = "" } = useParams();
  const query = usePatientRequest(id);
  const notFound = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !notFound) toast.error(LOAD_ERROR, { id: "patient-request-error" });
  }, [query.isError, notFound]);

  return (
    <>
      <BackButton />
      {query.isPending ? (
        <LoadingDetail />
      ) : notFound ? (
        <PatientRequestNotFound />
      ) : query.isError ? (
        <>
          <PageHeader title="Détails de la demande" />
          <LoadError
            title={LOAD_ERROR}
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        <RequestView request={query.data} />
      )}
    </>
  );
}

function RequestView({ request }: { request: RequestDetail }) {
  const treatment = treatmentLabel(request.treatment_type);
  const [confirming, setConfirming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);
  const cancel = useCancelRequest(request.id);
  const remove = useDeleteRequest(request.id);
  // The estimates of issue 15; the page works without them (price only) if they cannot be loaded.
  const comparison = useComparison(
    request.id,
    [...request.offers.map((o) => `${o.id}:${o.state}:${o.amount_cents}`), request.quote_amount_cents].join(),
  );
  const navigate = useNavigate();
  const { brand_name: brand } = useConfig();
  // Issue 16: the accepted offer's booking sits right under the journey, not below the offers.
  const accepted = request.offers.find((o) => o.state === "accepted");
  const mayUnaccept = request.journey.state === "accepted" || request.journey.state === "appointment_pending";
  const bookingHeading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  // '#rendez-vous' (the journey's next action, or after accepting): scroll there and focus it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key: each navigation scrolls again
  useEffect(() => {
    const heading = bookingHeading.current;
    if (location.hash !== `#${BOOKING_ANCHOR}` || !heading) return;
    const go = () => {
      heading.scrollIntoView?.({ block: "start" });
      heading.focus({ preventScroll: true });
    };
    go();
    // The accept dialog, closing, hands the focus back a moment later: take it once more.
    const timer = window.setTimeout(go, 150);
    return () => window.clearTimeout(timer);
  }, [location.hash, location.key, accepted?.id]);

  const onDownload = async (documentId: string, fileName: string) => {
    setDownloading(documentId);
    try {
      await downloadDocument(documentId, fileName);
    } catch (error) {
      toast.error(DOWNLOAD_ERROR, { description: isApiError(error) ? error.message : undefined });
    } finally {
      setDownloading(null);
    }
  };

  const onCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success("Demande annulée", {
          description: "Les dentistes ne voient plus cette demande.",
        });
      },
      onError: (error) => {
        setConfirming(false);
        toast.error("Une erreur est survenue", {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });

  const onDelete = () =>
    remove.mutate(undefined, {
      onSuccess: ({ message }) => {
        setConfirmingDelete(false);
        toast.success("Demande supprimée", { description: message });
        navigate("/patient/requests", { replace: true });
      },
      onError: (error) => {
        setConfirmingDelete(false);
        toast.error("La demande n'a pas été supprimée", {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });

  return (
    <>
      <PageHeader
        title={treatment}
        documentTitle={`Demande : ${treatment}`}
        actions={<NeedHelpLink area="patient" request={request} />}
        description={<span>Créée le {formatDetailDateTime(request.created_at)}</span>}
      />

      <JourneyCard journey={request.journey}>
        {accepted && mayUnaccept ? <UnacceptButton requestId={request.id} offer={accepted} /> : null}
      </JourneyCard>

      {accepted && request.journey.state !== "cancelled" ? (
        <Card className="mb-6" id={BOOKING_ANCHOR}>
          <CardHeader>
            <CardTitle ref={bookingHeading} tabIndex={-1} className="outline-none">
              Votre rendez-vous avec le Dr {accepted.dentist.full_name}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <RequestAppointment requestId={request.id} offer={accepted} />
          </CardContent>
        </Card>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <OffersCard request={request} comparison={comparison.data} />

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Informations de la demande</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Traitement">{treatment}</Detail>
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
              </Detail>
              {request.description ? (
                <div className="grid gap-0.5 sm:col-span-2">
                  <dt className="text-sm font-medium text-slate-600">Description</dt>
                  <dd className="whitespace-pre-line text-slate-900">{request.description}</dd>
                </div>
              ) : null}
            </dl>
          </CardContent>
        </Card>

        <Card className="self-start lg:col-start-3 lg:row-span-3 lg:row-start-1">
          <CardHeader>
            <CardTitle>Documents</CardTitle>
          </CardHeader>
          <CardContent>
            {request.documents.length === 0 ? (
              <p className="text-slate-600">Aucun document disponible</p>
            ) : (
              <ul className="grid gap-3">
                {request.documents.map((doc) => (
                  <li key={doc.id} className="grid gap-3 rounded-ui border border-slate-200 p-3">
                    <div className="flex items-start gap-3">
                      <FileText className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
                      <div className="min-w-0">
                        <p className="break-all font-medium text-slate-900">{doc.file_name}</p>
                        <p className="text-sm text-slate-600 tabular-nums">
                          {DOCUMENT_TYPE_LABELS[doc.document_type]} · {formatFileSize(doc.size)}
                        </p>
                      </div>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        loading={downloading === doc.id}
                        onClick={() => void onDownload(doc.id, doc.file_name)}
                        aria-label={`Télécharger ${doc.file_name}`}
                      >
                        <Download aria-hidden="true" />
                        Télécharger
                      </Button>
                      <ReadDocumentAction
                        requestId={request.id}
                        document={doc}
                        editable={mayCancelRequest(request.status) && request.quote_lines.length === 0}
                      />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <MyQuoteSection
          request={request}
          comparison={comparison.data}
          comparisonPending={comparison.isPending}
        />

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Réponses des dentistes</CardTitle>
          </CardHeader>
          <CardContent>
            {request.replies.length === 0 ? (
              <p className="flex items-center gap-3 text-slate-600">
                <MessageSquareText className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
                Les réponses des dentistes apparaîtront ici. Ils répondent en général sous 48 heures.
              </p>
            ) : (
              <ul className="grid gap-4" aria-label="Réponses reçues">
                {request.replies.map((reply) => (
                  <li
                    key={reply.conversation_id}
                    className="flex gap-3 rounded-ui border border-slate-200 p-4"
                  >
                    <Avatar name={reply.dentist.full_name} src={reply.dentist.avatar_url} />
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">
                        Dr {reply.dentist.full_name}
                        {reply.dentist.city ? (
                          <span className="font-normal text-slate-600"> · {reply.dentist.city}</span>
                        ) : null}
                      </p>
                      <p className="text-sm text-slate-600">{formatDetailDateTime(reply.created_at)}</p>
                      <p className="mt-2 whitespace-pre-line text-slate-800">{reply.message}</p>
                      <Link
                        to={`/patient/messages?c=${encodeURIComponent(reply.conversation_id)}`}
                        aria-label={`Continuer la conversation avec Dr ${reply.dentist.full_name}`}
                        className="mt-2 inline-block text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                      >
                        Continuer la conversation
                      </Link>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <ConsentCard request={request} />

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck className="size-5 text-brand-700" aria-hidden="true" />
              Qui a consulté mes documents
            </CardTitle>
            <CardDescription>
              Chaque ouverture de cette demande, chaque consultation ou téléchargement de vos documents et de
              vos pièces jointes par un dentiste ou par l'équipe est enregistré ici.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {request.access_log.length === 0 ? (
              <p className="text-slate-600">Personne n'a encore consulté vos documents.</p>
            ) : (
              <DataTable
                caption="Consultations de mes documents"
                columns={accessColumns(brand)}
                rows={request.access_log}
                rowKey={(a) => a.id}
              />
            )}
          </CardContent>
        </Card>
        {mayCancelRequest(request.status) || mayDeleteRequest(request.status) ? (
          <section
            aria-labelledby="manage-request"
            className="grid gap-3 rounded-ui border border-slate-200 p-4 lg:col-span-2"
          >
            <h2 id="manage-request" className="font-semibold text-slate-900">
              Gérer cette demande
            </h2>
            <div className="flex flex-wrap gap-3">
              {mayCancelRequest(request.status) ? (
                <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
                  Annuler la demande
                </Button>
              ) : null}
              {mayDeleteRequest(request.status) ? (
                <Button variant="destructive-ghost" size="sm" onClick={() => setConfirmingDelete(true)}>
                  Supprimer la demande
                </Button>
              ) : null}
            </div>
          </section>
        ) : null}
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Annuler cette demande ?"
        description="Les dentistes ne verront plus cette demande et ne pourront plus vous y répondre. Cette action est définitive."
        confirmLabel="Annuler la demande"
        cancelLabel="Garder ma demande"
        destructive
        loading={cancel.isPending}
        onConfirm={onCancel}
      />
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Supprimer cette demande ?"
        description="La demande, ses documents, les propositions reçues et vos conversations avec les dentistes à son sujet seront effacés, fichiers compris. Les dentistes ne la verront plus. Cette action est définitive."
        confirmLabel="Supprimer la demande"
        cancelLabel="Garder ma demande"
        destructive
        loading={remove.isPending}
        onConfirm={onDelete}
      />
    </>
  );
}
