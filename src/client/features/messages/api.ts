import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChatMessage, ConversationList, MessagePage } from "../../../shared/schemas/conversations";
import { api } from "../../lib/api";
import { conversationKeys } from "../../lib/queryKeys";
import { postMultipart } from "../../lib/upload";
import { appendMessage, clearUnread, type ListData, markRead, type ThreadData } from "./cache";

/** The Messages screen's calls: one function (and hook) per endpoint. */

export { conversationKeys };

interface ReadResult {
  read: number;
  unread_total: number;
}

/** The query string of GET /api/conversations (empty values left out). */
export function conversationsQuery(search: string, cursor?: string): string {
  const params = new URLSearchParams();
  const term = search.trim();
  if (term) params.set("search", term);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** GET /api/conversations: newest activity first, server-side search, more pages by cursor. */
export function useConversations(search: string) {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: conversationKeys.list(search),
    queryFn: async ({ pageParam, signal }) => {
      const page = await api<ConversationList>(`/api/conversations${conversationsQuery(search, pageParam)}`, {
        signal,
      });
      queryClient.setQueryData(conversationKeys.unreadTotal(), page.unread_total);
      return page;
    },
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // While a new search runs, the previous list stays (no flash of skeletons at each letter).
    placeholderData: keepPreviousData,
  });
}

/** GET /api/conversations/:id/messages: the newest page first, then older pages `before` the oldest. */
export function useThread(id: string | null) {
  return useInfiniteQuery({
    queryKey: conversationKeys.thread(id ?? ""),
    queryFn: ({ pageParam, signal }) =>
      api<MessagePage>(
        `/api/conversations/${encodeURIComponent(id ?? "")}/messages${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    initialPageParam: "",
    getNextPageParam: (last) => (last.has_more ? last.items[0]?.id : undefined),
    enabled: Boolean(id),
  });
}

/** POST /api/conversations/:id/messages (multipart: body, files). */
export function sendMessage(conversationId: string, body: string, files: File[]): Promise<ChatMessage> {
  const form = new FormData();
  form.append("body", body);
  for (const file of files) form.append("files", file, file.name);
  return postMultipart<ChatMessage>(
    `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
    form,
  ).then((r) => r.data);
}

export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, files }: { body: string; files: File[] }) =>
      sendMessage(conversationId, body, files),
    onSuccess: (message) => {
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(message.conversation_id), (data) =>
        appendMessage(data, message),
      );
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  });
}

/** POST /api/conversations/:id/read: the viewer's received messages become read. */
export function useMarkRead(viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) =>
      api<ReadResult>(`/api/conversations/${encodeURIComponent(conversationId)}/read`, { method: "POST" }),
    onSuccess: (result, conversationId) => {
      queryClient.setQueryData(conversationKeys.unreadTotal(), result.unread_total);
      queryClient.setQueriesData<ListData>({ queryKey: conversationKeys.lists() }, (data) =>
        clearUnread(data, conversationId),
      );
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
        // Everything received until now is read (whatever the two clocks say).
        markRead(data, viewerId, new Date().toISOString(), viewerId, Number.POSITIVE_INFINITY),
      );
    },
  });
}
