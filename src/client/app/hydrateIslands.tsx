import { type ComponentType, startTransition } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { ISLANDS, type IslandName, islandElement, islandPrefix } from "./Island";

/** Islands under the fold or not needed at once: hydrated when they come near the screen or the browser is idle. */
const DEFERRED = new Set<IslandName>(["testimonials", "contact-form", "toaster"]);

/**
 * Resolves when the island comes near the viewport or the browser is idle after the page's load
 * (before that, the island's HTML works on its own: links, a disabled form).
 */
function whenWanted(element: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    let observer: IntersectionObserver | undefined;
    const go = () => {
      if (done) return;
      done = true;
      observer?.disconnect();
      resolve();
    };
    // The wrapper is display: contents (no box): watch what it holds.
    const target = element.firstElementChild;
    if (target && typeof IntersectionObserver === "function") {
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) go();
        },
        { rootMargin: "200px" },
      );
      observer.observe(target);
    }
    const idle = () =>
      typeof requestIdleCallback === "function"
        ? requestIdleCallback(go, { timeout: 2000 })
        : setTimeout(go, 200);
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}

const roots: Root[] = [];
let replaced = false;

/**
 * The pages were pre-rendered with the default brand name and contact address. A deployment that
 * sets others (BRAND_NAME, CONTACT_EMAIL) gets the page rendered again by the whole app. The check
 * (the API client and /api/config) is a chunk of its own, fetched beside the islands: it is not in
 * the initial JS (ADR 053).
 */
async function replaceIfOtherBrand(container: HTMLElement): Promise<void> {
  const { isOtherBrand } = await import("./otherBrand");
  if (!(await isOtherBrand())) return;
  const { renderApp } = await import("./App");
  replaced = true;
  for (const root of roots.splice(0)) root.unmount();
  container.replaceChildren();
  renderApp(container);
}

/**
 * A pre-rendered public page (ADR 027): hydrates each island of #root on its own, once its code
 * has arrived; the rest of the page stays the HTML it already is. Marks <html data-ready="true">
 * when every island has hydrated (browser tests wait for it before using an island).
 */
export async function hydrateIslands(container: HTMLElement): Promise<void> {
  void replaceIfOtherBrand(container);
  const elements = [...container.querySelectorAll<HTMLElement>("[data-island][data-island-id]")];
  await Promise.all(
    elements.map(async (element) => {
      const name = element.dataset.island as IslandName;
      const load = ISLANDS[name];
      if (!load) return;
      if (DEFERRED.has(name)) await whenWanted(element);
      const Component = (await load()) as ComponentType<Record<string, unknown>>;
      const props = JSON.parse(element.dataset.props || "{}") as Record<string, unknown>;
      if (replaced) return;
      await new Promise<void>((resolve) => {
        // A transition: React hydrates in small slices and yields to the browser between them.
        startTransition(() => {
          roots.push(
            hydrateRoot(element, islandElement(Component, props, resolve), {
              identifierPrefix: islandPrefix(element.dataset.islandId ?? ""),
            }),
          );
        });
      });
    }),
  );
  document.documentElement.dataset.ready = "true";
}
