import { type ComponentType, startTransition } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { ISLANDS, type IslandName, islandElement, islandPrefix } from "./Island";

/**
 * When each island is hydrated. The header's and the hero's: as soon as their code arrives. Under
 * the fold (the testimonials, the contact form): when they come near the screen, never before.
 * Hydrating them, and the toaster, when the browser was idle after the load put ~0.5 s of blocking
 * time in Lighthouse's window on `/` (TBT 640–870 ms, score 79–82; without: 100–240 ms, 95–98;
 * ADR 053, addendum of 02/12/2026). The toaster: with the first contact form, the only island of a
 * pre-rendered page that raises a toast.
 */
const NEAR_SCREEN = new Set<IslandName>(["testimonials", "contact-form"]);

/**
 * Resolves when the element comes within 200 px of the viewport (before that, the island's HTML
 * works on its own: links, a disabled form); at once where there is no IntersectionObserver.
 */
function nearScreen(element: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    // The wrapper is display: contents (no box): watch what it holds.
    const target = element.firstElementChild;
    if (!target || typeof IntersectionObserver !== "function") return resolve();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: "200px" },
    );
    observer.observe(target);
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
 * has arrived and it is wanted (above); the rest of the page stays the HTML it already is. Marks
 * <html data-ready="true"> once the islands wanted at once have hydrated, and each island's wrapper
 * `data-hydrated="true"` once it has (browser tests wait for them before using an island).
 */
export async function hydrateIslands(container: HTMLElement): Promise<void> {
  void replaceIfOtherBrand(container);
  const elements = [...container.querySelectorAll<HTMLElement>("[data-island][data-island-id]")];
  let toastsWanted = () => {};
  const toasts = new Promise<void>((resolve) => {
    toastsWanted = resolve;
  });
  const hydrate = async (element: HTMLElement, name: IslandName) => {
    const load = ISLANDS[name];
    if (!load) return;
    if (name === "toaster") await toasts;
    else if (NEAR_SCREEN.has(name)) await nearScreen(element);
    if (name === "contact-form") toastsWanted();
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
    element.dataset.hydrated = "true";
  };
  const atOnce: Promise<void>[] = [];
  for (const element of elements) {
    const name = element.dataset.island as IslandName;
    const hydrated = hydrate(element, name);
    if (name !== "toaster" && !NEAR_SCREEN.has(name)) atOnce.push(hydrated);
  }
  await Promise.all(atOnce);
  document.documentElement.dataset.ready = "true";
}
