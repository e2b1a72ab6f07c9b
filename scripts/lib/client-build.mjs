// Builds the web client (vite build) when dist/client is missing or older than its sources.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { precompress } from "./precompress.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function clientNeedsBuild() {
  const builtIndex = path.join(root, "dist/client/index.html");
  if (!existsSync(builtIndex)) return true;
  const sources = ["index.html", "vite.config.ts", "public", "src/client", "src/shared"]
    .map((p) => path.join(root, p))
    .filter(existsSync);
  return Math.max(...sources.map(newestMtime)) > statSync(builtIndex).mtimeMs;
}

function vite(args) {
  const bin = path.join(root, "node_modules/vite/bin/vite.js");
  return (
    spawnSync(process.execPath, [bin, ...args, "--logLevel", "warn"], { cwd: root, stdio: "inherit" })
      .status === 0
  );
}

function escapeHtml(text) {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * The URL of the text's font (Inter, its latin subset) in the built stylesheet of index.html. A font
 * is fetched anonymously (CORS) even from its own origin: its preload says `crossorigin`, or the
 * browser fetches it twice.
 */
function textFont(template) {
  const sheet = /<link rel="stylesheet"[^>]*href="([^"]+)"/.exec(template)?.[1];
  const css = sheet ? readFileSync(path.join(root, "dist/client", sheet), "utf8") : "";
  const font = /url\((\/assets\/inter-latin-wght-normal-[\w-]+\.woff2)\)/.exec(css)?.[1];
  if (!font) throw new Error("la police du texte (Inter, latin) est introuvable dans la feuille de style");
  return font;
}

/**
 * Pre-renders the public pages into dist/client/prerendered/*.html: the page's HTML inside #root,
 * so that text paints before any JavaScript runs (the server sends these files for those paths;
 * main.tsx hydrates them). Everything else keeps the plain index.html.
 */
async function prerender() {
  const ssrDir = path.join(root, "dist/prerender");
  if (!vite(["build", "--ssr", "src/client/prerender.tsx", "--outDir", ssrDir, "--emptyOutDir"]))
    return false;
  const { render, PRERENDERED_PATHS } = await import(pathToFileURL(path.join(ssrDir, "prerender.js")).href);
  const template = readFileSync(path.join(root, "dist/client/index.html"), "utf8");
  const font = textFont(template);
  const outDir = path.join(root, "dist/client/prerendered");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const page of PRERENDERED_PATHS) {
    const { html, title, description, preloadImage } = await render(page);
    if (/<script/i.test(html)) throw new Error(`le pré-rendu de ${page} contient un script en ligne`);
    if (!title || !description)
      throw new Error(`la page ${page} ne déclare ni titre ni description (usePageMeta)`);
    const name = page === "/" ? "index" : page.slice(1).replaceAll("/", "__");
    const document = template
      .replace('<div id="root"></div>', `<div id="root">${html}</div>`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace(/(<meta\s+property="og:title"\s+content=")[^"]*/, `$1${escapeHtml(title)}`)
      .replace(/(<meta\s+name="description"\s+content=")[^"]*/, `$1${escapeHtml(description)}`)
      .replace(/(<meta\s+property="og:description"\s+content=")[^"]*/, `$1${escapeHtml(description)}`)
      // The text's font, asked for with the stylesheet rather than once it is parsed, and the page's
      // largest paint, before the stylesheet and the script (ADR 053 and its addendum).
      .replace(
        /(\s*)(<script type="module")/,
        `$1<link rel="preload" as="font" type="font/woff2" href="${escapeHtml(font)}" crossorigin />${
          preloadImage
            ? `$1<link rel="preload" as="image" href="${escapeHtml(preloadImage)}" fetchpriority="high" />`
            : ""
        }$1$2`,
      );
    writeFileSync(path.join(outDir, `${name}.html`), document);
  }
  rmSync(ssrDir, { recursive: true, force: true });
  return true;
}

/**
 * Builds the client (vite build), pre-renders the public pages, then compresses its text files once
 * (brotli and gzip beside each: ADR 069). The pre-rendered pages are left out: the server completes
 * them with its PUBLIC_URL, then compresses them itself at start-up (plugins/static.ts).
 */
export async function buildClient() {
  console.log("Construction de l'application web (vite build)…");
  if (!vite(["build"])) return false;
  try {
    if (!(await prerender())) return false;
  } catch (error) {
    console.error(`Pré-rendu des pages publiques impossible : ${error.message}`);
    return false;
  }
  await precompress(path.join(root, "dist/client"), { skip: ["prerendered"] });
  return true;
}

/** Returns true when the client is built and fresh; prints vite's own errors otherwise. */
export async function ensureClientBuilt({ force = false } = {}) {
  if (!force && !clientNeedsBuild()) return true;
  return buildClient();
}

// `node scripts/lib/client-build.mjs`: builds the client when it is missing or stale (scripts/test.mjs
// runs it beside vitest, in a process of its own).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  process.exit((await ensureClientBuilt()) ? 0 : 1);
