import { zodResolver } from "@hookform/resolvers/zod";
import { type UseQueryResult, useQueryClient } from "@tanstack/react-query";
import { FileArchive, MessagesSquare, Plus, Send, Trash2, Undo2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import {
  type FieldPath,
  type UseFormRegisterReturn,
  useFieldArray,
  useForm,
  useWatch,
} from "react-hook-form";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { OFFER_LIMITS } from "../../../shared/domain/offers";
import { type DocumentType, URGENCY_LABELS, urgencyOf } from "../../../shared/domain/requests";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { mayWithdrawOffer } from "../../../shared/policies/appointments";
import { addDays, parisToday } from "../../../shared/policies/offers";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../shared/schemas/dentist";
import {
  type MyOffer,
  OFFER_MESSAGES,
  type OfferDto,
  type OfferValues,
} from "../../../shared/schemas/offers";
import { OfferLines, OfferSlots, OfferStateBadge, validityText } from "../../components/OfferDetails";
import { PageHeader } from "../../components/PageHeader";
import { fromLineDtos } from "../../components/quote/quoteLines";
import { Detail } from "../../components/RequestParts";
import { Alert } from "../../components/ui/Alert";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { downloadDocument } from "../../lib/download";
import { useSession } from "../../lib/session";
import { useDocumentTitle } from "../../lib/title";
import { useDentistRequest } from "./api";
import { DocumentGrid } from "./DocumentGrid";
import { OfferLinesField, offerSubmitBlocker, type ReuseRequest } from "./OfferLinesField";
import { WithdrawOfferDialog } from "./OffersPage";
import { downloadRequestZip, offerKeys, useMyOffer, useSendOffer } from "./offersApi";
import { PatientQuoteCard } from "./PatientQuoteCard";
import { EMPTY_FORM, formPathOf, type ProposalFormValues, proposalFormSchema } from "./proposalForm";
import { BackButton, DentistRequestNotFound, quoteAmountText } from "./RequestParts";
import { VerificationPending } from "./VerificationPending";

/*
 * /dentist/quote-request/:id (spec §2, D14): the request's documents by type, the patient, and
 * this dentist's offer — the form before sending, then the sent offer, read-only.
 */

const LOAD_ERROR = "Impossible de charger la demande";
const OFFER_LOAD_ERROR = "Impossible de charger votre proposition";
const URGENCY_TONES = { high: "red", medium: "gray", low: "gray" } as const;

// ---------------------------------------------------------------------------------------------

function LoadingProposal() {
  useDocumentTitle("Proposer un devis");
  return (
    <div aria-busy="true">
      <p className="sr-only">Chargement...</p>
      <h1 className="sr-only">Proposer un devis</h1>
      <div className="mb-6 grid gap-3">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-48" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-64 lg:col-span-2" />
        <Skeleton className="h-96" />
        <Skeleton className="h-[36rem] lg:col-span-2" />
      </div>
    </div>
  );
}

/** /dentist/quote-request/:id */
export function DentistQuoteRequestPage() {
  const { id = "" } = useParams();
  const { profile } = useSession();
  if (profile && !profile.is_verified) {
    return (
      <>
        <BackButton />
        <PageHeader title="Proposer un devis" />
        <VerificationPending />
      </>
    );
  }
  return <ProposalLoader id={id} />;
}

function ProposalLoader({ id }: { id: string }) {
  const query = useDentistRequest(id);
  const mine = useMyOffer(id);
  const notFound = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !notFound) toast.error(LOAD_ERROR, { id: "dentist-request-error" });
  }, [query.isError, notFound]);

  return (
    <>
      <BackButton />
      {query.isPending ? (
        <LoadingProposal />
      ) : notFound ? (
        <DentistRequestNotFound />
      ) : query.isError ? (
        <>
          <PageHeader title="Proposer un devis" />
          <LoadError
            title={LOAD_ERROR}
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        <ProposalView request={query.data} mine={mine} />
      )}
    </>
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

  return (
    <>
      <PageHeader
        title="Proposer un devis"
        documentTitle={`Proposition : ${request.patient_name}`}
        description={`Demande de ${request.patient_name} · ${treatment}`}
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
                ? () => setReuse({ key: (reuse?.key ?? 0) + 1, lines: fromLineDtos(request.quote_lines) })
                : undefined
            }
          />
          {mine.isPending ? (
            <div aria-busy="true">
              <p className="sr-only">Chargement...</p>
              <Skeleton className="h-[36rem]" />
            </div>
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

/**
 * This dentist's offer: the form before sending; the sent offer, read-only (withdrawable while
 * sent or expired); after a withdrawal, the withdrawn offer and the form again when the request
 * is still open (the server says so with `may_offer`).
 */
function OfferSection({
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
        {mayResend ? (
          <ProposalForm requestId={request.id} onSent={onSent} reuse={reuse} title="Nouvelle proposition" />
        ) : null}
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
  return <ProposalForm requestId={request.id} onSent={onSent} reuse={reuse} />;
}

function PatientPanel({ request, age }: { request: DentistRequestDetail; age: number | null }) {
  const urgency = urgencyOf(request.urgency);
  return (
    <Card className="lg:col-start-3 lg:row-start-1">
      <CardHeader>
        <CardTitle>Patient</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4">
          <Detail label="Nom">{request.patient_name}</Detail>
          {age !== null ? <Detail label="Âge">{`${age} ans`}</Detail> : null}
          <Detail label="Date de la demande">{formatDetailDate(request.created_at)}</Detail>
          <Detail label="Traitement">{treatmentLabel(request.treatment_type)}</Detail>
          <Detail label="Urgence">
            <Badge tone={URGENCY_TONES[urgency]}>{URGENCY_LABELS[urgency]}</Badge>
          </Detail>
          <Detail label="Montant du devis">{quoteAmountText(request.quote_amount_cents)}</Detail>
          <Detail label="Budget">{request.budget.trim() || DENTIST_MESSAGES.defaultBudget}</Detail>
          {request.description ? (
            <Detail label="Description">
              <span className="whitespace-pre-line">{request.description}</span>
            </Detail>
          ) : null}
        </dl>
      </CardContent>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// Documents, by type.

type DocumentTab = "all" | Extract<DocumentType, "quote" | "xray" | "photo">;

const DOCUMENT_TABS: { value: DocumentTab; label: string; empty: string }[] = [
  { value: "all", label: "Tous", empty: "Aucun document pour cette demande." },
  { value: "quote", label: "Devis", empty: "Aucun devis pour cette demande." },
  { value: "xray", label: "Radiographies", empty: "Aucune radiographie pour cette demande." },
  { value: "photo", label: "Photos", empty: "Aucune photo pour cette demande." },
];

function DocumentsCard({ request }: { request: DentistRequestDetail }) {
  const [tab, setTab] = useState<DocumentTab>("all");
  const [downloading, setDownloading] = useState<string | null>(null);
  const [zipping, setZipping] = useState(false);
  const documents = request.documents;
  const ofTab = (value: DocumentTab) =>
    value === "all" ? documents : documents.filter((doc) => doc.document_type === value);

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

  const onDownloadAll = async () => {
    setZipping(true);
    try {
      await downloadRequestZip(request.id);
      toast.success("Téléchargement des documents terminé");
    } catch (error) {
      toast.error(OFFER_MESSAGES.zipFailed, {
        description: isApiError(error) ? error.message : undefined,
      });
    } finally {
      setZipping(false);
    }
  };

  return (
    <Card>
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle>Documents</CardTitle>
          <CardDescription>
            Chaque consultation ou téléchargement est enregistré pour le patient.
          </CardDescription>
        </div>
        <div className="mt-3 sm:mt-0">
          <Button
            variant="outline"
            size="sm"
            disabled={documents.length === 0}
            loading={zipping}
            onClick={() => void onDownloadAll()}
          >
            <FileArchive aria-hidden="true" />
            Tout télécharger
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <Tabs value={tab} onValueChange={(value) => setTab(value as DocumentTab)}>
          <TabsList aria-label="Types de documents">
            {DOCUMENT_TABS.map(({ value, label }) => (
              <TabsTrigger key={value} value={value}>
                {label} <span className="tabular-nums">({ofTab(value).length})</span>
              </TabsTrigger>
            ))}
          </TabsList>
          {DOCUMENT_TABS.map(({ value, empty }) => {
            const list = ofTab(value);
            return (
              <TabsContent key={value} value={value}>
                {list.length === 0 ? (
                  <p className="text-slate-600">{empty}</p>
                ) : (
                  <DocumentGrid
                    documents={list}
                    downloading={downloading}
                    onDownload={(id, name) => void onDownload(id, name)}
                  />
                )}
              </TabsContent>
            );
          })}
        </Tabs>
      </CardContent>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// The sent offer, read-only.

function SentOffer({
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
        </dl>
        {offer.comment ? (
          <div className="grid gap-0.5">
            <p className="text-sm font-medium text-slate-600">Commentaire</p>
            <p className="whitespace-pre-line text-slate-900">{offer.comment}</p>
          </div>
        ) : null}
        <OfferLines lines={offer.lines} showBasket />
        <OfferSlots slots={offer.slots} />
        {conversationId ? (
          <div>
            <Button asChild variant="outline">
              <Link to={`/dentist/messages/${conversationId}`}>
                <MessagesSquare aria-hidden="true" />
                Voir la conversation
              </Link>
            </Button>
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
              }
            : null
        }
        onClose={() => setWithdrawing(false)}
      />
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// The proposal form.

function ProposalForm({
  requestId,
  onSent,
  reuse,
  title = "Votre proposition",
}: {
  requestId: string;
  onSent: (conversationId: string) => void;
  reuse: ReuseRequest | null;
  title?: string;
}) {
  const send = useSendOffer(requestId);
  const queryClient = useQueryClient();
  const form = useForm<ProposalFormValues, unknown, OfferValues>({
    resolver: zodResolver(proposalFormSchema),
    defaultValues: EMPTY_FORM,
  });
  const { errors } = form.formState;
  const slots = useFieldArray({ control: form.control, name: "slots" });
  const amount = useWatch({ control: form.control, name: "amount" });
  const watchedLines = useWatch({ control: form.control, name: "lines" });
  const hasLines = watchedLines.length > 0;
  const slotsId = useId();
  const blockerId = useId();
  const today = parisToday(new Date());
  const blocker = offerSubmitBlocker(amount, watchedLines, today);
  const horizon = addDays(today, OFFER_LIMITS.horizonDays);

  const onSubmit = (values: OfferValues) =>
    send.mutate(values, {
      onSuccess: (result) => {
        toast.success(OFFER_MESSAGES.sent);
        onSent(result.conversation_id);
      },
      onError: (error) => {
        if (isApiError(error) && error.status === 409) {
          toast.error(error.message);
          void queryClient.invalidateQueries({ queryKey: offerKeys.mine(requestId) });
          return;
        }
        if (isApiError(error)) {
          const entries = Object.entries(error.fields);
          entries.forEach(([key, message], index) => {
            form.setError(
              formPathOf(key) as FieldPath<ProposalFormValues>,
              { type: "server", message },
              { shouldFocus: index === 0 },
            );
          });
        }
        toast.error(OFFER_MESSAGES.failed, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });

  const slotsError = errors.slots?.root?.message ?? errors.slots?.message;
  const serverError = errors.root?.server?.message;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>
          Le patient reçoit votre proposition avec sa demande et peut la comparer aux autres. Les champs
          marqués d'un astérisque sont obligatoires.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Proposition au patient"
          className="grid gap-6"
          onSubmit={form.handleSubmit(onSubmit)}
        >
          <FormField
            label="Montant de la proposition (€)"
            required
            error={errors.amount?.message}
            description={
              hasLines
                ? "Le total des actes détaillés ci-dessous : il suit leurs honoraires."
                : "Le montant total que vous proposez au patient, en euros (ex. 1 250,50). Vous pouvez aussi détailler les actes ci-dessous."
            }
          >
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                autoComplete="off"
                readOnly={hasLines}
                className={hasLines ? "bg-slate-50 tabular-nums sm:max-w-56" : "tabular-nums sm:max-w-56"}
                {...form.register("amount")}
              />
            )}
          </FormField>

          <FormField label="Commentaire (optionnel)" error={errors.comment?.message}>
            {(control) => (
              <Textarea
                {...control}
                rows={4}
                maxLength={OFFER_LIMITS.commentMax}
                placeholder="Déroulé des soins, matériaux, délais…"
                {...form.register("comment")}
              />
            )}
          </FormField>

          <OfferLinesField form={form} day={today} reuse={reuse} />

          <FormField
            label="Valable jusqu'au (optionnel)"
            error={errors.valid_until?.message}
            description="Après cette date, votre proposition sera marquée comme expirée."
          >
            {(control) => (
              <Input
                {...control}
                type="date"
                min={today}
                max={horizon}
                className="sm:max-w-56"
                {...form.register("valid_until")}
              />
            )}
          </FormField>

          <fieldset className="grid gap-3" aria-describedby={`${slotsId}-help`}>
            <legend className="text-sm font-medium text-slate-800">
              Créneaux de rendez-vous proposés (optionnel)
            </legend>
            <p id={`${slotsId}-help`} className="text-sm text-slate-600">
              Heure de Paris. Trois créneaux au maximum ; le patient pourra en choisir un.
            </p>
            {slots.fields.length > 0 ? (
              <ul className="grid gap-3">
                {slots.fields.map((field, index) => (
                  <SlotRow
                    key={field.id}
                    index={index}
                    error={errors.slots?.[index]?.date?.message ?? errors.slots?.[index]?.message}
                    min={today}
                    max={horizon}
                    dateProps={form.register(`slots.${index}.date`)}
                    timeProps={form.register(`slots.${index}.time`)}
                    onRemove={() => slots.remove(index)}
                  />
                ))}
              </ul>
            ) : null}
            <div>
              <Button
                variant="outline"
                size="sm"
                disabled={slots.fields.length >= OFFER_LIMITS.maxSlots}
                onClick={() => slots.append({ date: "", time: "" })}
              >
                <Plus aria-hidden="true" />
                Ajouter un créneau
              </Button>
            </div>
            {slotsError ? <p className="text-sm font-medium text-red-700">{slotsError}</p> : null}
          </fieldset>

          {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}

          <div className="flex flex-wrap items-center gap-3">
            {/* Never disabled (issue 16): a click validates, says what is missing beside each field and
                focuses the first one; the line below says it beforehand. */}
            <Button type="submit" loading={send.isPending} aria-describedby={blocker ? blockerId : undefined}>
              <Send aria-hidden="true" />
              Envoyer la proposition
            </Button>
            {blocker ? (
              <p id={blockerId} className="text-sm text-slate-700">
                {blocker}
              </p>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

type Registered = UseFormRegisterReturn;

function SlotRow({
  index,
  error,
  min,
  max,
  dateProps,
  timeProps,
  onRemove,
}: {
  index: number;
  error: string | undefined;
  min: string;
  max: string;
  dateProps: Registered;
  timeProps: Registered;
  onRemove: () => void;
}) {
  const id = useId();
  const n = index + 1;
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  return (
    <li className="grid gap-2 rounded-ui border border-slate-200 p-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,8rem)_auto] sm:items-end">
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-date`} className="text-sm font-medium text-slate-800">
            Date du créneau {n}
          </label>
          <Input
            id={`${id}-date`}
            type="date"
            min={min}
            max={max}
            aria-invalid={invalid}
            aria-describedby={error ? errorId : undefined}
            {...dateProps}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-time`} className="text-sm font-medium text-slate-800">
            Heure du créneau {n}
          </label>
          <Input
            id={`${id}-time`}
            type="time"
            aria-invalid={invalid}
            aria-describedby={error ? errorId : undefined}
            {...timeProps}
          />
        </div>
        <div>
          <Button variant="ghost" size="sm" aria-label={`Retirer le créneau ${n}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" />
            Retirer
          </Button>
        </div>
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </li>
  );
}
