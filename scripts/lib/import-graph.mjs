// Reading a tree's import graph, for scripts/check-boundaries.mjs (ADR 029): every relative import of
// src/, scripts/ and tests/, read with the TypeScript compiler's pre-processor (static imports,
// re-exports, dynamic `import()`, `import type` too: a type is a dependency) and resolved to a file;
// and what a graph's shape says: its circles and its floors.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js", ".jsx", ".d.ts"];

/** Every code file under root/{src,scripts,tests}, as a path relative to root with "/" separators. */
export function listFiles(root) {
  const files = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (CODE.test(entry.name)) files.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  for (const top of ["src", "scripts", "tests"]) walk(path.join(root, top));
  return files.sort();
}

function resolveImport(root, from, specifier) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stems = [base];
  if (/\.[cm]?js$/.test(base))
    stems.push(base.replace(/\.([cm]?)js$/, ".$1ts"), base.replace(/\.js$/, ".tsx"));
  const candidates = [
    ...stems,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ];
  for (const candidate of candidates) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

/** The relative imports of the files: { from, to, specifier, line }, `to` resolved to a file. */
export function readImports(root, files) {
  const edges = [];
  for (const from of files) {
    let text;
    try {
      text = readFileSync(path.join(root, from), "utf8");
    } catch (error) {
      if (error.code === "ENOENT") continue; // moved away since the tree was listed
      throw error;
    }
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith(".")) continue;
      const to = resolveImport(root, from, specifier);
      if (!to) continue; // tsc reports imports that resolve to nothing
      const line = text.slice(0, imported.pos).split("\n").length;
      edges.push({ from, to, specifier, line });
    }
  }
  return edges;
}

/** The strongly connected components (Tarjan) of a graph given as Map<node, Set<node>>, size > 1 only. */
export function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

export const unitSets = (graph) => new Map([...graph].map(([unit, next]) => [unit, new Set(next.keys())]));

/**
 * Floors of the unit graph, a circle counted as one room: floor 1 imports no other unit, and each
 * unit sits one floor above the highest it imports.
 */
export function floors(graph) {
  const roomOf = new Map();
  for (const units of circles(unitSets(graph))) for (const unit of units) roomOf.set(unit, units[0]);
  const room = (unit) => roomOf.get(unit) ?? unit;
  const rooms = new Map();
  for (const [unit, next] of graph) {
    if (!rooms.has(room(unit))) rooms.set(room(unit), new Set());
    for (const other of next.keys()) if (room(other) !== room(unit)) rooms.get(room(unit)).add(room(other));
  }
  const floor = new Map();
  const at = (r) => {
    if (!floor.has(r)) floor.set(r, 1 + Math.max(0, ...[...rooms.get(r)].map(at)));
    return floor.get(r);
  };
  return new Map([...graph.keys()].map((unit) => [unit, at(room(unit))]));
}
