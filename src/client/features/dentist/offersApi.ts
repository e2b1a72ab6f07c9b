import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { OfferInput, OfferValues } from "../../../shared/schemas/offers";
import { type MyOffer, OFFER_MESSAGES, type OfferDto } from "../../../shared/schemas/offers";
import { ApiError, api } from "../../lib/api";
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

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first), if any. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || null;
}

/**
 * Downloads the request's zip through an object URL (so a failure can be told to the person
 * instead of opening an error page). Each document in it is recorded for the patient.
 */
export async function downloadRequestZip(requestId: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(requestZipUrl(requestId), { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", "Le service n'a pas pu être joint.");
  }
  if (!response.ok) {
    const data = (await response.json().catch(() => null)) as {
      error?: { code?: string; message?: string };
    } | null;
    throw new ApiError(
      response.status,
      data?.error?.code ?? "HTTP_ERROR",
      data?.error?.message ?? OFFER_MESSAGES.zipFailed,
    );
  }
  const name = fileNameOf(response.headers.get("Content-Disposition")) ?? "documents.zip";
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
