import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlanId } from "../../../shared/domain/subscription";
import type { SubscriptionPage, SubscriptionSummary } from "../../../shared/schemas/billing";
import { api, isApiError } from "../../lib/api";

/** The dentist's subscription (issue 35): the Abonnement page and the dentist area's banner share it. */
export const subscriptionKey = ["dentist", "subscription"] as const;

/**
 * GET /api/dentist/subscription; `pollMs`: asked again at that interval (back from a payment whose
 * confirmation has not reached the server yet).
 */
export function useSubscription(options: { pollMs?: number | false } = {}) {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: ({ signal }) => api<SubscriptionPage>("/api/dentist/subscription", { signal }),
    refetchInterval: options.pollMs ?? false,
    // A payment confirmed while the dentist looks at another tab is picked up all the same.
    refetchIntervalInBackground: Boolean(options.pollMs),
  });
}

/** 'S'abonner' and 'Gérer mon moyen de paiement': the provider's page, where the browser goes. */
export function useProviderRedirect() {
  return useMutation({
    mutationFn: (what: { plan: PlanId } | "portal") =>
      what === "portal"
        ? api<{ url: string }>("/api/dentist/subscription/portal", { method: "POST" })
        : api<{ url: string }>("/api/dentist/subscription/checkout", { method: "POST", body: what }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** 'Résilier' (cancel: true) and 'Réactiver' (false). */
export function useCancellation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cancel: boolean) =>
      api<{ subscription: SubscriptionSummary; message: string }>(
        `/api/dentist/subscription/${cancel ? "cancel" : "reactivate"}`,
        { method: "POST" },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKey }),
  });
}

/**
 * « Passer à la formule … » (the plan it moves to at the end of the paid period, ADR 096) and
 * « Annuler le changement » (null). A refusal (409) means the subscription is no longer what the page
 * shows: it is read again.
 */
export function usePlanChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PlanId | null) =>
      api<{ subscription: SubscriptionSummary; message: string }>(
        "/api/dentist/subscription/plan",
        plan ? { method: "POST", body: { plan } } : { method: "DELETE" },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKey }),
    onError: (error) => {
      if (isApiError(error) && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: subscriptionKey });
    },
  });
}
