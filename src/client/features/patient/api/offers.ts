import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { journeyOf } from "../../../../shared/domain/journey";
import type { offerAcceptedSchema, offerUnacceptedSchema } from "../../../../shared/schemas/offers";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { api } from "../../../lib/api";
import { appointmentKeys, patientKeys } from "../../../lib/queryKeys";

/** The patient's choice of an offer: accepting it, or changing their mind before the appointment. */

export type OfferAccepted = z.infer<typeof offerAcceptedSchema>;
export type OfferUnaccepted = z.infer<typeof offerUnacceptedSchema>;

/**
 * POST /api/patient/offers/:id/<action> on an offer of request `requestId`. `shown` (optional) puts
 * what the server answered into the request at once. A refusal (409) also means the offers changed
 * meanwhile: the patient's queries and the appointments are reloaded either way.
 */
function useOfferDecision<Result>(
  requestId: string,
  action: "accept" | "unaccept",
  shown?: (current: RequestDetail, result: Result) => RequestDetail,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) =>
      api<Result>(`/api/patient/offers/${encodeURIComponent(offerId)}/${action}`, { method: "POST" }),
    onSuccess: (result) => {
      if (!shown) return;
      queryClient.setQueryData<RequestDetail>(patientKeys.request(requestId), (current) =>
        current ? shown(current, result) : current,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });
}

/**
 * POST /api/patient/offers/:id/accept (ADR 011, ADR 016): the request is then 'accepted' (choose a
 * slot), this offer 'accepted' and every other offer 'closed'. 404 for someone else's offer; 409 (French message)
 * when it expired, was withdrawn, another was accepted or the request was cancelled. What the server
 * now holds is shown at once; the refetch that follows confirms it.
 */
export function useAcceptOffer(requestId: string) {
  return useOfferDecision<OfferAccepted>(requestId, "accept", (current, { offer }) => ({
    ...current,
    status: "accepted",
    journey: journeyOf({ id: current.id, status: "accepted", open_offers: 0, appointment: null }, new Date()),
    offers: current.offers.map((o) =>
      o.id === offer.id ? offer : o.state === "sent" ? { ...o, state: "closed" } : o,
    ),
  }));
}

/**
 * POST /api/patient/offers/:id/unaccept (issue 16, ADR 016): the patient changes their mind before
 * the appointment is confirmed; the offer is 'sent' again, the others still valid reopen, a pending
 * appointment is cancelled. 409 (French message) once the appointment is confirmed.
 */
export function useUnacceptOffer(requestId: string) {
  return useOfferDecision<OfferUnaccepted>(requestId, "unaccept");
}
