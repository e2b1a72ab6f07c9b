import { useQueryClient } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { useCallback, useState } from "react";
import { Link } from "react-router";
import type { SubscriptionPage } from "../../../shared/schemas/billing";
import { api, isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { EmptyState } from "../ui/EmptyState";
import { subscriptionKey, useSubscription } from "./api";
import { SUBSCRIPTION_PATH } from "./SubscriptionBanner";

/*
 * What a dentist whose subscription lapsed reads on the request and offer screens (issue 35): the
 * limit (what he keeps, what he no longer does) and the way back, instead of a bare error. The
 * server decides (GET /api/dentist/subscription says `limited`; a hidden request answers 404, an
 * offer or a reply 403): these only explain it.
 */

export const LIMIT_TITLE = "Votre abonnement n'est plus actif";
export const LIMIT_TEXT =
  "Vous gardez vos conversations, vos patients, vos rendez-vous et les documents partagés, mais vous ne voyez plus les nouvelles demandes et ne pouvez plus envoyer de proposition ni de réponse.";
export const REACTIVATE_LABEL = "Réactiver mon abonnement";

/** Whether the signed-in dentist's access is limited now (false while unknown). */
export function useSubscriptionLimited(): boolean {
  return useSubscription().data?.subscription?.limited === true;
}

/** The limit and 'Réactiver mon abonnement', as a box above a list or a form. */
export function SubscriptionLimitNotice({ className }: { className?: string }) {
  return (
    <Alert variant="destructive" title={LIMIT_TITLE} className={className}>
      <p>{LIMIT_TEXT}</p>
      <p className="mt-2">
        <Link
          to={SUBSCRIPTION_PATH}
          className="font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {REACTIVATE_LABEL}
        </Link>
      </p>
    </Alert>
  );
}

/**
 * A request page the server did not answer for a dentist whose access is limited: the request may be
 * one he saw before the limit (only those whose patient chose him stay open to him).
 */
export function SubscriptionLimitedRequest({ backTo }: { backTo: string }) {
  useDocumentTitle("Demande inaccessible");
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        Demande inaccessible
      </h1>
      <EmptyState
        icon={Lock}
        title={LIMIT_TITLE}
        description={`${LIMIT_TEXT} Seules les demandes dont le patient vous a choisi restent ouvertes.`}
        action={
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild>
              <Link to={SUBSCRIPTION_PATH}>{REACTIVATE_LABEL}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={backTo}>Retour aux demandes</Link>
            </Button>
          </div>
        }
      />
    </>
  );
}

/**
 * For a form whose sending failed: on a refusal (403, or 404 for a request no longer shown), reads
 * the subscription again; when it is limited, `limited` turns true (the form shows the notice) and
 * `explain` resolves to true, so the caller shows no bare error.
 */
export function useLimitExplainer() {
  const queryClient = useQueryClient();
  const [limited, setLimited] = useState(false);
  const explain = useCallback(
    async (error: unknown): Promise<boolean> => {
      if (!isApiError(error) || (error.status !== 403 && error.status !== 404)) return false;
      const fresh = await queryClient
        .fetchQuery({
          queryKey: subscriptionKey,
          queryFn: ({ signal }) => api<SubscriptionPage>("/api/dentist/subscription", { signal }),
          staleTime: 0,
        })
        .catch(() => null);
      const isLimited = fresh?.subscription?.limited === true;
      if (isLimited) setLimited(true);
      return isLimited;
    },
    [queryClient],
  );
  return { limited, explain };
}
