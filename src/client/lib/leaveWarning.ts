import { useCallback } from "react";
import { useBeforeUnload } from "react-router";

/**
 * While `active` (a form with something typed or chosen, not sent yet), the browser asks before the
 * page is reloaded, closed or left for another site: what was typed would be lost. Its own dialog and
 * words (browsers show no page text there); links inside the app are not asked about.
 */
export function useLeaveWarning(active: boolean): void {
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!active) return;
        event.preventDefault();
        // Chromium before 119 and Safari ask only when returnValue is set.
        event.returnValue = "";
      },
      [active],
    ),
  );
}
