import { ChevronLeft, ChevronRight } from "lucide-react";
import { type ReactNode, useId, useLayoutEffect, useRef } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./Button";
import { Skeleton } from "./Skeleton";

export interface Column<T> {
  /** Column heading (also the label of the value in the card layout). */
  header: string;
  cell: (row: T) => ReactNode;
  /** Classes of the table cells of this column. */
  className?: string;
  /** Hide the label in the card layout (for an action column). */
  hideLabelInCard?: boolean;
}

interface DataTableProps<T> {
  /** Accessible name of the table (a visually hidden caption). */
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  /** Skeleton rows while loading (the expected page size, so nothing jumps). */
  loadingRows?: number;
  /** Shown instead of the table when the load failed. */
  error?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Server paging; shown when there is more than one page. */
  paging?: { page: number; pageCount: number; onPageChange: (page: number) => void };
  /** Cards instead of the table under 768 px; off for small side tables if wanted. */
  cardsOnMobile?: boolean;
  className?: string;
}

/**
 * A table with its loading (skeleton rows), error, empty states and server paging; under 768 px
 * each row becomes a card listing "column: value" (a wide table does not fit a phone).
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading = false,
  loadingRows = 5,
  error,
  empty,
  paging,
  cardsOnMobile = true,
  className,
}: DataTableProps<T>) {
  const captionId = useId();
  if (error && !loading) return <>{error}</>;
  if (!loading && rows && rows.length === 0 && empty) return <>{empty}</>;

  const skeletonKeys = Array.from({ length: loadingRows }, (_, i) => `skeleton-${i}`);

  return (
    <div className={cn("grid gap-4", className)} aria-busy={loading || undefined}>
      {loading ? <p className="sr-only">Chargement...</p> : null}
      {/* A table wider than its column scrolls sideways: the keyboard must reach it (axe's
          "scrollable-region-focusable", seen on /dentist/profile whenever the invoice list overflowed). */}
      <section
        className={cn(
          "relative overflow-x-auto rounded-ui border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700",
          cardsOnMobile && "hidden md:block",
        )}
        aria-labelledby={captionId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that may scroll sideways; the keyboard must reach it.
        tabIndex={0}
      >
        <table className="w-full text-left text-sm">
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
            <tr>
              {columns.map((column) => (
                <th
                  key={column.header}
                  scope="col"
                  className={cn("px-4 py-3 font-semibold", column.className)}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 tabular-nums">
            {loading
              ? skeletonKeys.map((key) => (
                  <tr key={key} className="h-14">
                    {columns.map((column) => (
                      <td key={column.header} className="px-4 py-3">
                        <Skeleton className="h-5 w-24" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows?.map((row) => (
                  <tr key={rowKey(row)} className="h-14">
                    {columns.map((column) => (
                      <td key={column.header} className={cn("px-4 py-3 text-slate-900", column.className)}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </section>
      {cardsOnMobile ? (
        <ul className="grid gap-3 md:hidden" aria-label={caption}>
          {loading
            ? skeletonKeys.map((key) => (
                <li key={key} className="rounded-ui border border-slate-200 bg-white p-4 shadow-sm">
                  <Skeleton className="mb-3 h-5 w-32" />
                  <Skeleton className="mb-3 h-5 w-48" />
                  <Skeleton className="h-5 w-20" />
                </li>
              ))
            : rows?.map((row) => (
                <li key={rowKey(row)} className="rounded-ui border border-slate-200 bg-white p-4 shadow-sm">
                  <dl className="grid gap-2 text-sm">
                    {columns.map((column) =>
                      column.hideLabelInCard ? (
                        <div key={column.header} className="pt-1">
                          <dt className="sr-only">{column.header}</dt>
                          <dd className="min-w-0 wrap-anywhere">{column.cell(row)}</dd>
                        </div>
                      ) : (
                        <div
                          key={column.header}
                          className="flex flex-wrap items-center justify-between gap-2"
                        >
                          <dt className="font-medium text-slate-600">{column.header}</dt>
                          <dd className="min-w-0 text-right wrap-anywhere text-slate-900">
                            {column.cell(row)}
                          </dd>
                        </div>
                      ),
                    )}
                  </dl>
                </li>
              ))}
        </ul>
      ) : null}
      {paging && paging.pageCount > 1 ? <Pagination {...paging} /> : null}
    </div>
  );
}

/** What a QueryTable reads of its list query: the page's rows, and whether the first load runs. */
interface ListQuery<T> {
  data?: { items: T[] };
  isPending: boolean;
}

/** The DataTable of a list query's page: its rows, each keyed by its id, skeleton rows while it loads. */
export function QueryTable<T extends { id: string }>({
  query,
  ...table
}: Omit<DataTableProps<T>, "rows" | "rowKey" | "loading"> & { query: ListQuery<T> }) {
  return <DataTable {...table} rows={query.data?.items} rowKey={(row) => row.id} loading={query.isPending} />;
}

interface PaginationProps {
  page: number;
  /** The number of pages when known; otherwise `hasMore` says whether a next page exists. */
  pageCount?: number;
  hasMore?: boolean;
  onPageChange: (page: number) => void;
}

/** 'Précédent' / 'Page x sur y' (or 'Page x' when the total is unknown) / 'Suivant'. */
export function Pagination({
  page,
  pageCount,
  hasMore,
  onPageChange,
  className,
}: PaginationProps & { className?: string }) {
  const last = pageCount === undefined ? !hasMore : page >= pageCount;
  const first = page <= 1;
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  /** The button last pressed, until its page is shown. */
  const pressed = useRef<HTMLButtonElement | null>(null);
  useLayoutEffect(() => {
    const button = pressed.current;
    if (!button) return;
    const active = document.activeElement;
    // Moved on meanwhile: nothing to do.
    if (active !== button && active !== document.body) {
      pressed.current = null;
      return;
    }
    // The first or the last page reached, the pressed button is disabled: the focus goes to the
    // other one, not to the page's body (the next Tab from the top of the page).
    if (button === next.current && last) previous.current?.focus();
    else if (button === previous.current && first) next.current?.focus();
    else return;
    pressed.current = null;
  });
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-between gap-3", className)}>
      <Button
        ref={previous}
        variant="outline"
        size="sm"
        disabled={first}
        onClick={(event) => {
          pressed.current = event.currentTarget;
          onPageChange(page - 1);
        }}
      >
        <ChevronLeft aria-hidden="true" />
        Précédent
      </Button>
      <p className="text-sm text-slate-700" aria-live="polite">
        {pageCount === undefined ? `Page ${page}` : `Page ${page} sur ${pageCount}`}
      </p>
      <Button
        ref={next}
        variant="outline"
        size="sm"
        disabled={last}
        onClick={(event) => {
          pressed.current = event.currentTarget;
          onPageChange(page + 1);
        }}
      >
        Suivant
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}

/**
 * The pagination of a list paged by `has_more` (total unknown), shown once a page is loaded and
 * there is more than one: nothing while `hasMore` is undefined (no page yet).
 */
export function ListPagination({
  hasMore,
  ...props
}: {
  page: number;
  hasMore: boolean | undefined;
  onPageChange: (page: number) => void;
  className?: string;
}) {
  if (hasMore === undefined || (props.page <= 1 && !hasMore)) return null;
  return <Pagination hasMore={hasMore} {...props} />;
}
