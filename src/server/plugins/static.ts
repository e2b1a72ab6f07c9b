import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { isAppPath } from "../../shared/routes";
import { errorBody } from "../errors";

export const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");

/**
 * The built React app: hashed assets cached for a year (immutable), index.html never cached,
 * every page path of the client answered with the app; a path that is no page of the client
 * (src/shared/routes.ts) answers 404 with the app too, which shows its French 404 page; unknown
 * /api paths answer the JSON error shape.
 */
export async function registerStatic(app: FastifyInstance, clientDir = CLIENT_DIR): Promise<void> {
  const hasClient = existsSync(path.join(clientDir, "index.html"));
  // Public pages pre-rendered at build time ("/faq" → prerendered/faq.html, "/" → index.html), kept
  // in memory with their canonical URL and absolute share image, which depend on PUBLIC_URL.
  const prerenderedDir = path.join(clientDir, "prerendered");
  const prerendered = new Map<string, string>();
  if (existsSync(prerenderedDir)) {
    const base = app.config.publicUrl;
    for (const file of readdirSync(prerenderedDir)) {
      const name = file.replace(/\.html$/, "");
      const pagePath = name === "index" ? "/" : `/${name.replaceAll("__", "/")}`;
      const html = readFileSync(path.join(prerenderedDir, file), "utf8")
        .replace(/(<meta\s+property="og:image"\s+content=")\//, `$1${base}/`)
        .replace(
          "</head>",
          `<link rel="canonical" href="${base}${pagePath}" /><meta property="og:url" content="${base}${pagePath}" /></head>`,
        );
      prerendered.set(pagePath, html);
    }
  }
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const rel = path.relative(clientDir, filePath);
        res.setHeader(
          "cache-control",
          rel.startsWith(`assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "public, max-age=3600",
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      return reply.status(404).send(errorBody("NOT_FOUND", "Cette adresse de l'API n'existe pas."));
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return reply.status(404).send(errorBody("NOT_FOUND", "Ressource introuvable."));
    }
    // A missing hashed asset is a real 404, not the app.
    if (pathname.startsWith("/assets/")) {
      return reply.status(404).type("text/plain; charset=utf-8").send("Fichier introuvable.");
    }
    if (!hasClient) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send(
          "L'application n'est pas construite : lancez `npm run build` (ou `npm start`, qui la construit).",
        );
    }
    reply.header("cache-control", "no-cache, no-store, must-revalidate").type("text/html; charset=utf-8");
    if (!isAppPath(pathname)) {
      return reply.status(404).send(readFileSync(path.join(clientDir, "index.html"), "utf8"));
    }
    const page = prerendered.get(pathname.replace(/(.)\/+$/, "$1"));
    return page ? reply.send(page) : reply.sendFile("index.html");
  });
}
