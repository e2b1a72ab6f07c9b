import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useId } from "react";
import { type FieldPath, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { OFFER_LIMITS } from "../../../../shared/domain/offers";
import {
  EMPTY_FORM,
  formFromOffer,
  formPathOf,
  type ProposalFormValues,
  proposalFormSchema,
} from "../../../../shared/forms/offerForm";
import { addDays, parisToday } from "../../../../shared/policies/offers";
import {
  type LastFee,
  OFFER_MESSAGES,
  type OfferDto,
  type OfferValues,
} from "../../../../shared/schemas/offers";
import type { QuoteLineDto } from "../../../../shared/schemas/quotes";
import {
  SubscriptionLimitNotice,
  useLimitExplainer,
  useSubscriptionLimited,
} from "../../../components/subscription/SubscriptionLimit";
import { Alert } from "../../../components/ui/Alert";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { FormField } from "../../../components/ui/FormField";
import { Input } from "../../../components/ui/Input";
import { Textarea } from "../../../components/ui/Textarea";
import { isApiError } from "../../../lib/api";
import { useLeaveWarning } from "../../../lib/leaveWarning";
import { OfferLinesField, offerSubmitBlocker, type ReuseRequest } from "../OfferLinesField";
import { offerKeys, useSendOffer } from "../offersApi";
import { sendFailure } from "../requestStatus";
import { SlotsField } from "./SlotsField";

/** The proposal form: amount, comment, detailed acts, validity and slots, checked by the shared rules. */
export function ProposalForm({
  requestId,
  onSent,
  reuse,
  lastFees,
  devis,
  title = "Votre proposition",
  from,
}: {
  requestId: string;
  onSent: (conversationId: string) => void;
  reuse: ReuseRequest | null;
  /** His last fee for each act he has proposed (ADR 097). */
  lastFees: readonly LastFee[];
  /** The patient's devis: the BR it states for an act outside the table (`withDevisBases`). */
  devis: readonly QuoteLineDto[];
  title?: string;
  /** The offer he withdrew: the form starts from it (formFromOffer). */
  from?: OfferDto;
}) {
  const send = useSendOffer(requestId);
  const queryClient = useQueryClient();
  // A lapsed subscription (issue 35): the server refuses the offer; the form says why and the way back.
  const limitedNow = useSubscriptionLimited();
  const refusal = useLimitExplainer();
  const limited = limitedNow || refusal.limited;
  const form = useForm<ProposalFormValues, unknown, OfferValues>({
    resolver: zodResolver(proposalFormSchema),
    defaultValues: from ? formFromOffer(from) : EMPTY_FORM,
  });
  const { errors, isDirty } = form.formState;
  // Reloading, closing the tab or following a link asks before losing a proposal being written.
  const leaveWarning = useLeaveWarning(isDirty && !send.isSuccess, {
    title: "Abandonner cette proposition ?",
    description: "Ce que vous avez saisi ne sera ni envoyé ni gardé.",
    confirmLabel: "Abandonner la proposition",
    cancelLabel: "Continuer ma proposition",
  });
  const amount = useWatch({ control: form.control, name: "amount" });
  const watchedLines = useWatch({ control: form.control, name: "lines" });
  const hasLines = watchedLines.length > 0;
  const comment = useWatch({ control: form.control, name: "comment" });
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
      onError: async (error) => {
        if (await refusal.explain(error)) return;
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
          description: sendFailure(error),
        });
      },
    });

  const serverError = errors.root?.server?.message;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>
          {from
            ? "Reprise de votre proposition retirée : corrigez-la, choisissez sa validité et vos créneaux, puis envoyez-la. "
            : "Le patient reçoit votre proposition avec sa demande et peut la comparer aux autres. "}
          Les champs marqués d'un astérisque sont obligatoires.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {limited ? (
          <SubscriptionLimitNotice />
        ) : (
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

            <FormField
              label="Commentaire (optionnel)"
              error={errors.comment?.message}
              counter={{ value: comment, max: OFFER_LIMITS.commentMax }}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={4}
                  placeholder="Déroulé des soins, matériaux, délais…"
                  {...form.register("comment")}
                />
              )}
            </FormField>

            <OfferLinesField form={form} day={today} reuse={reuse} lastFees={lastFees} devis={devis} />

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

            <SlotsField form={form} min={today} max={horizon} />

            {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}

            <div className="flex flex-wrap items-center gap-3">
              {/* Never disabled (issue 16): a click validates, says what is missing beside each field and
                focuses the first one; the line below says it beforehand. */}
              <Button
                type="submit"
                loading={send.isPending}
                aria-describedby={blocker ? blockerId : undefined}
              >
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
        )}
        {leaveWarning}
      </CardContent>
    </Card>
  );
}
