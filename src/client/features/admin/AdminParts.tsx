import { RefreshCw } from "lucide-react";
import { Button } from "../../components/ui/Button";
import { Skeleton } from "../../components/ui/Skeleton";

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
    <div className="grid gap-4" aria-busy="true">
      <p className="sr-only">Chargement...</p>
      {Array.from({ length: count }, (_, index) => `placeholder-${index}`).map((key) => (
        <Skeleton key={key} className={className} />
      ))}
    </div>
  );
}
