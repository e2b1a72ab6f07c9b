#!/usr/bin/env node
// The house's import boundaries, checked on the import graph by `npm run lint` (ADR 029). Every
// relative import of src/, scripts/ and tests/ is read with the TypeScript compiler's pre-processor
// (static imports, re-exports, dynamic `import()`, `import type` too: a type is a dependency) and
// resolved to a file; each rule names what it forbids. A violation prints the file, the line,
// the import and the rule, and the exit code is 1. The rules and the server's layers are in
// scripts/lib/boundaries.mjs, the reading of the graph in scripts/lib/import-graph.mjs.
//
//   node scripts/check-boundaries.mjs            check the repository (with the allowlist below)
//   node scripts/check-boundaries.mjs --graph    also print the server's unit graph, floor by floor
//   node scripts/check-boundaries.mjs --root DIR check another tree (e.g. `git archive HEAD`, unpacked)
//   node scripts/check-boundaries.mjs --no-allowlist  every broken rule, the known ones too
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkBoundaries, SERVER_MAX_FLOORS } from "./lib/boundaries.mjs";
import { floors } from "./lib/import-graph.mjs";

export {
  checkBoundaries,
  isTest,
  SERVER_LAYERS,
  SERVER_MAX_FLOORS,
  serverGraph,
  serverUnit,
} from "./lib/boundaries.mjs";
export { floors, listFiles, readImports } from "./lib/import-graph.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Imports that break a rule today and wait for the change that removes them. Each entry names the
 * rule, the importing file, the imported file, and why the import is still there. A listed import
 * is also left out of the search for circles; an entry of rule "server-circle" names the import
 * that cuts a circle open. An entry that no longer matches anything is reported as stale: delete it.
 */
export const ALLOWLIST = [];

function main(argv) {
  const rootArg = argv.indexOf("--root");
  const root = rootArg === -1 ? repoRoot : path.resolve(argv[rootArg + 1]);
  const allowlist = argv.includes("--no-allowlist") ? [] : ALLOWLIST;
  const { violations, allowed, stale, graph } = checkBoundaries({ root, allowlist });
  if (argv.includes("--graph")) {
    const modules = new Map(
      [...graph]
        .filter(([u]) => u.startsWith("modules/"))
        .map(([u, next]) => [u, new Map([...next].filter(([v]) => v.startsWith("modules/")))]),
    );
    for (const [title, g] of [
      ["server units", graph],
      ["server modules among themselves", modules],
    ]) {
      const floor = floors(g);
      const top = Math.max(0, ...floor.values());
      const ceiling = g === graph ? ` (at most ${SERVER_MAX_FLOORS})` : "";
      console.log(`${title}: ${top} floor(s)${ceiling}`);
      for (let f = top; f >= 1; f--) {
        const units = [...floor].filter(([, n]) => n === f).map(([u]) => u);
        console.log(`  floor ${f}: ${units.sort().join(", ")}`);
      }
    }
  }
  for (const entry of stale) {
    console.log(
      `stale allowlist entry (the import is gone: delete it): ${entry.rule} ${entry.from} ${entry.to ?? ""}`,
    );
  }
  if (allowed.length > 0)
    console.log(`${allowed.length} known import(s) still allowed by the allowlist (ADR 029).`);
  if (violations.length === 0) {
    console.log("Import boundaries: OK.");
    return 0;
  }
  for (const v of violations) console.error(`✗ ${v.text}`);
  console.error(
    `\n${violations.length} import(s) break the house's boundaries (ADR 029, scripts/check-boundaries.mjs).`,
  );
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
