import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { isAppPath } from "../../shared/routes";
import { errorBody } from "../errors";

export const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");

/** A pre-rendered page, and the same bytes compressed once at start-up (brotli at its best, gzip -9). */
interface PrerenderedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The encoding a pre-rendered page is sent in: brotli, else gzip, else none. `q=0` refuses an
 * encoding, `*` stands for any not named.
 */
export function pickEncoding(header: string | string[] | undefined): "br" | "gzip" | undefined {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",")) {
    const [name = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return undefined;
}

/**
 * The built React app: hashed assets cached for a year (immutable), index.html never cached,
 * every page path of the client answered with the app; a path that is no page of the client
 * (src/shared/routes.ts) answers 404 with the app too, which shows its French 404 page; unknown
 * /api paths answer the JSON error shape.
 */
export async function registerStatic(app: FastifyInstance, clientDir = CLIENT_DIR): Promise<void> {
  const hasClient = existsSync(path.join(clientDir, "index.html"));
  // Public pages pre-rendered at build time ("/faq" → prerendered/faq.html, "/" → index.html), kept
  // in memory with their canonical URL and absolute share image, which depend on PUBLIC_URL, and
  // compressed once here: the not-found handler that answers them is no route, so @fastify/compress
  // (which hooks routes) never sees it, and the landing page's HTML is ~65 KB uncompressed.
  const prerenderedDir = path.join(clientDir, "prerendered");
  const prerendered = new Map<string, PrerenderedPage>();
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
      prerendered.set(pagePath, {
        html,
        br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(html, { level: 9 }),
      });
    }
  }
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build's brotli and gzip copies (scripts/lib/precompress.mjs, ADR 069), sent as they are to a
      // browser that accepts them (@fastify/compress leaves an answer already encoded alone); a file
      // without copies is compressed per request as before. The copies and the pre-rendered pages (sent
      // from memory below) are no paths of their own.
      preCompressed: true,
      globIgnore: ["**/*.br", "**/*.gz", "prerendered/**"],
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
    if (!page) return reply.sendFile("index.html");
    const encoding = pickEncoding(request.headers["accept-encoding"]);
    return encoding ? reply.header("content-encoding", encoding).send(page[encoding]) : reply.send(page.html);
  });
}
