import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { SupportMessage, SupportThreadList } from "../../../shared/schemas/support";
import { api } from "../../lib/api";
import { appendOnce, useOlderPages } from "../../lib/olderPages";
import { adminKeys, type SupportFilterRole } from "../../lib/queryKeys";
import { queryString } from "./api";

/** The support chat, the team's side: the inbox of threads, one thread, reading and replying. */

/** The inbox's filters: every thread, or one role's. */
export type { SupportFilterRole };

/** GET /api/admin/support/threads (latest first; patients and dentists, or one role; unread only). */
export function useSupportThreads(
  search: string,
  page: number,
  role: SupportFilterRole = "all",
  unread = false,
) {
  return useQuery({
    queryKey: adminKeys.threadList(search, page, role, unread),
    queryFn: ({ signal }) =>
      api<SupportThreadList>(
        `/api/admin/support/threads${queryString({
          search: search.trim(),
          page,
          role: role === "all" ? undefined : role,
          unread: unread ? "1" : undefined,
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export const THREAD_PAGE_SIZE = 30;

/** GET /api/admin/support/threads/:patientId/messages, oldest first, older pages on demand. */
export function useSupportThread(patientId: string | null) {
  return useOlderPages<SupportMessage>(
    adminKeys.thread(patientId ?? ""),
    (before) =>
      `/api/admin/support/threads/${encodeURIComponent(patientId ?? "")}/messages${queryString({
        before: before ?? undefined,
        limit: THREAD_PAGE_SIZE,
      })}`,
    Boolean(patientId),
  );
}

/** Adds a message at the end of a loaded thread (once: the live echo of a reply is ignored). */
export function appendToThread(queryClient: QueryClient, message: SupportMessage): void {
  appendOnce(queryClient, adminKeys.thread(message.patient_id), message);
}

/** POST /api/admin/support/threads/:patientId/read */
export function useMarkThreadRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patientId: string) =>
      api<{ read: number }>(`/api/admin/support/threads/${encodeURIComponent(patientId)}/read`, {
        method: "POST",
      }),
    onSuccess: (result) => {
      if (result.read === 0) return;
      void queryClient.invalidateQueries({ queryKey: adminKeys.threads() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

/** POST /api/admin/support/threads/:patientId/messages */
export function useSupportReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patientId, body }: { patientId: string; body: string }) =>
      api<SupportMessage>(`/api/admin/support/threads/${encodeURIComponent(patientId)}/messages`, {
        method: "POST",
        body: { body },
      }),
    onSuccess: (message) => {
      appendToThread(queryClient, message);
      void queryClient.invalidateQueries({ queryKey: adminKeys.threads() });
    },
  });
}
