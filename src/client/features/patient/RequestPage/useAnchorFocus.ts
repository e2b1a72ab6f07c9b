import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * The title of the section `anchor` names: when the address ends with `#anchor` (a link, an e-mail, the
 * journey's next action), the page scrolls there and focuses it; again at each navigation (`key`).
 */
export function useAnchorFocus(anchor: string, key: unknown) {
  const title = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key: each navigation scrolls again
  useEffect(() => {
    const heading = title.current;
    if (location.hash !== `#${anchor}` || !heading) return;
    const go = () => {
      heading.scrollIntoView?.({ block: "start" });
      heading.focus({ preventScroll: true });
    };
    go();
    // The accept dialog, closing, hands the focus back a moment later: take it once more.
    const timer = window.setTimeout(go, 150);
    return () => window.clearTimeout(timer);
  }, [location.hash, location.key, anchor, key]);
  return title;
}
