import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { DentistSort } from "../../../shared/domain/geo";
import { journeyOf } from "../../../shared/domain/journey";
import type { DocumentType, Urgency } from "../../../shared/domain/requests";
import type { offerAcceptedSchema, offerUnacceptedSchema } from "../../../shared/schemas/offers";
import type { Comparison, Cover, QuoteLineDto, QuoteLineInput } from "../../../shared/schemas/quotes";
import type { QuoteReading, ReadingResponse } from "../../../shared/schemas/reading";
import type {
  PatientDashboard,
  RequestDetail,
  RequestList,
  VerifiedDentist,
} from "../../../shared/schemas/requests";
import { api } from "../../lib/api";
import { appointmentKeys, dentistsKeys, patientKeys } from "../../lib/queryKeys";
import { postMultipart } from "../../lib/upload";

/** The patient area's calls: one function (and hook) per endpoint. */

export { patientKeys };

/** GET /api/patient/dashboard */
export function usePatientDashboard() {
  return useQuery({
    queryKey: patientKeys.dashboard(),
    queryFn: ({ signal }) => api<PatientDashboard>("/api/patient/dashboard", { signal }),
  });
}

export const REQUESTS_PAGE_SIZE = 10;

/** GET /api/patient/requests?search=&page=&page_size= (search and paging are the server's). */
export function usePatientRequests(search: string, page: number, pageSize = REQUESTS_PAGE_SIZE) {
  return useQuery({
    queryKey: patientKeys.requests(search, page, pageSize),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), page_size: String(pageSize) });
      if (search) params.set("search", search);
      return api<RequestList>(`/api/patient/requests?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** GET /api/patient/requests/:id (404 for an unknown id or someone else's request). */
export function usePatientRequest(id: string) {
  return useQuery({
    queryKey: patientKeys.request(id),
    queryFn: ({ signal }) =>
      api<RequestDetail>(`/api/patient/requests/${encodeURIComponent(id)}`, { signal }),
  });
}

/** POST /api/patient/requests/:id/cancel */
export function useCancelRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ id: string; status: "cancelled" }>(`/api/patient/requests/${encodeURIComponent(id)}/cancel`, {
        method: "POST",
      }),
    onSuccess: ({ status }) => {
      queryClient.setQueryData<RequestDetail>(patientKeys.request(id), (current) =>
        current ? { ...current, status } : current,
      );
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

/**
 * POST /api/patient/requests/:id/consent/withdraw (issue 14): the consent to share is withdrawn and
 * the request closes to dentists (cancelled); 409 once it is finished or cancelled.
 */
export function useWithdrawConsent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ id: string; status: "cancelled"; message: string }>(
        `/api/patient/requests/${encodeURIComponent(id)}/consent/withdraw`,
        { method: "POST" },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

/**
 * DELETE /api/patient/requests/:id (issue 14): the request, its documents, offers and
 * conversations are erased; 409 (French message) once an offer on it was accepted.
 */
export function useDeleteRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ message: string }>(`/api/patient/requests/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: patientKeys.request(id) });
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

export type OfferAccepted = z.infer<typeof offerAcceptedSchema>;

/**
 * POST /api/patient/offers/:id/accept (ADR 011, ADR 016): the request is then 'accepted' (choose a
 * slot), this offer 'accepted' and every other offer 'closed'. 404 for someone else's offer; 409 (French message)
 * when it expired, was withdrawn, another was accepted or the request was cancelled.
 */
export function useAcceptOffer(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) =>
      api<OfferAccepted>(`/api/patient/offers/${encodeURIComponent(offerId)}/accept`, { method: "POST" }),
    onSuccess: ({ offer }) => {
      // What the server now holds, shown at once; the refetch below confirms it.
      queryClient.setQueryData<RequestDetail>(patientKeys.request(requestId), (current) =>
        current
          ? {
              ...current,
              status: "accepted",
              journey: journeyOf(
                { id: current.id, status: "accepted", open_offers: 0, appointment: null },
                new Date(),
              ),
              offers: current.offers.map((o) =>
                o.id === offer.id ? offer : o.state === "sent" ? { ...o, state: "closed" } : o,
              ),
            }
          : current,
      );
    },
    onSettled: () => {
      // A refusal (409) also means the offers changed meanwhile: reload them either way.
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });
}

export type OfferUnaccepted = z.infer<typeof offerUnacceptedSchema>;

/**
 * POST /api/patient/offers/:id/unaccept (issue 16, ADR 016): the patient changes their mind before
 * the appointment is confirmed; the offer is 'sent' again, the others still valid reopen, a pending
 * appointment is cancelled. 409 (French message) once the appointment is confirmed.
 */
export function useUnacceptOffer(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) =>
      api<OfferUnaccepted>(`/api/patient/offers/${encodeURIComponent(offerId)}/unaccept`, { method: "POST" }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: patientKeys.request(requestId) });
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });
}

/** GET /api/dentists/verified: by name, or 'Les plus proches' first (sort=distance) when the patient asks. */
export function useVerifiedDentists(sort: DentistSort = "name") {
  return useQuery({
    queryKey: dentistsKeys.verified(sort),
    queryFn: ({ signal }) =>
      api<{ items: VerifiedDentist[] }>(
        sort === "distance" ? "/api/dentists/verified?sort=distance" : "/api/dentists/verified",
        { signal },
      ).then((r) => r.items),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/patient/cover: 'Ma mutuelle', or null when the patient has not given it. */
export function useCover() {
  return useQuery({
    queryKey: patientKeys.cover(),
    queryFn: ({ signal }) =>
      api<{ cover: Cover | null }>("/api/patient/cover", { signal }).then((r) => r.cover),
  });
}

/** PUT /api/patient/cover (400 with fields by name) and DELETE /api/patient/cover. */
export function useSaveCover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cover: Cover | null) =>
      cover
        ? api<{ cover: Cover | null; message: string }>("/api/patient/cover", { method: "PUT", body: cover })
        : api<{ cover: null; message: string }>("/api/patient/cover", { method: "DELETE" }),
    onSuccess: ({ cover }) => {
      queryClient.setQueryData(patientKeys.cover(), cover);
      // Every estimate depends on the cover.
      void queryClient.invalidateQueries({ queryKey: patientKeys.comparisons() });
    },
  });
}

/**
 * GET /api/patient/requests/:id/comparison: each offer's estimated reste à charge for the patient's
 * cover (lowest first), the saving against the original quote and the lines aligned tooth by tooth.
 */
export function useComparison(id: string, version = "") {
  return useQuery({
    // `version`: what the page knows of the request (its offers and lines); when it changes, the
    // comparison is fetched again, the previous one shown meanwhile.
    queryKey: [...patientKeys.comparison(id), version] as const,
    queryFn: ({ signal }) =>
      api<Comparison>(`/api/patient/requests/${encodeURIComponent(id)}/comparison`, { signal }),
    // The previous comparison of the same request only, never another request's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
  });
}

export interface QuoteSaved {
  lines: QuoteLineDto[];
  quote_amount_cents: number | null;
  message: string;
}

/**
 * PUT /api/patient/requests/:id/quote: the lines of the patient's own devis (an empty list clears
 * them); 400 with fields "lines.N.field", 409 once the request is finished or cancelled.
 */
export function useSaveQuote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** The lines, or the lines with the reading they were read from (issue 17: confirms that reading). */
    mutationFn: (input: QuoteLineInput[] | { lines: QuoteLineInput[]; reading_id: string }) =>
      api<QuoteSaved>(`/api/patient/requests/${encodeURIComponent(id)}/quote`, {
        method: "PUT",
        body: Array.isArray(input) ? { lines: input } : { lines: input.lines, reading_id: input.reading_id },
      }),
    onSuccess: ({ lines, quote_amount_cents }) => {
      queryClient.setQueryData<RequestDetail>(patientKeys.request(id), (current) =>
        current ? { ...current, quote_lines: lines, quote_amount_cents } : current,
      );
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

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

export interface NewRequest {
  treatment_type: string;
  description: string;
  budget: string;
  quote_amount: string;
  urgency: Urgency;
  recipient: string;
  /** The devis line by line (optional): sent as the JSON field quote_lines when not empty. */
  quote_lines?: QuoteLineInput[];
  files: { file: File; type: DocumentType }[];
}

/** Multipart overhead of one part, approximately (boundary line and headers). */
const PART_OVERHEAD = 160;

/**
 * Where each file lies in the multipart body, in bytes (approximately: the headers' exact
 * length depends on the browser's boundary). Used to turn the body's progress into per-file
 * progress.
 */
export function fileOffsets(fields: Record<string, string>, files: File[]) {
  const encoder = new TextEncoder();
  let offset = 0;
  for (const [name, value] of Object.entries(fields)) {
    offset += PART_OVERHEAD + name.length + encoder.encode(value).length;
  }
  const ranges = files.map((file) => {
    offset += PART_OVERHEAD + encoder.encode(file.name).length + file.type.length;
    const start = offset;
    offset += file.size;
    return { start, end: offset };
  });
  return { ranges, total: offset + 64 };
}

/** Per-file progress (0–100) when `fraction` of the whole body has been sent. */
export function progressOfFiles(ranges: { start: number; end: number }[], total: number, fraction: number) {
  const sent = fraction * total;
  return ranges.map(({ start, end }) => {
    if (sent >= end) return 100;
    if (sent <= start) return 0;
    return Math.round(((sent - start) / Math.max(1, end - start)) * 100);
  });
}

/**
 * POST /api/patient/requests: the text fields first, then each file under `files`, sent with
 * XMLHttpRequest so `onProgress` receives each file's real progress (0–100, in file order).
 */
export function createRequest(input: NewRequest, onProgress?: (perFile: number[]) => void) {
  const fields: Record<string, string> = {
    treatment_type: input.treatment_type,
    description: input.description,
    budget: input.budget,
    quote_amount: input.quote_amount,
    urgency: input.urgency,
    recipient: input.recipient,
    consent: "true",
    document_types: JSON.stringify(input.files.map((f) => f.type)),
  };
  if (input.quote_lines && input.quote_lines.length > 0)
    fields.quote_lines = JSON.stringify(input.quote_lines);
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const { file } of input.files) body.append("files", file, file.name);
  const { ranges, total } = fileOffsets(
    fields,
    input.files.map((f) => f.file),
  );
  return postMultipart<{ id: string; message: string }>(
    "/api/patient/requests",
    body,
    onProgress ? (percent) => onProgress(progressOfFiles(ranges, total, percent / 100)) : undefined,
  ).then((r) => r.data);
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, onProgress }: { input: NewRequest; onProgress?: (perFile: number[]) => void }) =>
      createRequest(input, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
