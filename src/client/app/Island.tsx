import { type ComponentType, type ReactNode, StrictMode, useEffect, useId } from "react";

/*
 * Islands (ADR 027). A pre-rendered public page is not hydrated as a whole: only the parts that
 * react to the visitor (the menu button, the hero video, the carousel, the contact form…) are,
 * each as its own small React root, loaded after the first paint. Everything else is plain HTML:
 * links are ordinary links, the FAQ is <details>. An island's component must not need the router
 * (it runs without one) and takes JSON props only.
 */

/** The components that may be islands, loaded on demand (by the browser and by the pre-render). */
export const ISLANDS = {
  "account-link": () => import("./publicNav").then((m) => m.AccountLink as ComponentType<never>),
  "mobile-menu": () => import("./MobileMenu").then((m) => m.MobileMenu as ComponentType<never>),
  toaster: () => import("../components/ui/Toaster").then((m) => m.default as ComponentType<never>),
  "hero-video": () => import("../features/public/HeroVideo").then((m) => m.HeroVideo as ComponentType<never>),
  "patients-figure": () =>
    import("../features/public/publicStats").then((m) => m.PatientsFigure as ComponentType<never>),
  testimonials: () =>
    import("../features/public/Testimonials").then((m) => m.LandingTestimonials as ComponentType<never>),
  "contact-form": () =>
    import("../features/public/ContactForm").then((m) => m.ContactForm as ComponentType<never>),
} as const;

export type IslandName = keyof typeof ISLANDS;

export interface IslandSpec {
  name: IslandName;
  props: Record<string, unknown>;
}

/**
 * Set by the pre-render (prerender.tsx): islands then render an empty placeholder and are
 * recorded here, keyed by their useId; each is rendered on its own afterwards, exactly as the
 * browser hydrates it (same tree, same identifierPrefix), so that useId values match.
 */
export const islandCollector: { active: boolean; found: Map<string, IslandSpec> } = {
  active: false,
  found: new Map(),
};

/** Calls onCommit once the island has rendered or hydrated (the page's 'ready' marker waits for all). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first commit.
  useEffect(onCommit, []);
  return children;
}

/** The element an island root renders: the same in the pre-render and in the browser. */
export function islandElement(
  Component: ComponentType<Record<string, unknown>>,
  props: Record<string, unknown>,
  onCommit: () => void = () => {},
) {
  return (
    <StrictMode>
      <Committed onCommit={onCommit}>
        <Component {...props} />
      </Committed>
    </StrictMode>
  );
}

/** The identifierPrefix of the island numbered `index` in its page (useId values stay unique). */
export const islandPrefix = (index: number | string) => `i${index}-`;

/**
 * Marks `children` as an island. In the app rendered by the browser (sign-in pages, areas, a
 * client-side navigation) it simply renders them; `props` must be what `children` receives.
 */
export function Island({
  name,
  props = {},
  children,
}: {
  name: IslandName;
  props?: Record<string, unknown>;
  children: ReactNode;
}) {
  const id = useId();
  if (islandCollector.active) {
    islandCollector.found.set(id, { name, props });
    return (
      <div className="contents" data-island={name} data-props={JSON.stringify(props)} data-island-id={id} />
    );
  }
  return (
    <div className="contents" data-island={name}>
      {children}
    </div>
  );
}
