import { lazy, type ReactNode, Suspense } from "react";
import { Island } from "./Island";

// sonner's toaster is loaded right after the first paint, outside the landing's initial JS.
const Toaster = lazy(() => import("../components/ui/Toaster"));

/**
 * App-wide providers. react-query is not here: it is given by the lazily loaded chunks that use
 * it (lib/QueryProvider.tsx), so the landing page's initial bundle does not carry it. The toaster
 * is an island (ADR 027): pre-rendered pages hydrate it on its own.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Island name="toaster">
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </Island>
    </>
  );
}
