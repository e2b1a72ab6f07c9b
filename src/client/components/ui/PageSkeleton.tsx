import { Skeleton } from "./Skeleton";

/**
 * What a page looks like while it loads (a title, a line, three cards), instead of a blank
 * screen with 'Chargement...': the layout is there at once and nothing jumps when the page
 * arrives. Screen readers hear "Chargement de la page…" once (role=status).
 */
export function PageSkeleton() {
  return (
    <div role="status" className="grid gap-6 py-2" data-testid="page-skeleton">
      <span className="sr-only">Chargement de la page…</span>
      <div className="grid gap-3">
        <Skeleton className="h-8 w-2/3 max-w-sm" />
        <Skeleton className="h-4 w-full max-w-lg" />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
      <Skeleton className="h-40" />
    </div>
  );
}

/**
 * The signed-in shell before the session is known (just after login, on a reload): a header bar
 * and the page skeleton, in place of the blank 'Chargement...' screen.
 */
export function ShellSkeleton() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <div className="h-16 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
          <Skeleton className="h-7 w-28" />
          <Skeleton className="ml-auto size-9 rounded-full" />
        </div>
      </div>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <PageSkeleton />
      </main>
    </div>
  );
}
