import { useEffect, useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while a pre-rendered page is being built or hydrated, true once React runs the page in the
 * browser. Actions that need JavaScript (submitting a form) wait for it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Rendered inside each layout's Suspense boundary, beside the page: once the page has rendered or
 * hydrated, marks <html data-ready="true"> (browser tests wait for it before acting).
 */
export function ReadyMarker(): null {
  useEffect(() => {
    document.documentElement.dataset.ready = "true";
  }, []);
  return null;
}
