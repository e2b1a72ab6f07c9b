import { type ComponentType, type ReactNode, StrictMode, useEffect } from "react";
import type { IslandName } from "../components/Island";

/*
 * Islands (ADR 027). A pre-rendered public page is not hydrated as a whole: only the parts that
 * react to the visitor (the menu button, the hero video, the carousel, the contact form…) are,
 * each as its own small React root, loaded after the first paint. Everything else is plain HTML:
 * links are ordinary links, the FAQ is <details>. An island's component must not need the router
 * (it runs without one) and takes JSON props only. The marker <Island> is components/Island.tsx;
 * this module is the registry that loads each island by name.
 */

/**
 * The components that may be islands (by the browser and by the pre-render), each loaded on
 * demand: the entry holds react-dom and the hydration only (ADR 053). The header's two islands
 * and the hero's two are asked for as soon as the entry runs (their small chunks come in one round
 * trip); the others when they come near the screen or the browser is idle. The app's public layout
 * and landing page import the same modules statically: the bundler puts them in chunks of their own
 * that both use.
 */
export const ISLANDS = {
  "account-link": () => import("./publicNav").then((m) => m.AccountLink as ComponentType<never>),
  "mobile-menu": () => import("./MobileMenu").then((m) => m.MobileMenu as ComponentType<never>),
  "hero-video": () => import("../features/public/HeroVideo").then((m) => m.HeroVideo as ComponentType<never>),
  "public-figures": () =>
    import("../features/public/publicStats").then((m) => m.PublicFigures as ComponentType<never>),
  toaster: () => import("../components/ui/Toaster").then((m) => m.default as ComponentType<never>),
  testimonials: () =>
    import("../features/public/Testimonials").then((m) => m.LandingTestimonials as ComponentType<never>),
  "contact-form": () =>
    import("../features/public/ContactForm").then((m) => m.ContactForm as ComponentType<never>),
  "plan-prices": () =>
    import("../components/subscription/PlanPrices").then((m) => m.PlanPrices as ComponentType<never>),
} as const satisfies Record<IslandName, () => Promise<ComponentType<never>>>;

export type { IslandName, IslandSpec } from "../components/Island";
export { Island, islandCollector } from "../components/Island";

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
