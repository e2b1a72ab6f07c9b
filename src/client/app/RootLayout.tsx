import { useEffect, useRef } from "react";
import { Outlet, ScrollRestoration, useLocation } from "react-router";

/**
 * Top of every route: restores scroll and, after a client-side navigation, moves the focus to
 * <main id="main"> so keyboard and screen-reader users start at the new page's content.
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById("main");
    if (main && pathname) main.focus({ preventScroll: true });
  }, [pathname]);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
