import { type ReactNode, Suspense } from "react";
import { Outlet } from "react-router";
import { ReadyMarker } from "../lib/hydrated";

/**
 * A layout's main landmark (the skip link's target): the route's page, `fallback` while its code
 * loads, then the marker that says the page is ready.
 */
export function MainOutlet({ className, fallback }: { className: string; fallback: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={className}>
      <Suspense fallback={fallback}>
        <Outlet />
        <ReadyMarker />
      </Suspense>
    </main>
  );
}
