import { useSyncExternalStore } from "react";

/** Whether a media query matches, kept up to date (false where there is no window: pre-rendering). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** A touch screen (a phone, a tablet): its keyboard's return key makes a new line, it sends nothing. */
export const TOUCH_SCREEN = "(pointer: coarse)";
