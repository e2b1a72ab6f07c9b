import { type ReactNode, useCallback, useEffect, useState } from "react";
import { type Location, useBeforeUnload, useLocation, useNavigate } from "react-router";
import { ConfirmDialog } from "../components/ui/Dialog";

/** The question asked before leaving a form by one of the app's links: what is lost, and the two ways. */
export interface LeaveQuestion {
  title: string;
  description: string;
  /** Leaves, losing what was typed. */
  confirmLabel: string;
  /** Stays on the form. */
  cancelLabel: string;
}

/**
 * The in-app link a click would follow (pathname, search and hash), or null when the click is not
 * the app's to ask about: modified or other-button clicks, new tabs, downloads, other sites (the
 * browser asks, beforeunload), the same page (its anchors).
 */
export function inAppDestination(
  event: MouseEvent,
  here: Pick<Location, "pathname" | "search">,
): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return null;
  if (link.target && link.target !== "_self") return null;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The form asking before it is left, if one is open: it asks, then leaves by `leave` if told to. */
let askBeforeLeaving: ((leave: () => void) => void) | null = null;

/**
 * Leaves by `leave` (a page's own « Retour », which goes back in history): after the question of a
 * form being written, if one is open (useLeaveWarning), at once otherwise.
 */
export function leaveThen(leave: () => void): void {
  if (askBeforeLeaving) askBeforeLeaving(leave);
  else leave();
}

/**
 * While `active` (a form with something typed or chosen, not sent yet), leaving asks first: what was
 * typed would be lost. A reload, a closed tab or another site: the browser's own dialog and words
 * (browsers show no page text there). One of the app's links, or a page's « Retour » (leaveThen):
 * our dialog, `question`, which the caller renders (the returned node); « rester » keeps the form as
 * it was. The browser's back button is not asked about (that needs react-router's data router: ADR 006).
 */
export function useLeaveWarning(active: boolean, question: LeaveQuestion): ReactNode {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // How to leave once confirmed; null while nothing is asked.
  const [leaving, setLeaving] = useState<{ leave: () => void } | null>(null);
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
  useEffect(() => {
    if (!active) return;
    // Capture, on the document: before react-router's own handler on the link, which would navigate.
    const onClick = (event: MouseEvent) => {
      const to = inAppDestination(event, { pathname, search });
      if (to === null) return;
      event.preventDefault();
      event.stopPropagation();
      setLeaving({ leave: () => navigate(to) });
    };
    const ask = (leave: () => void) => setLeaving({ leave });
    askBeforeLeaving = ask;
    document.addEventListener("click", onClick, true);
    return () => {
      document.removeEventListener("click", onClick, true);
      if (askBeforeLeaving === ask) askBeforeLeaving = null;
    };
  }, [active, pathname, search, navigate]);
  return (
    <ConfirmDialog
      open={leaving !== null}
      onOpenChange={(open) => {
        if (!open) setLeaving(null);
      }}
      {...question}
      destructive
      onConfirm={() => {
        const confirmed = leaving;
        setLeaving(null);
        confirmed?.leave();
      }}
    />
  );
}
