import type { LucideIcon } from "lucide-react";
import { RefreshCw } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../components/ui/Button";
import { ListPagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Loading } from "../../components/ui/Loading";
import { Skeleton } from "../../components/ui/Skeleton";
import { useDebounced } from "./api";

/**
 * A suspension or a withdrawn verification done: its message as a success, or as a warning that
 * stays when the dentist's subscription could not be stopped (the team must do it at the provider).
 */
export function toastDecision(result: { renewal: "stopped" | "failed" | null; message: string }) {
  if (result.renewal === "failed") toast.warning(result.message, { duration: Number.POSITIVE_INFINITY });
  else toast.success(result.message);
}

/** What a refresh button needs of its query. */
interface Refetchable {
  isFetching: boolean;
  isPending: boolean;
  refetch: () => unknown;
}

/**
 * 'Actualiser' on the admin lists: reloads the query, spinning while it does (not on the first
 * load, which shows the list's placeholder).
 */
export function RefreshButton({ query, label }: { query: Refetchable; label?: string }) {
  return (
    <Button
      variant="outline"
      aria-label={label}
      loading={query.isFetching && !query.isPending}
      onClick={() => void query.refetch()}
    >
      <RefreshCw aria-hidden="true" />
      Actualiser
    </Button>
  );
}

/** The placeholder of a list of cards while it loads (announced as 'Chargement...'). */
export function CardsSkeleton({ count, className }: { count: number; className: string }) {
  return (
    <Loading className="grid gap-4">
      {Array.from({ length: count }, (_, index) => `placeholder-${index}`).map((key) => (
        <Skeleton key={key} className={className} />
      ))}
    </Loading>
  );
}

/** 'Réessayer' after a failed first load (a failed refresh keeps the list shown), or undefined. */
export function loadFailure(
  query: { isError: boolean; data: unknown; refetch: () => unknown },
  title: string,
): ReactNode {
  return query.isError && !query.data ? (
    <LoadError title={title} onRetry={() => void query.refetch()} />
  ) : undefined;
}

/**
 * The state of a server-side admin list: what is typed in its search box (asked for once typing
 * pauses), its filters and its page; a new search or filter starts at the first page.
 */
export function usePagedList<F extends object>(initialFilters: F) {
  const [typed, setTyped] = useState("");
  const search = useDebounced(typed.trim());
  const [filters, setFilters] = useState(initialFilters);
  const [page, setPage] = useState(1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts at its first page.
  useEffect(() => setPage(1), [search, filters]);

  const setFilter = <K extends keyof F>(key: K, value: F[K]) =>
    setFilters((current) => (current[key] === value ? current : { ...current, [key]: value }));

  return { typed, setTyped, search, filters, setFilter, page, setPage };
}

/** A page of the server's answer (total unknown: `has_more` says whether a next page exists). */
interface Paged<T> {
  items: T[];
  has_more: boolean;
}

/**
 * A paged list of cards (contact messages, verification requests): placeholder cards while the
 * first page loads, 'Réessayer' if it failed, the empty state, then the cards and the pagination.
 */
export function CardList<T extends { id: string }>({
  query,
  label,
  failed,
  skeleton,
  empty,
  page,
  onPageChange,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: Paged<T> | undefined; refetch: () => unknown };
  /** The list's accessible name. */
  label: string;
  /** The title of the load error. */
  failed: string;
  skeleton: { count: number; className: string };
  empty: { icon: LucideIcon; title: string; description: string };
  page: number;
  onPageChange: (page: number) => void;
  children: (item: T) => ReactNode;
}) {
  const data = query.data;
  return (
    <>
      {query.isPending ? (
        <CardsSkeleton {...skeleton} />
      ) : (
        (loadFailure(query, failed) ??
        (data && data.items.length === 0 ? (
          <EmptyState {...empty} />
        ) : (
          <ul className="grid gap-4" aria-label={label}>
            {data?.items.map((item) => (
              <li key={item.id}>{children(item)}</li>
            ))}
          </ul>
        )))
      )}
      <ListPagination page={page} hasMore={data?.has_more} onPageChange={onPageChange} className="mt-4" />
    </>
  );
}
