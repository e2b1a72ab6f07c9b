import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { ofName } from "../../../../shared/format/names";
import type { ChatMessage, ConversationSummary } from "../../../../shared/schemas/conversations";
import { useRealtimeEvents } from "../../../lib/realtime";
import { conversationKeys, useMarkRead } from "../api";
import { appendMessage, markRead, type ThreadData } from "../cache";

function subscribeVisibility(listener: () => void) {
  document.addEventListener("visibilitychange", listener);
  return () => document.removeEventListener("visibilitychange", listener);
}

/** Whether this tab is visible (a message arriving in a hidden tab stays unread). */
function useDocumentVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== "hidden",
    () => true,
  );
}

function attachmentsText(count: number): string {
  return count > 1 ? `${count} pièces jointes` : "une pièce jointe";
}

/**
 * Keeps an open conversation live: new messages and read receipts update it in place (a new message
 * from the other party is announced to screen readers), and what is unread is marked read while the
 * tab is visible. Returns the announcement of the last message received.
 */
export function useLiveThread({
  conversationId,
  viewerId,
  otherName,
  messages,
  conversation,
}: {
  conversationId: string;
  viewerId: string;
  otherName: string;
  messages: ChatMessage[];
  conversation: ConversationSummary | undefined;
}): string {
  const queryClient = useQueryClient();
  const read = useMarkRead(viewerId);
  const visible = useDocumentVisible();
  const [announcement, setAnnouncement] = useState("");

  // Live: new messages and read receipts of this conversation update it in place.
  useRealtimeEvents((notice) => {
    if (notice.type === "message" && notice.conversation_id === conversationId) {
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
        appendMessage(data, notice.message),
      );
      if (notice.message.sender_id !== viewerId) {
        const text = notice.message.body || attachmentsText(notice.message.attachments.length);
        setAnnouncement(
          `Nouveau message ${otherName ? ofName(otherName) : "de votre interlocuteur"} : ${text}`,
        );
      }
    } else if (notice.type === "read" && notice.conversation_id === conversationId) {
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
        markRead(data, notice.reader_id, notice.read_at, viewerId),
      );
    }
  });

  // Opening the conversation, or receiving a message while it is open and the tab visible, marks it read.
  const unreadId = messages.findLast((m) => m.sender_id !== viewerId && !m.read_at)?.id;
  // What is left to read: the newest unread message (a new one asks again), or the server's count.
  const toRead = unreadId ?? ((conversation?.unread_count ?? 0) > 0 ? "count" : null);
  const markConversationRead = read.mutate;
  useEffect(() => {
    if (toRead && visible) markConversationRead(conversationId);
  }, [toRead, visible, conversationId, markConversationRead]);
  return announcement;
}
