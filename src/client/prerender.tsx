import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router";
import { Providers } from "./app/Providers";
import { AppRoutes } from "./app/routes";
import { prerenderedMeta } from "./lib/title";

/** Public pages rendered to HTML at build time (scripts/build.mjs), then hydrated by main.tsx. */
export const PRERENDERED_PATHS = [
  "/",
  "/how-it-works",
  "/faq",
  "/dentist/benefits",
  "/privacy",
  "/terms",
  "/contact",
  "/upload-devis",
] as const;

/**
 * The HTML of one page's #root, every lazy part resolved (react-dom/static waits for Suspense),
 * with the title and description the page declared.
 */
export async function render(url: string): Promise<{ html: string; title?: string; description?: string }> {
  delete prerenderedMeta.title;
  delete prerenderedMeta.description;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <StaticRouter location={url}>
        <Providers>
          <AppRoutes />
        </Providers>
      </StaticRouter>
    </StrictMode>,
    // Every boundary inline: no completion scripts (the CSP allows no inline script).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = "";
  for await (const chunk of prelude) html += chunk;
  return { html, ...prerenderedMeta };
}
