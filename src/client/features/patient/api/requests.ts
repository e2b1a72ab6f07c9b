import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccessLogPage,
  PatientDashboard,
  RequestDetail,
  RequestList,
} from "../../../../shared/schemas/requests";
import { api } from "../../../lib/api";
import { patientKeys } from "../../../lib/queryKeys";

/** The patient's requests: the dashboard, the list, one request, and closing or erasing it. */

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

/**
 * GET /api/patient/requests/:id/access-log?page= — the pages after the first, which the request's
 * detail holds. Under the request's key: what refreshes the request refreshes its pages too.
 */
export function useAccessLogPage(id: string, page: number) {
  return useQuery({
    queryKey: [...patientKeys.request(id), "access-log", page] as const,
    queryFn: ({ signal }) =>
      api<AccessLogPage>(`/api/patient/requests/${encodeURIComponent(id)}/access-log?page=${page}`, {
        signal,
      }),
    enabled: page > 1,
    placeholderData: keepPreviousData,
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
 * POST /api/patient/requests/:id/open-to-all (ADR 073): a request addressed to one dentist is sent
 * to every verified dentist, with the patient's new consent; 409 once it is finished or cancelled.
 */
/**
 * POST …/open-to-all. `onOpened` runs with the mutation, not with the button: the live channel may
 * reload the request first, and the button (shown only while it is addressed to one dentist) goes.
 */
export function useOpenToAll(id: string, onOpened: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ id: string; message: string }>(`/api/patient/requests/${encodeURIComponent(id)}/open-to-all`, {
        method: "POST",
        body: { consent: true },
      }),
    onSuccess: ({ message }) => {
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      onOpened(message);
    },
  });
}

/**
 * DELETE /api/patient/requests/:id (issue 14): the request, its documents, offers and
 * conversations are erased; 409 (French message) once an offer on it was accepted. `onDeleted`
 * runs with the mutation itself, not with the page: the live channel may tell this tab of the
 * deletion first, its page then reads « Demande non trouvée » and unmounts before the answer comes
 * (a callback given to `mutate` would then never run, and the tab would stay there).
 */
export function useDeleteRequest(id: string, onDeleted: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ message: string }>(`/api/patient/requests/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: ({ message }) => {
      queryClient.removeQueries({ queryKey: patientKeys.request(id) });
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      onDeleted(message);
    },
  });
}
