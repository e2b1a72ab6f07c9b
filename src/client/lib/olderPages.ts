import { type InfiniteData, type QueryClient, type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./api";

/*
 * A support thread as an infinite query: the first page holds the newest messages, each next
 * page older ones, fetched `before` the oldest loaded id; every page is ordered oldest first.
 * The patient's or dentist's side and the team's side read their thread this way.
 */

export interface OlderPage<T> {
  items: T[];
  has_more: boolean;
}

export type OlderPagesData<T> = InfiniteData<OlderPage<T>, string | null>;

/** Such a thread (`enabled`: false until there is one to read); `url` gets the id to read before (or null). */
export function useOlderPages<T extends { id: string }>(
  queryKey: QueryKey,
  url: (before: string | null) => string,
  enabled = true,
) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => api<OlderPage<T>>(url(pageParam), { signal }),
    getNextPageParam: (last) => (last.has_more ? (last.items[0]?.id ?? null) : null),
    enabled,
  });
}

/** The loaded messages, oldest first. */
export function oldestFirst<T>(data: { pages: OlderPage<T>[] } | undefined): T[] {
  if (!data) return [];
  return [...data.pages].reverse().flatMap((page) => page.items);
}

/** Adds a message at the end of a loaded thread (once: the live echo of a sent one is ignored). */
export function appendOnce<T extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  message: T,
): void {
  queryClient.setQueryData<OlderPagesData<T>>(queryKey, (data) => {
    if (!data) return data;
    if (data.pages.some((page) => page.items.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, items: [...first.items, message] }, ...rest] };
  });
}
