import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import {
  PLAN_WORDS,
  type PlanId,
  planName,
  SUBSCRIPTION_STATUS_LABELS,
} from "../../../shared/domain/subscription";
import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import type { PlanPriceDto, SubscriptionSummary } from "../../../shared/schemas/billing";
import { PageHeader } from "../../components/PageHeader";
import {
  useCancellation,
  usePlanChange,
  useProviderRedirect,
  useSubscription,
} from "../../components/subscription/api";
import { planDetail, VAT_NOT_RECOVERABLE } from "../../components/subscription/PlanPrices";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/Card";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { LoadError } from "../../components/ui/LoadError";
import { PageSkeleton } from "../../components/ui/PageSkeleton";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { invoiceKeys } from "../../lib/queryKeys";
import { useSession } from "../../lib/session";
import { BillingProfileForm, InvoiceList } from "./billing";

/*
 * /dentist/subscription 'Abonnement' (issue 35): the state and the date it next changes, the plans
 * with HT, TVA and TTC, 'S'abonner' (the provider's checkout), 'Gérer mon moyen de paiement' (its
 * portal), 'Résilier' / 'Réactiver' with a confirmation, 'Passer à la formule …' at the end of the paid
 * period and 'Annuler le changement' (ADR 096). The server decides everything shown.
 */

const failed = (error: unknown) =>
  toast.error("L'opération n'a pas abouti", {
    description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
  });

/**
 * What « Passer à la formule … » does, with the page's figures: the current plan runs to the end of
 * the paid period (or the trial kept at checkout, to its end: ADR 085), the new one starts then and
 * is charged then; from monthly to yearly, the saving over a year when there is one (12 monthly TTC
 * payments against the yearly TTC).
 */
function planChangeText(s: SubscriptionSummary, from: PlanId, to: PlanId, plans: PlanPriceDto[]): string {
  const until = s.current_period_end ?? s.changes_at;
  const starts =
    s.status === "trialing"
      ? until
        ? `Votre essai gratuit continue jusqu'au ${formatDetailDate(until)}. À cette date, votre abonnement commence en formule ${PLAN_WORDS[to].adjective}`
        : `Votre essai gratuit continue jusqu'à sa fin. Votre abonnement commence alors en formule ${PLAN_WORDS[to].adjective}`
      : until
        ? `Votre formule ${PLAN_WORDS[from].adjective} continue jusqu'au ${formatDetailDate(until)}. À cette date, la formule ${PLAN_WORDS[to].adjective} commence`
        : `Votre formule ${PLAN_WORDS[from].adjective} continue jusqu'à la fin de la période payée. La formule ${PLAN_WORDS[to].adjective} commence alors`;
  const next = plans.find((p) => p.id === to);
  const charged = next
    ? ` : ${formatEuros(next.ttc_cents)} TTC prélevés alors, puis ${PLAN_WORDS[to].every}`
    : `, payée ${PLAN_WORDS[to].every}`;
  const monthly = plans.find((p) => p.id === "monthly");
  const yearly = plans.find((p) => p.id === "yearly");
  const saving = to === "yearly" && monthly && yearly ? 12 * monthly.ttc_cents - yearly.ttc_cents : 0;
  const saved =
    saving > 0
      ? `, soit ${formatEuros(saving)} d'économie sur un an par rapport à 12 mois en formule mensuelle`
      : "";
  return `${starts}${charged}${saved}. Rien n'est prélevé d'ici là, et vous pouvez annuler ce changement jusqu'à cette date.`;
}

function stateLine(s: SubscriptionSummary, nextTtc: number | null): string {
  const on = s.changes_at ? formatDetailDate(s.changes_at) : "";
  switch (s.phase) {
    case "trial":
    case "trial_ending":
      // Subscribed during the trial (ADR 085): the subscription follows it, its first payment then.
      if (!s.has_provider_subscription) return `Essai gratuit jusqu'au ${on}.`;
      if (s.cancel_at_period_end)
        return `Essai gratuit jusqu'au ${on}. Vous avez résilié votre abonnement : rien ne sera prélevé.`;
      return nextTtc !== null
        ? `Essai gratuit jusqu'au ${on}, puis votre abonnement prend le relais : premier paiement le ${on} : ${formatEuros(nextTtc)} TTC.`
        : `Essai gratuit jusqu'au ${on}, puis votre abonnement prend le relais.`;
    // It renews by itself: never « jusqu'au », which only a cancelled subscription reads (« ending »).
    case "active":
      if (!on) return "Votre abonnement se renouvelle automatiquement.";
      return nextTtc !== null
        ? `Prochain paiement le ${on} : ${formatEuros(nextTtc)} TTC.`
        : `Prochain renouvellement le ${on}.`;
    case "ending":
      return `Résilié : votre abonnement reste actif jusqu'au ${on}.`;
    case "past_due":
      return `Le dernier paiement a échoué : réglez-le avec « Gérer mon moyen de paiement ». Votre accès reste complet jusqu'au ${on}.`;
    case "limited":
      return `${s.status === "past_due" ? `Le dernier paiement a échoué : réglez-le avec « Gérer mon moyen de paiement » pour retrouver un accès complet. ` : ""}Accès limité : vous gardez vos conversations, vos patients, vos rendez-vous et les documents partagés, mais vous ne recevez plus de nouvelles demandes et ne pouvez plus envoyer de proposition.`;
  }
}

/** How often, and how long, the page asks again while a payment's confirmation is on its way. */
const CONFIRMATION_POLL_MS = 2000;
const CONFIRMATION_WAIT_MS = 2 * 60 * 1000;

export function DentistSubscriptionPage() {
  const [params] = useSearchParams();
  const paid = params.get("paiement") === "accepte";
  const [confirmed, setConfirmed] = useState(false);
  const [late, setLate] = useState(false);
  const { brand_name } = useConfig();
  // Back from the provider's page, the payment's confirmation (its webhooks) may still be on its way:
  // the page asks again until the subscription is there (two minutes at most), and offers no second
  // checkout meanwhile.
  const query = useSubscription({ pollMs: paid && !confirmed && !late ? CONFIRMATION_POLL_MS : false });
  const redirect = useProviderRedirect();
  const cancellation = useCancellation();
  const planChange = usePlanChange();
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState<PlanId>("monthly");
  const [confirming, setConfirming] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const live = query.data?.subscription?.has_provider_subscription ?? false;
  // His verification withdrawn (ADR 093): he may still stop paying, not take up a subscription again
  // (the server refuses it); the page says so instead of offering it.
  const verified = useSession().profile?.is_verified ?? true;

  useEffect(() => {
    if (!paid || confirmed) return;
    const timer = setTimeout(() => setLate(true), CONFIRMATION_WAIT_MS);
    return () => clearTimeout(timer);
  }, [paid, confirmed]);

  useEffect(() => {
    if (!paid || !live || confirmed) return;
    setConfirmed(true);
    // The invoice of that payment came with it.
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.ownAll() });
  }, [paid, live, confirmed, queryClient]);

  if (query.isPending) return <PageSkeleton />;
  if (query.isError)
    return <LoadError title="Impossible de charger votre abonnement" onRetry={() => void query.refetch()} />;
  const { subscription, plans, next_payment_ttc_cents, first_payment_at } = query.data;
  // A subscription taken shows its own plan; otherwise the one being chosen.
  const shownPlan = live && subscription?.plan ? subscription.plan : plan;
  const inTrial = subscription?.status === "trialing";
  // The plan one may change to (ADR 096): from a subscription that renews — paid, or taken during the
  // trial and kept to its end (ADR 085) — not cancelled, with no change already asked; it starts at
  // the end of the paid period or of the trial. Not while his verification is withdrawn (the server
  // refuses it, as a new subscription); undoing one stays his.
  const currentPlan = subscription?.plan ?? null;
  const otherPlan: PlanId | null =
    currentPlan === "monthly" ? "yearly" : currentPlan === "yearly" ? "monthly" : null;
  const renews =
    (subscription?.phase === "active" && subscription.status === "active") ||
    subscription?.status === "trialing";
  const mayChangePlan =
    verified &&
    live &&
    renews &&
    !subscription?.cancel_at_period_end &&
    subscription?.next_plan === null &&
    otherPlan !== null;
  const nextPlan = subscription?.next_plan ?? null;
  const nextPlanPrice = nextPlan ? plans.find((p) => p.id === nextPlan.plan) : undefined;
  /** « Passer à … » (a plan) or « Annuler le changement » (null); `close` closes its dialog. */
  const changePlan = (next: PlanId | null, close: () => void) =>
    planChange.mutate(next, {
      onSuccess: ({ message }) => {
        close();
        toast.success(message);
      },
      onError: (error) => {
        // Refused: the subscription is no longer what the page showed (it is read again).
        if (isApiError(error) && error.status === 409) close();
        failed(error);
      },
    });
  const waiting = paid && !live;
  // While the confirmation is awaited, no second checkout (the server refuses one anyway once the
  // payment is known); after two minutes without it, « S'abonner » comes back.
  const mayCheckout = verified && subscription !== null && !live && !(waiting && !late);

  return (
    <>
      <PageHeader
        title="Abonnement"
        description={`${planName(brand_name)} : le même service pour tous, payé au mois ou à l'année, sans commission sur vos soins. Les patients ne paient rien.`}
      />
      {waiting ? (
        <Alert variant="info" className="mb-6" title="Paiement en cours de confirmation">
          {late
            ? `La confirmation de votre paiement tarde. Rechargez cette page dans quelques minutes ; si rien ne change, écrivez-nous depuis « Besoin d'aide ? ».`
            : `Votre paiement a été transmis. Nous attendons sa confirmation : cette page se met à jour d'elle-même dans quelques instants.`}
        </Alert>
      ) : paid ? (
        <Alert variant="success" className="mb-6" title="Paiement accepté">
          {inTrial && subscription?.changes_at
            ? `Merci ! Votre abonnement est enregistré : votre essai continue jusqu'au ${formatDetailDate(subscription.changes_at)}, date de votre premier paiement. Sa facture s'affichera ci-dessous.`
            : "Merci ! Votre abonnement est actif. Sa facture s'affiche ci-dessous dès qu'elle est émise."}
        </Alert>
      ) : null}
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Votre abonnement</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            {subscription ? (
              <>
                <p>
                  <span className="font-semibold">État : </span>
                  {subscription.phase === "limited"
                    ? "Accès limité"
                    : SUBSCRIPTION_STATUS_LABELS[subscription.status]}
                </p>
                <p>{stateLine(subscription, next_payment_ttc_cents)}</p>
                {nextPlan ? (
                  <p className="font-medium">
                    {`Passage à la formule ${PLAN_WORDS[nextPlan.plan].adjective} le ${formatDetailDate(nextPlan.starts_at)}`}
                    {nextPlanPrice
                      ? ` (${formatEuros(nextPlanPrice.ttc_cents)} TTC ${nextPlanPrice.period}).`
                      : "."}
                  </p>
                ) : null}
                <div className="flex flex-wrap gap-3">
                  {live ? (
                    <Button
                      variant="secondary"
                      loading={redirect.isPending}
                      onClick={() => redirect.mutate("portal", { onError: failed })}
                    >
                      Gérer mon moyen de paiement
                    </Button>
                  ) : null}
                  {mayChangePlan && otherPlan ? (
                    <Button variant="outline" onClick={() => setSwitching(true)}>
                      {`Passer à la formule ${PLAN_WORDS[otherPlan].adjective}`}
                    </Button>
                  ) : null}
                  {nextPlan ? (
                    <Button variant="outline" onClick={() => setUndoing(true)}>
                      Annuler le changement
                    </Button>
                  ) : null}
                  {live && !subscription.cancel_at_period_end ? (
                    <Button variant="destructive" onClick={() => setConfirming(true)}>
                      Résilier
                    </Button>
                  ) : null}
                  {live && subscription.cancel_at_period_end && verified ? (
                    <Button
                      loading={cancellation.isPending}
                      onClick={() =>
                        cancellation.mutate(false, {
                          onSuccess: ({ message }) => toast.success(message),
                          onError: failed,
                        })
                      }
                    >
                      Réactiver
                    </Button>
                  ) : null}
                </div>
                {verified ? null : (
                  <p className="text-sm text-slate-600">
                    Votre compte n'est plus vérifié pour le moment : vous pourrez réactiver votre abonnement
                    ou en choisir un une fois votre compte de nouveau vérifié.
                  </p>
                )}
              </>
            ) : (
              <p>
                L'abonnement commence avec votre essai gratuit de 30 jours, dès que votre compte est vérifié.
              </p>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Formules</CardTitle>
          </CardHeader>
          <CardContent>
            <fieldset className="grid gap-3 sm:grid-cols-2">
              <legend className="sr-only">Choisissez votre formule</legend>
              {plans.map((p) => (
                <label
                  key={p.id}
                  className="flex cursor-pointer gap-3 rounded-ui border border-slate-300 p-4 has-[:checked]:border-brand-600 has-[:focus-visible]:outline-2"
                >
                  <input
                    type="radio"
                    name="plan"
                    value={p.id}
                    checked={shownPlan === p.id}
                    onChange={() => setPlan(p.id)}
                    disabled={!mayCheckout}
                    className="mt-1"
                  />
                  <span className="grid gap-1">
                    <span className="font-semibold">{p.name}</span>
                    <span className="tabular-nums">
                      {formatEuros(p.ttc_cents)} TTC {p.period}
                    </span>
                    <span className="text-sm text-slate-600 tabular-nums">{planDetail(p)}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <p className="mt-3 text-sm text-slate-600">
              Paiement par carte bancaire ou prélèvement SEPA. {VAT_NOT_RECOVERABLE}
            </p>
            {mayCheckout && inTrial ? (
              <p className="mt-3 text-sm text-slate-600">
                {first_payment_at
                  ? `Rien n'est prélevé aujourd'hui : votre essai continue, et le premier paiement a lieu à sa fin, le ${formatDetailDate(first_payment_at)}.`
                  : subscription?.phase === "limited"
                    ? "Votre essai est terminé : le premier paiement est prélevé dès votre abonnement."
                    : "Votre essai se termine dans moins de deux jours : le premier paiement est prélevé dès votre abonnement."}
              </p>
            ) : null}
            {mayCheckout ? (
              <Button
                className="mt-4"
                loading={redirect.isPending}
                onClick={() => redirect.mutate({ plan }, { onError: failed })}
              >
                S'abonner
              </Button>
            ) : null}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Informations de facturation</CardTitle>
          </CardHeader>
          <CardContent>
            <BillingProfileForm />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Mes factures</CardTitle>
          </CardHeader>
          <CardContent>
            <InvoiceList />
          </CardContent>
        </Card>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Résilier votre abonnement ?"
        description={
          inTrial && subscription?.changes_at
            ? `Rien ne sera prélevé : votre essai continue jusqu'au ${formatDetailDate(subscription.changes_at)}, puis vous ne recevrez plus de nouvelles demandes. Vous pourrez le réactiver d'ici là en un clic.`
            : subscription?.status === "past_due"
              ? `Le dernier paiement n'a pas abouti : votre abonnement ne sera plus renouvelé et prendra fin avec la période en cours${subscription.current_period_end ? `, le ${formatDetailDate(subscription.current_period_end)}` : ""}. Vous pourrez le réactiver d'ici là en un clic.${
                  nextPlan ? " Le changement de formule prévu sera annulé." : ""
                }`
              : `Votre abonnement reste actif jusqu'à la fin de la période payée${subscription?.current_period_end ? `, le ${formatDetailDate(subscription.current_period_end)}` : ""} ; vous pourrez le réactiver d'ici là en un clic.${
                  nextPlan ? " Le changement de formule prévu sera annulé." : ""
                }`
        }
        confirmLabel="Résilier"
        cancelLabel="Garder mon abonnement"
        destructive
        loading={cancellation.isPending}
        onConfirm={() =>
          cancellation.mutate(true, {
            onSuccess: ({ message }) => {
              setConfirming(false);
              toast.success(message);
            },
            onError: failed,
          })
        }
      />
      {subscription && currentPlan && otherPlan ? (
        <ConfirmDialog
          open={switching}
          onOpenChange={setSwitching}
          title={`Passer à la formule ${PLAN_WORDS[otherPlan].adjective} ?`}
          description={planChangeText(subscription, currentPlan, otherPlan, plans)}
          confirmLabel={`Passer à la formule ${PLAN_WORDS[otherPlan].adjective}`}
          loading={planChange.isPending}
          onConfirm={() => changePlan(otherPlan, () => setSwitching(false))}
        />
      ) : null}
      <ConfirmDialog
        open={undoing}
        onOpenChange={setUndoing}
        title="Annuler le changement de formule ?"
        description={
          !currentPlan
            ? "Votre formule actuelle continuera d'être renouvelée."
            : inTrial
              ? `Votre abonnement commencera en formule ${PLAN_WORDS[currentPlan].adjective} à la fin de votre essai, comme choisi lors de votre abonnement.`
              : `Votre formule ${PLAN_WORDS[currentPlan].adjective} continuera d'être renouvelée ${PLAN_WORDS[currentPlan].every}.`
        }
        confirmLabel="Annuler le changement"
        cancelLabel="Garder le changement"
        loading={planChange.isPending}
        onConfirm={() => changePlan(null, () => setUndoing(false))}
      />
    </>
  );
}
