import { type RefObject, useCallback, useLayoutEffect, useRef } from "react";
import type { ChatMessage } from "../../../../shared/schemas/conversations";

/** Closer than this to the top, older messages load; to the bottom, new ones keep it in view. */
const EDGE_PX = 80;

interface OlderPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The thread's scrolling: the newest message in view on opening; older ones added above keep the
 * reading position; new ones scroll into view when the reader was at the bottom or wrote them.
 * Near the top, older messages load.
 */
export function useThreadScroll(
  messages: ChatMessage[],
  viewerId: string,
  { hasNextPage, isFetchingNextPage, fetchNextPage }: OlderPages,
): { scroller: RefObject<HTMLElement | null>; onScroll: () => void; loadOlder: () => void } {
  const scroller = useRef<HTMLElement>(null);
  const snapshot = useRef<{ firstId?: string; lastId?: string; height: number; top: number } | null>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const firstId = messages[0]?.id;
    const last = messages.at(-1);
    const previous = snapshot.current;
    if (!previous?.lastId) element.scrollTop = element.scrollHeight;
    else if (firstId !== previous.firstId && last?.id === previous.lastId)
      element.scrollTop = previous.top + (element.scrollHeight - previous.height);
    else if (last?.id !== previous.lastId && (atBottom.current || last?.sender_id === viewerId))
      element.scrollTop = element.scrollHeight;
    snapshot.current = { firstId, lastId: last?.id, height: element.scrollHeight, top: element.scrollTop };
  }, [messages, viewerId]);

  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < EDGE_PX;
    if (snapshot.current) {
      snapshot.current.top = element.scrollTop;
      snapshot.current.height = element.scrollHeight;
    }
    if (element.scrollTop < EDGE_PX) loadOlder();
  };

  return { scroller, onScroll, loadOlder };
}
