import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { buildServer } from "../../../scripts/lib/server-build.mjs";

/**
 * The entry points' tests (server.test.ts, backup/scripts.test.ts, rotate-key.test.ts) start the
 * real entry points as processes, and every app of the `unit` and `alone` projects forks the
 * reading's own process from here (compiled-reader.ts). Under tsx each such process pays about
 * 1.2–2.7 CPU-s for tsx's module hooks on Node 20 (they run on a thread of their own and see every
 * import, npm packages included), which is 15 to 30 % of a start (ADR 054, its second addendum).
 * These tests run the same sources compiled once per worker with esbuild (the compiler tsx itself
 * runs, and the one `npm run build` uses), with plain node: the sources' tree kept (src/server,
 * src/shared, scripts), every relative import given its emitted file's name, npm packages resolved
 * from node_modules at run time, the files read beside the modules copied (ocr-worker.cjs,
 * package.json for the backup's version). What runs is the production build's transform of every
 * module; `npm start`'s tsx path stays tested by the browser journeys' servers
 * (tests/e2e/server.ts).
 */

const root = path.resolve(import.meta.dirname, "../../..");
/** Compiled with the server and shared trees: the scripts the tests start. */
const SCRIPTS = [
  "scripts/create-admin.ts",
  "scripts/rotate-key.ts",
  "scripts/backup.ts",
  "scripts/restore.ts",
  "scripts/lib/backup-command.ts",
];

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
    // `npm run build`'s own compilation of the server (scripts/lib/server-build.mjs), the scripts with it.
    if (!(await buildServer({ quiet: true, outDir, scripts: SCRIPTS })))
      throw new Error("compiled entry points: the server build failed (see esbuild's errors above)");
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
