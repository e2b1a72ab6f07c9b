// Compiles the server (src/server + src/shared, tests excluded) to plain ESM JavaScript under
// dist/server and dist/shared, one output file per source file, so that `node dist/server/server.js`
// runs without tsx.
//
// Why one file per source file (not a single bundle): the server finds files next to its own modules
// (static.ts resolves dist/client from import.meta.dirname, ocr.ts loads ocr-worker.cjs by URL), so the
// output keeps src/'s layout: dist/server/plugins/static.js still reaches dist/client through
// ../../../dist/client. npm packages stay external (resolved from node_modules at run time, as under
// tsx). The sources import each other without extensions ("./db/index"), which Node's ESM loader
// refuses: each relative import is rewritten to the emitted file's name (".js", or "/index.js" for a
// directory). esbuild is the one tsx already runs on (a dependency of tsx), so the compiled code is
// transformed exactly as in development.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { root } from "./client-build.mjs";

/** Source trees compiled, relative to src/. */
const TREES = ["server", "shared"];
export const SERVER_ENTRY = path.join(root, "dist/server/server.js");
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts"];

/** Test files and test helpers never ship. */
function isTestOnly(relative) {
  return /\.test\.tsx?$/.test(relative) || relative.split(path.sep).includes("testing");
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

function sourceFiles() {
  const files = [];
  for (const tree of TREES) {
    const dir = path.join(root, "src", tree);
    if (existsSync(dir)) files.push(...walk(dir).filter((f) => !isTestOnly(path.relative(dir, f))));
  }
  return files;
}

function newestSourceMtime() {
  let newest = 0;
  for (const file of sourceFiles()) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest;
}

/** True when dist/server/server.js is missing or older than a server or shared source file. */
export function serverNeedsBuild() {
  if (!existsSync(SERVER_ENTRY)) return true;
  // A deployment may ship dist/ without src/: then the compiled server is all there is.
  if (!existsSync(path.join(root, "src/server"))) return false;
  return newestSourceMtime() > statSync(SERVER_ENTRY).mtimeMs;
}

/** "./db/index" → "./db/index.js"; "./migrations" (a directory) → "./migrations/index.js". */
function emittedSpecifier(specifier, resolveDir) {
  const target = path.resolve(resolveDir, specifier);
  if (/\.(c|m)?js$|\.json$/.test(specifier)) return specifier;
  for (const ext of SOURCE_EXTENSIONS) if (existsSync(target + ext)) return `${specifier}.js`;
  for (const ext of SOURCE_EXTENSIONS)
    if (existsSync(path.join(target, `index${ext}`))) return `${specifier.replace(/\/$/, "")}/index.js`;
  return null;
}

/** The esbuild plugin that rewrites relative imports, refusing any outside `allowed` (folders). */
const relativeImports = (allowed) => ({
  name: "relative-imports-as-emitted-files",
  setup(build) {
    build.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
      // The entry points themselves go through esbuild's own resolution.
      if (args.kind === "entry-point") return undefined;
      const specifier = emittedSpecifier(args.path, args.resolveDir);
      if (!specifier)
        return { errors: [{ text: `import relatif introuvable : ${args.path} (depuis ${args.importer})` }] };
      const target = path.resolve(args.resolveDir, args.path);
      if (!allowed.some((dir) => target.startsWith(dir + path.sep)))
        return { errors: [{ text: `import hors de src/ : ${args.path} (depuis ${args.importer})` }] };
      return { path: specifier, external: true };
    });
  },
});

/**
 * Compiles the server. Returns true on success; esbuild prints its own errors otherwise.
 * `quiet` silences the one-line progress message (start-up of `npm start`). `outDir` (tests only):
 * another directory than dist/ (the server run from there would not find dist/client). `scripts`
 * (tests only, paths from the repository's root): command-line scripts compiled with the server; the
 * output then keeps the repository's layout (outDir/src/server, outDir/scripts) and package.json.
 */
export async function buildServer({ quiet = false, outDir = path.join(root, "dist"), scripts = [] } = {}) {
  if (!quiet) console.log("Compilation du serveur (esbuild) vers dist/server…");
  const started = Date.now();
  const { build } = await import("esbuild");
  const files = [...sourceFiles(), ...scripts.map((script) => path.join(root, script))];
  const entryPoints = files.filter((f) => SOURCE_EXTENSIONS.includes(path.extname(f)));
  const assets = files.filter((f) => !SOURCE_EXTENSIONS.includes(path.extname(f)));
  const outbase = scripts.length > 0 ? root : path.join(root, "src");
  const allowed = [path.join(root, "src"), ...(scripts.length > 0 ? [path.join(root, "scripts")] : [])];
  const outDirs = TREES.map((tree) =>
    path.join(outDir, path.relative(outbase, path.join(root, "src", tree))),
  );
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
  try {
    await build({
      entryPoints,
      outbase,
      outdir: outDir,
      bundle: true, // with every import external: only to run the plugin on each import
      packages: "external",
      plugins: [relativeImports(allowed)],
      platform: "node",
      format: "esm",
      target: "node20.19",
      sourcemap: "linked",
      sourcesContent: false,
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "warning",
    });
  } catch {
    // esbuild has already printed the errors.
    for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
    return false;
  }
  // Files read next to the modules at run time (ocr-worker.cjs).
  for (const asset of assets) {
    const target = path.join(outDir, path.relative(outbase, asset));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(asset, target);
  }
  // The backup's scripts read the product's version from the package.json above them.
  if (scripts.length > 0) copyFileSync(path.join(root, "package.json"), path.join(outDir, "package.json"));
  if (!quiet) console.log(`Serveur compilé : ${entryPoints.length} modules en ${Date.now() - started} ms.`);
  return true;
}

/** Compiles the server when dist/server is missing or older than its sources. */
export async function ensureServerBuilt({ force = false, quiet = false } = {}) {
  if (!force && !serverNeedsBuild()) return true;
  return buildServer({ quiet });
}
