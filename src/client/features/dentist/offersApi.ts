import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { OfferState } from "../../../shared/domain/offers";
import type {
  DentistOfferList,
  MyOffer,
  OfferDto,
  OfferInput,
  OfferValues,
  offerWithdrawnSchema,
} from "../../../shared/schemas/offers";
import { api } from "../../lib/api";
import { downloadFile } from "../../lib/download";
import { dentistKeys, offerKeys } from "../../lib/queryKeys";

/**
 * The offers' calls (ADR 008): this dentist's offer on a request, sending it, the zip; 'Mes
 * propositions' and withdrawing an offer.
 */

export { offerKeys };

const requestPath = (id: string) => `/api/dentist/requests/${encodeURIComponent(id)}`;

/** GET /api/dentist/requests/:id/offer: this dentist's offer (or null), may_offer, patient_age. */
export function useMyOffer(requestId: string, enabled = true) {
  return useQuery({
    queryKey: offerKeys.mine(requestId),
    queryFn: ({ signal }) => api<MyOffer>(`${requestPath(requestId)}/offer`, { signal }),
    enabled,
  });
}

export interface OfferCreated {
  offer: OfferDto;
  conversation_id: string;
  message: string;
}

/**
 * POST /api/dentist/requests/:id/offers (201; 400 with `fields` keyed like `lines.0.tooth`;
 * 409 when already sent or the request no longer takes offers).
 */
export function useSendOffer(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OfferInput | OfferValues) =>
      api<OfferCreated>(`${requestPath(requestId)}/offers`, { method: "POST", body: input }),
    onSuccess: ({ offer }) => {
      queryClient.setQueryData<MyOffer>(offerKeys.mine(requestId), (current) => ({
        offer,
        may_offer: current?.may_offer ?? false,
        patient_age: current?.patient_age ?? null,
        last_fees: current?.last_fees ?? [],
      }));
      void queryClient.invalidateQueries({ queryKey: dentistKeys.request(requestId), exact: true });
      for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
    },
  });
}

/** GET /api/dentist/requests/:id/documents.zip: every document of the request in one zip. */
export function requestZipUrl(requestId: string): string {
  return `${requestPath(requestId)}/documents.zip`;
}

/**
 * Downloads the request's zip (each document in it is recorded for the patient); a failure is
 * told to the person instead of opening an error page.
 */
export function downloadRequestZip(requestId: string): Promise<void> {
  return downloadFile(requestZipUrl(requestId), { fallback: "documents.zip" });
}

/** GET /api/dentist/offers?state=&page= ('Mes propositions', newest first, 10 a page, `has_more`). */
export function useDentistOffers(state: OfferState | null, page: number, enabled = true) {
  return useQuery({
    queryKey: offerKeys.list(state, page),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (state) params.set("state", state);
      params.set("page", String(page));
      return api<DentistOfferList>(`/api/dentist/offers?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

export type OfferWithdrawn = z.infer<typeof offerWithdrawnSchema>;

/**
 * POST /api/dentist/offers/:id/withdraw: the patient no longer sees the offer; the dentist may
 * send another while the request is open. 409 once accepted or closed.
 */
export function useWithdrawOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offer: { id: string; request_id: string }) =>
      api<OfferWithdrawn>(`/api/dentist/offers/${encodeURIComponent(offer.id)}/withdraw`, { method: "POST" }),
    onSuccess: ({ offer }) => {
      queryClient.setQueryData<MyOffer>(offerKeys.mine(offer.request_id), (current) =>
        current ? { ...current, offer } : current,
      );
    },
    onSettled: (_result, _error, offer) => {
      // Refused (409) too: the offer changed meanwhile, so both views reload it.
      void queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: offerKeys.mine(offer.request_id) });
      void queryClient.invalidateQueries({ queryKey: dentistKeys.request(offer.request_id), exact: true });
      for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
