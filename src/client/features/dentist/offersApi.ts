import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MyOffer, OfferDto, OfferInput, OfferValues } from "../../../shared/schemas/offers";
import { api } from "../../lib/api";
import { downloadFile } from "../../lib/download";
import { dentistKeys } from "./api";

/** The proposal page's calls (D14): this dentist's offer on a request, sending it, the zip. */

export const offerKeys = {
  mine: (requestId: string) => ["dentist", "request", requestId, "offer"] as const,
};

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
      }));
      void queryClient.invalidateQueries({ queryKey: dentistKeys.request(requestId), exact: true });
      void queryClient.invalidateQueries({ queryKey: ["dentist", "requests"] });
      void queryClient.invalidateQueries({ queryKey: dentistKeys.dashboard() });
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
