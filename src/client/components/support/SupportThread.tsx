import { type ReactNode, useLayoutEffect, useRef } from "react";
import type { SupportMessage } from "../../../shared/schemas/support";
import { SupportBubble } from "../SupportBubble";
import { Button } from "../ui/Button";
import { LoadError } from "../ui/LoadError";
import { Loading } from "../ui/Loading";
import { Skeleton } from "../ui/Skeleton";

/** What the thread needs of its (infinite, newest page first) query. */
export interface SupportThreadQuery {
  isPending: boolean;
  isError: boolean;
  data: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  refetch: () => unknown;
  fetchNextPage: () => unknown;
}

/**
 * The messages of one support thread, oldest first, as both sides see them (the person's help page,
 * the team's inbox): a placeholder while loading, an error with a retry, `empty` when there is
 * nothing yet, 'Messages précédents' while older pages remain, and the newest message kept in view
 * when one arrives (not when older ones are loaded).
 */
export function SupportThread({
  query,
  items,
  mine,
  author,
  loadFailed,
  empty,
  mineFirst,
}: {
  query: SupportThreadQuery;
  items: SupportMessage[];
  mine: (message: SupportMessage) => boolean;
  author: (message: SupportMessage) => string;
  loadFailed: string;
  empty?: ReactNode;
  /** Whether the loading placeholder starts with the reader's own side (on the right). */
  mineFirst: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const lastId = items.at(-1)?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the last message changes.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lastId]);

  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto p-3">
      {query.isPending ? (
        <Loading className="grid gap-3">
          <Skeleton className={mineFirst ? "ml-auto h-16 w-2/3" : "h-16 w-2/3"} />
          <Skeleton className={mineFirst ? "h-16 w-2/3" : "ml-auto h-16 w-2/3"} />
        </Loading>
      ) : query.isError && !query.data ? (
        <LoadError title={loadFailed} onRetry={() => void query.refetch()} />
      ) : items.length === 0 && empty ? (
        empty
      ) : (
        <>
          {query.hasNextPage ? (
            <div className="mb-3 flex justify-center">
              <Button
                variant="outline"
                size="sm"
                loading={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Messages précédents
              </Button>
            </div>
          ) : null}
          <ol className="grid gap-3" aria-label="Messages">
            {items.map((message) => (
              <SupportBubble
                key={message.id}
                message={message}
                mine={mine(message)}
                author={author(message)}
              />
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
