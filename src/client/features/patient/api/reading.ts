import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DocumentType } from "../../../../shared/domain/requests";
import type { DocumentTypeSaved } from "../../../../shared/schemas/documents";
import type { QuoteReading, ReadingResponse } from "../../../../shared/schemas/reading";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { api } from "../../../lib/api";
import { patientKeys } from "../../../lib/queryKeys";

/** The reading of a devis on the server (issue 17): its state, reading again, dismissing it, its pages. */

/** The reading is still being made: the screen asks again this often, should the live event be missed. */
export const READING_POLL_MS = 5000;

const readingPath = (requestId: string) => `/api/patient/requests/${encodeURIComponent(requestId)}`;

/**
 * GET /api/patient/requests/:id/reading (issue 17): the request's latest reading of its devis, or null.
 * Refreshed by the realtime event 'reading', and every 5 s while it is pending.
 */
export function useReading(requestId: string, enabled = true) {
  return useQuery({
    queryKey: patientKeys.reading(requestId),
    queryFn: ({ signal }) =>
      api<ReadingResponse>(`${readingPath(requestId)}/reading`, { signal }).then((r) => r.reading),
    enabled,
    refetchInterval: (query) => (query.state.data?.status === "pending" ? READING_POLL_MS : false),
  });
}

/** POST /api/patient/requests/:id/documents/:documentId/read → 202 { reading }: (re)reads a devis. */
export function useReadDocument(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) =>
      api<{ reading: QuoteReading }>(
        `${readingPath(requestId)}/documents/${encodeURIComponent(documentId)}/read`,
        { method: "POST" },
      ),
    onSuccess: ({ reading }) => {
      queryClient.setQueryData(patientKeys.reading(requestId), reading);
    },
    onError: () => {
      // 409 (already reading, request closed): show what the server now holds.
      void queryClient.invalidateQueries({ queryKey: patientKeys.reading(requestId) });
    },
  });
}

/** POST /api/patient/requests/:id/reading/:readingId/dismiss: the patient types the lines themselves. */
export function useDismissReading(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (readingId: string) =>
      api<{ reading: QuoteReading; message: string }>(
        `${readingPath(requestId)}/reading/${encodeURIComponent(readingId)}/dismiss`,
        { method: "POST" },
      ),
    onSuccess: ({ reading }) => {
      queryClient.setQueryData(patientKeys.reading(requestId), reading);
    },
  });
}

/** GET …/reading/:readingId/pages/:page: the preview of a page read (PNG, 1-based). */
export function readingPageUrl(requestId: string, readingId: string, page: number): string {
  return `${readingPath(requestId)}/reading/${encodeURIComponent(readingId)}/pages/${page}`;
}

/**
 * PATCH /api/patient/requests/:id/documents/:documentId { type } (issue 34): corrects a document's type;
 * made a devis on a request without lines, it is read (the reading is in the answer).
 */
export function useChangeDocumentType(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, type }: { documentId: string; type: DocumentType }) =>
      api<DocumentTypeSaved>(`${readingPath(requestId)}/documents/${encodeURIComponent(documentId)}`, {
        method: "PATCH",
        body: { type },
      }),
    onSuccess: ({ document, reading }) => {
      queryClient.setQueryData<RequestDetail>(patientKeys.request(requestId), (current) =>
        current
          ? { ...current, documents: current.documents.map((d) => (d.id === document.id ? document : d)) }
          : current,
      );
      if (reading) queryClient.setQueryData(patientKeys.reading(requestId), reading);
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}
