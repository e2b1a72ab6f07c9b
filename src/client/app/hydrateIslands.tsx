import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { ISLANDS, type IslandName, islandElement, islandPrefix } from "./Island";

/**
 * A pre-rendered public page (ADR 027): hydrates each island of #root on its own, once its code
 * has arrived; the rest of the page stays the HTML it already is. Marks <html data-ready="true">
 * when every island has hydrated (browser tests wait for it before using an island).
 */
export async function hydrateIslands(container: HTMLElement): Promise<void> {
  const elements = [...container.querySelectorAll<HTMLElement>("[data-island][data-island-id]")];
  await Promise.all(
    elements.map(async (element) => {
      const load = ISLANDS[element.dataset.island as IslandName];
      if (!load) return;
      const Component = (await load()) as ComponentType<Record<string, unknown>>;
      const props = JSON.parse(element.dataset.props || "{}") as Record<string, unknown>;
      await new Promise<void>((resolve) => {
        hydrateRoot(element, islandElement(Component, props, resolve), {
          identifierPrefix: islandPrefix(element.dataset.islandId ?? ""),
        });
      });
    }),
  );
  document.documentElement.dataset.ready = "true";
}
