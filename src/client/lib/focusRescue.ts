import { useEffect } from "react";

/**
 * When an action removes the focused element (a booking sent, a slot confirmed, a row verified, a
 * form replaced by its result), the browser leaves the focus on the body: the next Tab starts from
 * the top of the page and a screen reader loses its place. This puts it on the page's main content
 * (<main id="main">, as after a navigation) — only when nothing else took it meanwhile: a dialog
 * giving it back to its opener, a page focusing its new heading (both run before this does).
 */
export function useFocusRescue(): void {
  useEffect(() => {
    let last: Element | null = null;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onFocusIn = (event: FocusEvent) => {
      last = event.target instanceof Element ? event.target : null;
    };
    const lost = () => last !== null && !last.isConnected && document.activeElement === document.body;
    const observer = new MutationObserver(() => {
      if (!lost() || pending !== undefined) return;
      // After the focus moves the page or a dialog makes in the same turn (React's effects, Radix's
      // return of the focus to a dialog's opener).
      pending = setTimeout(() => {
        pending = undefined;
        if (!lost()) return;
        last = null;
        document.getElementById("main")?.focus({ preventScroll: true });
      }, 0);
    });
    document.addEventListener("focusin", onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      observer.disconnect();
      clearTimeout(pending);
    };
  }, []);
}
