import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { DistanceFilter } from "../../../shared/domain/geo";
import type { TreatmentType } from "../../../shared/domain/treatments";
import type {
  BulkSetAsideResult,
  DentistDashboard,
  DentistListStatus,
  DentistRequestDetail,
  DentistRequestList,
} from "../../../shared/schemas/dentist";
import { api } from "../../lib/api";
import { dentistKeys } from "../../lib/queryKeys";

/** The dentist area's calls (requests, dashboard): one function (and hook) per endpoint. */

export type StatusFilter = "all" | DentistListStatus;

export interface DentistListFilters {
  search: string;
  status: StatusFilter;
  /** A treatment type, or "" for all. */
  treatment: TreatmentType | "";
  /** Patients within this many km of his practice (ADR 094), or "" for all. */
  within: DistanceFilter | "";
  page: number;
}

export const DENTIST_REQUESTS_PAGE_SIZE = 10;

export { dentistKeys };

/** The query string of GET /api/dentist/requests for these filters (defaults left out). */
export function dentistRequestsQuery(
  filters: DentistListFilters,
  pageSize = DENTIST_REQUESTS_PAGE_SIZE,
): URLSearchParams {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set("search", search);
  if (filters.status !== "all") params.set("status", filters.status);
  if (filters.treatment) params.set("treatment", filters.treatment);
  if (filters.within) params.set("within_km", filters.within);
  params.set("page", String(filters.page));
  params.set("page_size", String(pageSize));
  return params;
}

/** GET /api/dentist/dashboard */
export function useDentistDashboard() {
  return useQuery({
    queryKey: dentistKeys.dashboard(),
    queryFn: ({ signal }) => api<DentistDashboard>("/api/dentist/dashboard", { signal }),
  });
}

/** GET /api/dentist/requests (search, filters and paging are the server's). */
export function useDentistRequests(filters: DentistListFilters, pageSize = DENTIST_REQUESTS_PAGE_SIZE) {
  return useQuery({
    queryKey: dentistKeys.requests(filters, pageSize),
    queryFn: ({ signal }) =>
      api<DentistRequestList>(`/api/dentist/requests?${dentistRequestsQuery(filters, pageSize)}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/dentist/requests/:id (404 for an unknown id or a request this dentist cannot see).
 * Opening it clears the 'Nouvelle' mark on the server, so the lists are refreshed next time.
 */
export function useDentistRequest(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: dentistKeys.request(id),
    queryFn: async ({ signal }) => {
      const detail = await api<DentistRequestDetail>(`/api/dentist/requests/${encodeURIComponent(id)}`, {
        signal,
      });
      for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
      return detail;
    },
    retry: (count, error) => !(error && "status" in error && error.status === 404) && count < 2,
  });
}

/** POST /api/dentist/requests/:id/assign */
export function useAssignRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ message: string }>(`/api/dentist/requests/${encodeURIComponent(id)}/assign`, { method: "POST" }),
    onSuccess: () => {
      queryClient.setQueryData<DentistRequestDetail>(dentistKeys.request(id), (current) =>
        current ? { ...current, assigned: true } : current,
      );
    },
  });
}

/**
 * POST (set aside) or DELETE (put back) /api/dentist/requests/:id/set-aside (« Ne pas donner suite »,
 * ADR 091); its message. His lists and counters reload; the request's page is updated in place
 * (loading it again would record a view in the patient's access history). A function, not a hook: the
 * toast's « Annuler » calls it again once the row that asked is gone from the list.
 */
export async function setAsideRequest(queryClient: QueryClient, id: string, aside: boolean): Promise<string> {
  const { message } = await api<{ message: string }>(
    `/api/dentist/requests/${encodeURIComponent(id)}/set-aside`,
    { method: aside ? "POST" : "DELETE" },
  );
  queryClient.setQueryData<DentistRequestDetail>(dentistKeys.request(id), (current) =>
    current ? { ...current, set_aside: aside } : current,
  );
  for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
  return message;
}

/**
 * POST /api/dentist/requests/set-aside (ADR 091's addendum): several requests set aside (`aside`) or
 * put back at once; the ids changed and the server's message. His screens reload as for one.
 */
export async function setAsideRequests(
  queryClient: QueryClient,
  ids: readonly string[],
  aside: boolean,
): Promise<BulkSetAsideResult> {
  const result = await api<BulkSetAsideResult>("/api/dentist/requests/set-aside", {
    method: "POST",
    body: { ids, aside },
  });
  for (const id of result.changed)
    queryClient.setQueryData<DentistRequestDetail>(dentistKeys.request(id), (current) =>
      current ? { ...current, set_aside: aside } : current,
    );
  for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
  return result;
}

/** POST /api/dentist/requests/:id/reply (201; 409 once this dentist is no longer pending). */
export function useReplyToRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) =>
      api<{ conversation_id: string; message: string }>(
        `/api/dentist/requests/${encodeURIComponent(id)}/reply`,
        { method: "POST", body: { message } },
      ),
    onSuccess: ({ conversation_id }) => {
      queryClient.setQueryData<DentistRequestDetail>(dentistKeys.request(id), (current) =>
        current ? { ...current, my_status: "responded", assigned: true, conversation_id } : current,
      );
      for (const queryKey of dentistKeys.work()) void queryClient.invalidateQueries({ queryKey });
    },
  });
}

/** The URL that shows a document in the browser (the session cookie goes with it). */
export function documentViewUrl(id: string): string {
  return `/api/documents/${encodeURIComponent(id)}/file?disposition=inline`;
}
