import { Component, type ReactNode, Suspense, useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router";
import { ShellSkeleton } from "../components/ui/PageSkeleton";
import { PageSpinner } from "../components/ui/Spinner";
import { useFocusRescue } from "../lib/focusRescue";
import { RouteError } from "./RouteError";

/** Catches a page that fails to render or to load (a chunk missing after a new deployment). */
class RouteErrorBoundary extends Component<{ pathname: string; children: ReactNode }, RouteErrorState> {
  override state: RouteErrorState = { error: null, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<RouteErrorState> {
    return { error: error ?? new Error("Erreur inconnue") };
  }

  static getDerivedStateFromProps(
    props: { pathname: string },
    state: RouteErrorState,
  ): Partial<RouteErrorState> | null {
    // Another page was asked for: try again.
    if (props.pathname !== state.pathname) return { error: null, pathname: props.pathname };
    return null;
  }

  override render() {
    if (this.state.error) return <RouteError error={this.state.error} />;
    return this.props.children;
  }
}

interface RouteErrorState {
  error: unknown;
  pathname: string;
}

/** How long the page may take to render the element named by the hash (a lazy page, its data). */
const HASH_WAIT_MS = 10_000;
/** How long the element is kept in view while what stands above it still loads. */
const HASH_HOLD_MS = 5_000;
/** What the person does that ends the hold: their own scrolling wins. */
const HOLD_ENDERS = ["wheel", "touchstart", "keydown", "pointerdown"] as const;

/**
 * Scrolls to the element named by the hash once it exists (lazy pages render a moment later), and
 * keeps it in view while the page's height changes above it (a section loading its data, an image),
 * for a few seconds or until the person scrolls or types: otherwise a section loaded above it after
 * the scroll pushed it out of view (a link to « #securite » opened at « Mon profil »'s top).
 */
export function scrollToHash(hash: string): () => void {
  let id = "";
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return () => {};
  }
  const deadline = performance.now() + HASH_WAIT_MS;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let observer: ResizeObserver | undefined;
  const release = () => {
    observer?.disconnect();
    observer = undefined;
    if (timer !== undefined) clearTimeout(timer);
    for (const type of HOLD_ENDERS) window.removeEventListener(type, release);
  };
  const hold = (target: HTMLElement) => {
    if (typeof ResizeObserver === "undefined") return;
    observer = new ResizeObserver(() => target.scrollIntoView());
    observer.observe(document.body);
    for (const type of HOLD_ENDERS) window.addEventListener(type, release, { passive: true });
    timer = setTimeout(release, HASH_HOLD_MS);
  };
  const attempt = () => {
    const target = document.getElementById(id);
    if (target) {
      target.scrollIntoView();
      hold(target);
      return;
    }
    if (performance.now() < deadline) frame = requestAnimationFrame(attempt);
  };
  attempt();
  return () => {
    cancelAnimationFrame(frame);
    release();
  };
}

/**
 * Top of every route: catches page errors; on a new page scrolls to the top (or to the #hash),
 * and after a client-side navigation moves the focus to <main id="main"> so keyboard and
 * screen-reader users start at the new page's content; there too when an action removes the focused
 * element (useFocusRescue).
 */
export function RootLayout() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);
  useFocusRescue();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is what triggers the scroll.
  useEffect(() => {
    if (hash) return scrollToHash(hash);
    // Back and forward keep the browser's own scroll restoration.
    if (navigationType !== "POP") window.scrollTo(0, 0);
    return undefined;
  }, [pathname, hash, navigationType]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById("main");
    if (main && pathname) main.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <RouteErrorBoundary pathname={pathname}>
      {/* An area's shell loads after login: its skeleton, not a blank 'Chargement...' screen. */}
      <Suspense
        fallback={/^\/(patient|dentist|admin)(\/|$)/.test(pathname) ? <ShellSkeleton /> : <PageSpinner />}
      >
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );
}
