import type { InfiniteData } from "@tanstack/react-query";
import type { ChatMessage, ConversationList, MessagePage } from "../../../shared/schemas/conversations";

/*
 * Pure updates of the cached conversations, used by the live events and after a send or a read.
 * A thread is an infinite query whose first page holds the newest messages and each next page
 * older ones (fetched `before` the oldest id); every page is ordered oldest first.
 */

export type ThreadData = InfiniteData<MessagePage, string>;
export type ListData = InfiniteData<ConversationList, string>;

const byCreatedAt = (a: ChatMessage, b: ChatMessage) => Date.parse(a.created_at) - Date.parse(b.created_at);

/** Every loaded message of a thread, oldest first, each once. */
export function threadMessages(data: { pages: MessagePage[] } | undefined): ChatMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (const page of [...data.pages].reverse()) {
    for (const message of page.items) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out;
}

/** Adds a new message to the newest page (once: the sender gets it from the POST and the socket). */
export function appendMessage(data: ThreadData | undefined, message: ChatMessage): ThreadData | undefined {
  const newest = data?.pages[0];
  if (!data || !newest) return data;
  if (data.pages.some((page) => page.items.some((m) => m.id === message.id))) return data;
  const items = [...newest.items, message].sort(byCreatedAt);
  return { ...data, pages: [{ ...newest, items }, ...data.pages.slice(1)] };
}

/**
 * A read receipt: `readerId` read the conversation at `readAt`, so every message the other party
 * sent until then is read. The first page's summary loses its unread count when it is the viewer's.
 */
export function markRead(
  data: ThreadData | undefined,
  readerId: string,
  readAt: string,
  viewerId: string,
  /** Messages sent after this instant stay unread (the receipt's own time by default). */
  until: number = Date.parse(readAt),
): ThreadData | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page, index) => {
    let pageChanged = false;
    const items = page.items.map((message) => {
      if (message.read_at || message.sender_id === readerId || Date.parse(message.created_at) > until)
        return message;
      pageChanged = true;
      return { ...message, read_at: readAt };
    });
    const clearCount = index === 0 && readerId === viewerId && page.conversation.unread_count > 0;
    if (!pageChanged && !clearCount) return page;
    changed = true;
    return {
      ...page,
      items,
      conversation: clearCount ? { ...page.conversation, unread_count: 0 } : page.conversation,
    };
  });
  return changed ? { ...data, pages } : data;
}

/** The viewer has read this conversation: its unread count in a list becomes 0. */
export function clearUnread(data: ListData | undefined, conversationId: string): ListData | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => ({
    ...page,
    items: page.items.map((item) => {
      if (item.id !== conversationId || item.unread_count === 0) return item;
      changed = true;
      return { ...item, unread_count: 0 };
    }),
  }));
  return changed ? { ...data, pages } : data;
}
