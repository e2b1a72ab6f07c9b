import { type ComponentType, type ReactNode, StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router";
import { PUBLIC_CONTENT_PATHS } from "../shared/routes";
import { ISLANDS, islandCollector, islandElement, islandPrefix } from "./app/Island";
import { Providers } from "./app/Providers";
import { AppRoutes } from "./app/routes";
import { prerenderedMeta } from "./lib/title";

/** Public pages rendered to HTML at build time (scripts/build.mjs); main.tsx hydrates their islands. */
export const PRERENDERED_PATHS = PUBLIC_CONTENT_PATHS;

async function toHtml(node: ReactNode, identifierPrefix?: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node, {
    // Every boundary inline: no completion scripts (the CSP allows no inline script).
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    identifierPrefix,
  });
  let html = "";
  for await (const chunk of prelude) html += chunk;
  return html;
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/**
 * The HTML of one page's #root, every lazy part resolved (react-dom/static waits for Suspense),
 * with the title and description the page declared. Islands (app/Island.tsx) are rendered on
 * their own, numbered in page order, and put in their placeholders: the browser hydrates each
 * with the same tree and identifierPrefix.
 */
export async function render(
  url: string,
): Promise<{ html: string; title?: string; description?: string; preloadImage?: string }> {
  delete prerenderedMeta.title;
  delete prerenderedMeta.description;
  delete prerenderedMeta.preloadImage;
  islandCollector.active = true;
  islandCollector.found.clear();
  let html: string;
  try {
    html = await toHtml(
      <StrictMode>
        <StaticRouter location={url}>
          <Providers>
            <AppRoutes />
          </Providers>
        </StaticRouter>
      </StrictMode>,
    );
  } finally {
    islandCollector.active = false;
  }
  const found = new Map(islandCollector.found);
  let index = 0;
  let out = "";
  let rest = html;
  for (;;) {
    const match = /data-island-id="([^"]*)"><\/div>/.exec(rest);
    if (!match) break;
    const spec = [...found.entries()].find(([id]) => escapeAttribute(id) === match[1])?.[1];
    if (!spec) throw new Error(`îlot inconnu dans le pré-rendu de ${url}`);
    const Component = (await ISLANDS[spec.name]()) as ComponentType<Record<string, unknown>>;
    const inner = await toHtml(islandElement(Component, spec.props), islandPrefix(index));
    out += `${rest.slice(0, match.index)}data-island-id="${index}">${inner}</div>`;
    rest = rest.slice(match.index + match[0].length);
    index += 1;
  }
  return { html: out + rest, ...prerenderedMeta };
}
