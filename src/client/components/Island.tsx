import { type ReactNode, useId } from "react";

/*
 * The island marker (ADR 027), apart from the registry of island components (app/Island.tsx), so
 * that a page of a feature marks its islands without importing the app that imports it.
 */

/** The parts of a pre-rendered page that hydrate on their own; app/Island.tsx loads each by name. */
export const ISLAND_NAMES = [
  "account-link",
  "mobile-menu",
  "hero-video",
  "public-figures",
  "toaster",
  "testimonials",
  "contact-form",
  "plan-prices",
] as const;

export type IslandName = (typeof ISLAND_NAMES)[number];

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
