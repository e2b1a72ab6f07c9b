import { type ComponentType, type ReactNode, StrictMode, useEffect } from "react";
import type { IslandName } from "../components/Island";
import { HeroVideo } from "../features/public/HeroVideo";
import { PublicFigures } from "../features/public/publicStats";
import { MobileMenu } from "./MobileMenu";
import { AccountLink } from "./publicNav";

/*
 * Islands (ADR 027). A pre-rendered public page is not hydrated as a whole: only the parts that
 * react to the visitor (the menu button, the hero video, the carousel, the contact form…) are,
 * each as its own small React root, loaded after the first paint. Everything else is plain HTML:
 * links are ordinary links, the FAQ is <details>. An island's component must not need the router
 * (it runs without one) and takes JSON props only. The marker <Island> is components/Island.tsx;
 * this module is the registry that loads each island by name.
 */

/**
 * The components that may be islands (by the browser and by the pre-render). The header's two
 * islands (on every public page) and the hero's two (on `/`) hydrate at once: they are plain
 * imports, in the entry chunk (~4 KB gzip; ADR 027), since the app's public layout and landing page
 * import them too (a dynamic import would not split them off anyway). The others load on demand.
 */
const loaded = (component: unknown) => () => Promise.resolve(component as ComponentType<never>);

export const ISLANDS = {
  "account-link": loaded(AccountLink),
  "mobile-menu": loaded(MobileMenu),
  "hero-video": loaded(HeroVideo),
  "public-figures": loaded(PublicFigures),
  toaster: () => import("../components/ui/Toaster").then((m) => m.default as ComponentType<never>),
  testimonials: () =>
    import("../features/public/Testimonials").then((m) => m.LandingTestimonials as ComponentType<never>),
  "contact-form": () =>
    import("../features/public/ContactForm").then((m) => m.ContactForm as ComponentType<never>),
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
