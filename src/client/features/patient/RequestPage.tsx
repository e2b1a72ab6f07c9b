import {
  ArrowLeft,
  Columns3,
  Download,
  FileText,
  HandCoins,
  MessageSquareText,
  ShieldCheck,
} from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { DOCUMENT_TYPE_LABELS, URGENCY_DETAIL_LABELS, urgencyOf } from "../../../shared/domain/requests";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { formatFileSize } from "../../../shared/format/size";
import { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { savingOf } from "../../../shared/policies/offers";
import { mayCancelRequest, mayDeleteRequest } from "../../../shared/policies/requests";
import type { PatientOffer } from "../../../shared/schemas/offers";
import {
  ACCESS_ACTION_LABELS,
  type DocumentAccessDto,
  type RequestDetail,
} from "../../../shared/schemas/requests";
import { RequestAppointment } from "../../components/appointments/RequestAppointment";
import {
  OfferLines,
  OfferSlots,
  OfferStateBadge,
  VerifiedBadge,
  validityText,
} from "../../components/OfferDetails";
import { PageHeader } from "../../components/PageHeader";
import { Detail, RequestNotFound } from "../../components/RequestParts";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Checkbox } from "../../components/ui/Checkbox";
import { type Column, DataTable } from "../../components/ui/DataTable";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/Select";
import { Skeleton } from "../../components/ui/Skeleton";
import { RequestStatusBadge } from "../../components/ui/StatusBadge";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { downloadDocument } from "../../lib/download";
import { useDocumentTitle } from "../../lib/title";
import { AcceptOfferButton } from "./AcceptOfferDialog";
import { useCancelRequest, useDeleteRequest, usePatientRequest } from "./api";
import { ConsentCard } from "./ConsentCard";

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
  const navigate = useNavigate();
  const { brand_name: brand } = useConfig();

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
        documentTitle={`Demande : ${treatment}`}
        description={
          <span className="flex flex-wrap items-center gap-3">
            <RequestStatusBadge status={request.status} />
            <span>Créée le {formatDetailDateTime(request.created_at)}</span>
          </span>
        }
        actions={
          <>
            {mayCancelRequest(request.status) ? (
              <Button variant="outline" onClick={() => setConfirming(true)}>
                Annuler la demande
              </Button>
            ) : null}
            {mayDeleteRequest(request.status) ? (
              <Button variant="destructive-ghost" onClick={() => setConfirmingDelete(true)}>
                Supprimer la demande
              </Button>
            ) : null}
          </>
        }
      />

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Informations de la demande</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Traitement">{treatment}</Detail>
              <Detail label="Urgence">{URGENCY_DETAIL_LABELS[urgencyOf(request.urgency)]}</Detail>
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
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <OffersCard request={request} />

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
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Annuler cette demande ?"
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
        title="Supprimer cette demande ?"
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

export type OfferOrder = "price" | "recent";

const ORDER_LABELS: Record<OfferOrder, string> = { price: "Prix croissant", recent: "Plus récentes" };

/** The offers in the patient's chosen order: by amount (then oldest first) or newest first. */
export function sortOffers(offers: readonly PatientOffer[], order: OfferOrder): PatientOffer[] {
  const byDate = (a: PatientOffer, b: PatientOffer) => b.created_at.localeCompare(a.created_at);
  return [...offers].sort((a, b) =>
    order === "price" ? a.amount_cents - b.amount_cents || -byDate(a, b) : byDate(a, b),
  );
}

/** 'Économie estimée : 420,00 € (35 %)' against the patient's quote, or null without a saving. */
export function savingText(quoteCents: number | null, offerCents: number): string | null {
  const saving = savingOf(quoteCents, offerCents);
  return saving ? `Économie estimée\u00a0: ${formatEuros(saving.cents)} (${saving.percent}\u00a0%)` : null;
}

/** The offers worth comparing: all but the ones their dentist withdrew. */
export function comparableOffers(offers: readonly PatientOffer[]): PatientOffer[] {
  return offers.filter((offer) => offer.state !== "withdrawn");
}

/** At most this many offers side by side (four columns still fit a laptop screen). */
export const MAX_COMPARED = 4;

/** /patient/request/{id}/compare?offres=id1,id2 */
export function compareUrl(requestId: string, offerIds: readonly string[]): string {
  const base = `/patient/request/${encodeURIComponent(requestId)}/compare`;
  return offerIds.length > 0 ? `${base}?offres=${offerIds.map(encodeURIComponent).join(",")}` : base;
}

/** D14: the dentists' offers side by side, in the order the patient chooses; nothing is paid for. */
function OffersCard({ request }: { request: RequestDetail }) {
  const offers = request.offers ?? [];
  const [order, setOrder] = useState<OfferOrder>("price");
  const [checked, setChecked] = useState<string[]>([]);
  const orderId = useId();
  const sorted = sortOffers(offers, order);
  const comparable = comparableOffers(sorted);
  const canCompare = comparable.length >= 2;
  // In the order shown; an offer that stopped being comparable drops out of the selection.
  const chosen = comparable.filter((offer) => checked.includes(offer.id));
  const toggle = (id: string, on: boolean) =>
    setChecked((current) =>
      on ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id),
    );
  const openOthers = (id: string) => offers.filter((o) => o.id !== id && o.state === "sent").length;

  return (
    <Card className="lg:col-span-2">
      <CardHeader className="sm:flex sm:items-end sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle>Propositions</CardTitle>
          <CardDescription>
            Les devis des dentistes pour cette demande. L'ordre ne dépend que de votre choix : aucun dentiste
            ne paie pour être mieux placé.
          </CardDescription>
        </div>
        {offers.length > 1 ? (
          <div className="mt-3 grid gap-1.5 sm:mt-0 sm:w-48 sm:shrink-0">
            <Label id={`${orderId}-label`} htmlFor={orderId}>
              Trier par
            </Label>
            <Select value={order} onValueChange={(value) => setOrder(value as OfferOrder)}>
              <SelectTrigger id={orderId} aria-labelledby={`${orderId}-label`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(ORDER_LABELS) as OfferOrder[]).map((value) => (
                  <SelectItem key={value} value={value}>
                    {ORDER_LABELS[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {offers.length === 0 ? (
          <p className="flex items-center gap-3 text-slate-600">
            <HandCoins className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            Aucune proposition pour le moment.
          </p>
        ) : (
          <>
            {canCompare ? (
              <CompareBar requestId={request.id} chosen={chosen} comparable={comparable} />
            ) : null}
            <ul className="grid gap-4" aria-label="Propositions reçues">
              {sorted.map((offer) => (
                <OfferItem
                  key={offer.id}
                  offer={offer}
                  request={request}
                  othersToClose={openOthers(offer.id)}
                  compare={
                    canCompare && offer.state !== "withdrawn"
                      ? { checked: checked.includes(offer.id), onChange: (on) => toggle(offer.id, on) }
                      : null
                  }
                />
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** 'Comparer (n)' for 2 to 4 checked offers, and 'Comparer toutes les propositions' when they fit. */
function CompareBar({
  requestId,
  chosen,
  comparable,
}: {
  requestId: string;
  chosen: PatientOffer[];
  comparable: PatientOffer[];
}) {
  const count = chosen.length;
  const ready = count >= 2 && count <= MAX_COMPARED;
  const hintId = useId();
  const hint =
    count > MAX_COMPARED
      ? "Comparez quatre propositions au maximum."
      : count < 2
        ? "Cochez de deux à quatre propositions pour les comparer côte à côte."
        : `${count} propositions sélectionnées.`;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-ui border border-slate-200 bg-slate-50 p-3">
      <Button asChild variant={ready ? "primary" : "outline"} size="sm">
        <Link
          to={compareUrl(
            requestId,
            chosen.map((o) => o.id),
          )}
          aria-disabled={ready ? undefined : true}
          aria-describedby={hintId}
          onClick={(event) => {
            if (!ready) event.preventDefault();
          }}
        >
          <Columns3 aria-hidden="true" />
          Comparer ({count})
        </Link>
      </Button>
      <p
        id={hintId}
        aria-live="polite"
        className={count > MAX_COMPARED ? "text-sm font-medium text-red-700" : "text-sm text-slate-700"}
      >
        {hint}
      </p>
      {comparable.length <= MAX_COMPARED ? (
        <Link
          to={compareUrl(
            requestId,
            comparable.map((o) => o.id),
          )}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline sm:ml-auto"
        >
          Comparer toutes les propositions
        </Link>
      ) : null}
    </div>
  );
}

function OfferItem({
  offer,
  request,
  othersToClose,
  compare,
}: {
  offer: PatientOffer;
  request: RequestDetail;
  othersToClose: number;
  compare: { checked: boolean; onChange: (checked: boolean) => void } | null;
}) {
  const { dentist } = offer;
  const saving = savingText(request.quote_amount_cents, offer.amount_cents);
  const compareId = useId();
  const mayAccept = offerAcceptBlocker(offer.state, request.status) === null;
  return (
    <li
      className={
        offer.state === "accepted"
          ? "grid gap-4 rounded-ui border-2 border-green-600 p-4"
          : "grid gap-4 rounded-ui border border-slate-200 p-4"
      }
      aria-label={`Proposition du Dr ${dentist.full_name}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 gap-3">
          <Avatar name={dentist.full_name} src={dentist.avatar_url} />
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              Dr {dentist.full_name}
              {dentist.is_verified ? <VerifiedBadge /> : null}
            </h3>
            {dentist.city ? <p className="text-sm text-slate-600">{dentist.city}</p> : null}
            {dentist.specialties.length > 0 ? (
              <p className="text-sm text-slate-600">{dentist.specialties.join(" · ")}</p>
            ) : null}
          </div>
        </div>
        <div className="grid justify-items-start gap-1 sm:justify-items-end">
          <p className="text-2xl font-semibold text-slate-900 tabular-nums">
            {formatEuros(offer.amount_cents)}
          </p>
          {saving ? <p className="text-sm font-medium text-green-800">{saving}</p> : null}
          {offer.state !== "sent" ? <OfferStateBadge state={offer.state} /> : null}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Reçue le {formatDetailDateTime(offer.created_at)}
        {offer.valid_until ? ` · ${validityText(offer.valid_until)}` : null}
      </p>
      {offer.comment ? <p className="whitespace-pre-line text-slate-800">{offer.comment}</p> : null}
      <OfferLines lines={offer.lines} />
      <OfferSlots slots={offer.slots} />
      {compare || mayAccept ? (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
          {compare ? (
            <div className="flex items-center gap-2">
              <Checkbox
                id={compareId}
                aria-label={`Comparer la proposition du Dr ${dentist.full_name}`}
                checked={compare.checked}
                onCheckedChange={(value) => compare.onChange(value === true)}
              />
              <Label htmlFor={compareId} className="font-normal text-slate-700">
                Comparer
              </Label>
            </div>
          ) : (
            <span />
          )}
          {mayAccept ? (
            <AcceptOfferButton requestId={request.id} offer={offer} othersToClose={othersToClose} />
          ) : null}
        </div>
      ) : null}
      {offer.state === "accepted" ? (
        <div className="border-t border-slate-200 pt-4">
          <RequestAppointment requestId={request.id} offer={offer} />
        </div>
      ) : null}
    </li>
  );
}
