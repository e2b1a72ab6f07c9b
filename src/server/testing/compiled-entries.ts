import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";

/**
 * The entry points' tests (server.test.ts, backup/scripts.test.ts, rotate-key.test.ts) start the
 * real entry points as processes. Under tsx each such process pays about 1.2–2.7 CPU-s for tsx's
 * module hooks on Node 20 (they run on a thread of their own and see every import, npm packages
 * included), which is 15 to 30 % of a start (ADR 054, its second addendum). These tests run the
 * same sources compiled once per worker with esbuild (the compiler tsx itself runs, and the one
 * `npm run build` uses), with plain node: the sources' tree kept (src/server, src/shared, scripts),
 * every relative import given its emitted file's name, npm packages resolved from node_modules at
 * run time, the files read beside the modules copied (ocr-worker.cjs, package.json for the backup's
 * version). What runs is the production build's transform of every module; `npm start`'s tsx path
 * stays tested by the browser journeys' servers (tests/e2e/server.ts).
 */

const root = path.resolve(import.meta.dirname, "../../..");
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts"];
/** Compiled: the server and shared trees, and the scripts the tests start. */
const SCRIPTS = [
  "scripts/create-admin.ts",
  "scripts/rotate-key.ts",
  "scripts/backup.ts",
  "scripts/restore.ts",
  "scripts/lib/backup-command.ts",
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** The shipped sources of src/server and src/shared: no test file, no test helper. */
function serverSources(): string[] {
  return ["server", "shared"].flatMap((tree) =>
    walk(path.join(root, "src", tree)).filter((file) => {
      const relative = path.relative(path.join(root, "src", tree), file);
      return !/\.test\.tsx?$/.test(relative) && !relative.split(path.sep).includes("testing");
    }),
  );
}

/** "./db/index" → "./db/index.js"; "./migrations" (a directory) → "./migrations/index.js". */
function emittedSpecifier(specifier: string, resolveDir: string): string | null {
  if (/\.(c|m)?js$|\.json$/.test(specifier)) return specifier;
  const target = path.resolve(resolveDir, specifier);
  for (const ext of SOURCE_EXTENSIONS) if (existsSync(target + ext)) return `${specifier}.js`;
  for (const ext of SOURCE_EXTENSIONS)
    if (existsSync(path.join(target, `index${ext}`))) return `${specifier.replace(/\/$/, "")}/index.js`;
  return null;
}

const relativeImports: Plugin = {
  name: "relative-imports-as-emitted-files",
  setup(builder) {
    builder.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      const specifier = emittedSpecifier(args.path, args.resolveDir);
      if (!specifier)
        return { errors: [{ text: `relative import not found: ${args.path} (${args.importer})` }] };
      return { path: specifier, external: true };
    });
  },
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let compiled: Promise<string> | undefined;

/** The folder of the compiled entry points (built on the worker's first call, removed at its exit). */
function compiledRoot(): Promise<string> {
  compiled ??= (async () => {
    // Inside the repository: the compiled modules resolve their npm packages from node_modules.
    const tmp = path.join(root, ".tmp");
    mkdirSync(tmp, { recursive: true });
    // A worker may end without its exit handlers (killed): the folders of workers gone are removed.
    for (const name of readdirSync(tmp)) {
      const pid = /^entries-(\d+)-/.exec(name)?.[1];
      if (pid && !alive(Number(pid))) rmSync(path.join(tmp, name), { recursive: true, force: true });
    }
    const outDir = mkdtempSync(path.join(tmp, `entries-${process.pid}-`));
    process.on("exit", () => rmSync(outDir, { recursive: true, force: true }));
    const files = [...serverSources(), ...SCRIPTS.map((script) => path.join(root, script))];
    await build({
      entryPoints: files.filter((file) => SOURCE_EXTENSIONS.includes(path.extname(file))),
      outbase: root,
      outdir: outDir,
      bundle: true, // with every import external: only to run the plugin on each import
      packages: "external",
      plugins: [relativeImports],
      platform: "node",
      format: "esm",
      target: "node20.19",
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "warning",
    });
    for (const file of files.filter((f) => !SOURCE_EXTENSIONS.includes(path.extname(f)))) {
      const target = path.join(outDir, path.relative(root, file));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(file, target);
    }
    copyFileSync(path.join(root, "package.json"), path.join(outDir, "package.json"));
    return outDir;
  })();
  return compiled;
}

/**
 * Compiles the entry points (once per worker); resolves with the function that names the compiled
 * file of an entry point given from the repository's root ("src/server/server.ts").
 */
export async function compiledEntries(): Promise<(source: string) => string> {
  const dir = await compiledRoot();
  return (source) => path.join(dir, source.replace(/\.ts$/, ".js"));
}
