import type { FastifyInstance, FastifyRequest } from "fastify";
import { ERROR_CODES, MESSAGES } from "../../shared/schemas/common";
import type { AppConfig } from "../config";
import { AppError } from "../errors";

/**
 * Cross-site request protection (architecture.md: "every state-changing route refuses cross-site
 * requests"). SameSite=Lax cookies still ride along on a form POST or a `fetch` from another origin
 * of the same site (another port, a sibling sub-domain), and a `text/plain` or multipart POST needs
 * no CORS preflight: the browser tells us where a request comes from, and we refuse what does not
 * come from the product's own pages.
 *
 * - `Origin` present: it must be PUBLIC_URL's origin (or, in development, Vite's dev and preview
 *   servers, which proxy /api). `Origin: null` (sandboxed frames, file:, some redirects) is refused.
 * - No `Origin`: `Sec-Fetch-Site: cross-site | same-site` is refused.
 * - Neither header: not a browser's cross-site request (curl, server to server, `app.inject` in tests):
 *   allowed; the session cookie is what a browser would add, and a browser sends one of these headers.
 *
 * It runs in `onRequest`, before any body is read or parsed, for every non-GET/HEAD/OPTIONS request
 * (all of them are under /api; not testing the path leaves no way around it through an encoded
 * path such as `/%61pi/…`). Better Auth's /api/auth/* checks too: refusing there first is harmless.
 * The realtime WebSocket (a GET) applies the same rule before its upgrade.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origins whose pages may change data: PUBLIC_URL's, plus Vite's servers in development. */
export function trustedOrigins(config: Pick<AppConfig, "publicUrl" | "env">): Set<string> {
  const origins = new Set([new URL(config.publicUrl).origin]);
  if (config.env === "development") {
    // `npm run dev` (vite.config.ts: server.port 5173) and `vite preview` (4173) proxy /api to us.
    for (const host of ["localhost", "127.0.0.1"])
      for (const port of [5173, 4173]) origins.add(`http://${host}:${port}`);
  }
  return origins;
}

/** Whether the request, by its Origin / Sec-Fetch-Site headers, comes from a page of another origin. */
export function isCrossSite(request: FastifyRequest, trusted: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return !trusted.has(origin);
  const site = request.headers["sec-fetch-site"];
  return site === "cross-site" || site === "same-site";
}

export function crossSiteRefused(): AppError {
  return new AppError(403, ERROR_CODES.crossSite, MESSAGES.crossSite);
}

export function registerCrossSiteGuard(app: FastifyInstance): void {
  const trusted = trustedOrigins(app.config);
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (isCrossSite(request, trusted)) throw crossSiteRefused();
  });
}
