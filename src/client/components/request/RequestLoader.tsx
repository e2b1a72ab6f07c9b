import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { toast } from "sonner";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { PageHeader } from "../PageHeader";
import { LoadError } from "../ui/LoadError";
import { Loading } from "../ui/Loading";
import { Skeleton } from "../ui/Skeleton";
import { BackButton } from "./RequestParts";

/**
 * A request's detail page, for patients and dentists alike: 'Retour', then the skeleton while the
 * request loads, 'Demande non trouvée' on a 404 (another person's request answers 404 too), the
 * error with 'Réessayer' (and a toast) on any other failure, else the page itself.
 */
export function RequestLoader<T>({
  query,
  title,
  loadError,
  toastId,
  backTo,
  back,
  waiting = false,
  skeleton,
  notFound,
  children,
}: {
  query: UseQueryResult<T>;
  /** The page's title while it loads or when it fails. */
  title: string;
  loadError: string;
  toastId: string;
  /** Where 'Retour' leads when there is no history. */
  backTo?: string;
  /** A link back of the page's own, instead of 'Retour'. */
  back?: ReactNode;
  /** Something else the page waits for once the request is there (the skeleton stays). */
  waiting?: boolean;
  /** The heights of the skeleton's cards (see RequestSkeleton). */
  skeleton: readonly string[];
  notFound: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const notFoundError = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !notFoundError) toast.error(loadError, { id: toastId });
  }, [query.isError, notFoundError, loadError, toastId]);

  return (
    <>
      {back ?? (backTo ? <BackButton fallback={backTo} /> : null)}
      {query.isPending || (query.isSuccess && waiting) ? (
        <RequestSkeleton title={title} cards={skeleton} />
      ) : notFoundError ? (
        notFound
      ) : query.isError ? (
        <>
          <PageHeader title={title} />
          <LoadError
            title={loadError}
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        children(query.data)
      )}
    </>
  );
}

/**
 * The page's outline while it loads: its title (for screen readers and the tab), a header, and
 * cards of the given Tailwind classes on a three-column grid.
 */
export function RequestSkeleton({ title, cards }: { title: string; cards: readonly string[] }) {
  useDocumentTitle(title);
  return (
    <Loading>
      <h1 className="sr-only">{title}</h1>
      <div className="mb-6 grid gap-3">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-48" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        {cards.map((classes, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed outline, never reordered
          <Skeleton key={index} className={classes} />
        ))}
      </div>
    </Loading>
  );
}
