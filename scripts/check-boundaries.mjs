#!/usr/bin/env node
// The house's import boundaries, checked on the import graph by `npm run lint` (ADR 029). Every
// relative import of src/, scripts/ and tests/ is read with the TypeScript compiler's pre-processor
// (static imports, re-exports, dynamic `import()`, `import type` too: a type is a dependency) and
// resolved to a file; each rule below names what it forbids. A violation prints the file, the line,
// the import and the rule, and the exit code is 1.
//
//   node scripts/check-boundaries.mjs            check the repository (with the allowlist below)
//   node scripts/check-boundaries.mjs --graph    also print the server's unit graph, floor by floor
//   node scripts/check-boundaries.mjs --root DIR check another tree (e.g. `git archive HEAD`, unpacked)
//   node scripts/check-boundaries.mjs --no-allowlist  every broken rule, the known ones too
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The server's layers, bottom to top: a file may import its own layer or a lower one, never a higher
 * one. A unit is a folder of src/server (modules/<name> each a unit of its own) or a file directly in
 * it. A new folder or file at the top of src/server must be placed here: until it is, it is reported.
 */
export const SERVER_LAYERS = [
  { name: "base", units: ["config", "errors", "db", "files", "mail", "storage"] },
  { name: "platform", units: ["access", "plugins", "realtime", "auth", "http", "uploads", "sample-files"] },
  { name: "modules", units: ["modules/*"] },
  { name: "top", units: ["app", "server", "runtime", "bootstrap", "jobs", "demo"] },
];

/**
 * Imports that break a rule today and wait for the change that removes them. Each entry names the
 * rule, the importing file and the imported file (for a circle: the units, sorted), and why it is
 * still there. An entry that no longer matches anything is reported as stale: delete it.
 */
export const ALLOWLIST = [
  {
    rule: "server-layer",
    from: "src/server/access/actor.ts",
    to: "src/server/modules/profiles/profiles.repo.ts",
    reason: "the actor creates a missing profile row on first sign-in with the profiles repo",
  },
  {
    rule: "server-layer",
    from: "src/server/auth.ts",
    to: "src/server/modules/account/password-hasher.ts",
    reason: "Better Auth's counted password hasher lives in the account module, which also uses it",
  },
  {
    rule: "server-layer",
    from: "src/server/errors.ts",
    to: "src/server/plugins/logging.ts",
    reason: "loggableError uses the log serializer of plugins/logging, which errors' handler shares",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/account/account.routes.ts",
    to: "src/server/modules/profiles/profiles.repo.ts",
    reason: "the account routes read and update the profile row directly",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/admin/admin.routes.ts",
    to: "src/server/modules/support/support.repo.ts",
    reason: "the admin support screen reads support threads directly",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/dentists/dentists.routes.ts",
    to: "src/server/modules/quotes/quotes.repo.ts",
    reason: "the dentist's request view reads the patient's structured quote directly",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/offers/offers.routes.ts",
    to: "src/server/modules/quotes/quotes.repo.ts",
    reason: "the offer routes read quote lines directly",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/requests/requests.routes.ts",
    to: "src/server/modules/offers/offers.repo.ts",
    reason: "the request routes list the request's offers directly",
  },
  {
    rule: "repo-from-other-routes",
    from: "src/server/modules/requests/requests.routes.ts",
    to: "src/server/modules/quotes/quotes.repo.ts",
    reason: "the request routes read and save the patient's quote lines directly",
  },
  {
    rule: "server-layer",
    from: "src/server/modules/system/testClock.routes.ts",
    to: "src/server/jobs.ts",
    reason: "the test clock route (tests and e2e only) runs the mail jobs at once",
  },
  {
    rule: "server-layer",
    from: "src/server/realtime/hub.ts",
    to: "src/server/modules/conversations/conversations.repo.ts",
    reason: "the hub loads a conversation's new messages to push them",
  },
  {
    rule: "server-layer",
    from: "src/server/realtime/hub.ts",
    to: "src/server/modules/support/support.repo.ts",
    reason: "the hub loads a support thread's new messages to push them",
  },
  {
    rule: "server-circle",
    from: "src/server/realtime/realtime.routes.ts",
    to: "src/server/access/actor.ts",
    reason:
      "the WebSocket route (a route, like a module's) sits in realtime/, which access's session cache uses",
  },
  {
    rule: "server-circle",
    from: "src/server/realtime/realtime.routes.ts",
    to: "src/server/plugins/cross-site.ts",
    reason: "the same route checks the Origin with plugins/cross-site, while a plugin uses realtime's bus",
  },
  {
    rule: "server-circle",
    from: "src/server/realtime/realtime.routes.ts",
    to: "src/server/access/rules.ts",
    reason: "the same route asks access's rules who may follow which conversation",
  },
];

const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
const TEST = /(\.(test|spec)\.[cm]?[jt]sx?$)|(^src\/server\/testing\/)|(^src\/client\/test\/)|(^tests\/)/;
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js", ".jsx", ".d.ts"];

export const isTest = (file) => TEST.test(file);

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
    const text = readFileSync(path.join(root, from), "utf8");
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

/** The server unit of a file (modules/<name>, a folder, or a file's name without extension). */
export function serverUnit(file) {
  const parts = file.split("/");
  if (parts[0] !== "src" || parts[1] !== "server" || parts.length < 3) return undefined;
  if (parts[2] === "modules" && parts.length > 4) return `modules/${parts[3]}`;
  return parts.length === 3 ? parts[2].replace(CODE, "") : parts[2];
}

function layerOf(unit) {
  const index = SERVER_LAYERS.findIndex(({ units }) =>
    units.some((u) => u === unit || (u.endsWith("/*") && unit.startsWith(u.slice(0, -1)))),
  );
  return index === -1 ? undefined : index;
}

const feature = (file) => /^src\/client\/features\/([^/]+)\//.exec(file)?.[1];
const under = (file, dir) => file.startsWith(`${dir}/`);

/**
 * The folder with a front door that holds a client file, if any: a folder below a feature or below
 * src/client/components whose index.ts(x) (else, for a page folder, its *Page.tsx) is the only file
 * others may import. Returns the innermost such folder and its doors.
 */
function doorFolders(files) {
  const folders = new Map();
  const dirs = new Set(files.map((f) => path.posix.dirname(f)));
  for (const dir of dirs) {
    const m = /^src\/client\/(features\/[^/]+|components)\/.+$/.exec(dir);
    if (!m) continue;
    const inside = files.filter((f) => path.posix.dirname(f) === dir);
    const index = inside.filter((f) => /\/index\.[jt]sx?$/.test(f));
    const pages = inside.filter((f) => /\/[A-Z][A-Za-z0-9]*Page\.tsx$/.test(f));
    const doors = index.length > 0 ? index : pages;
    if (doors.length > 0) folders.set(dir, doors);
  }
  return folders;
}

function innermostFolder(folders, file) {
  let best;
  for (const dir of folders.keys()) if (under(file, dir) && (!best || dir.length > best.length)) best = dir;
  return best;
}

/** Every rule broken by one import, as { rule, message }. */
function edgeViolations(edge, folders) {
  const { from, to } = edge;
  const found = [];
  const add = (rule, message) => found.push({ rule, message });
  const fromClient = under(from, "src/client");
  const toClient = under(to, "src/client");
  const fromServer = under(from, "src/server");
  const toServer = under(to, "src/server");

  if (fromClient && toServer) add("client-server", "the client imports only src/shared, never src/server");
  if (fromServer && toClient) add("client-server", "the server imports only src/shared, never src/client");
  if (under(from, "src/shared") && (toClient || toServer || !under(to, "src"))) {
    add("shared-imports-shared", "src/shared imports nothing but src/shared (client and server both use it)");
  }
  if (feature(from) && feature(to) && feature(from) !== feature(to)) {
    add(
      "feature-to-feature",
      `feature "${feature(from)}" imports feature "${feature(to)}": lift what both use to src/client/components, src/client/lib or src/shared`,
    );
  }
  if (
    (under(from, "src/client/components") || under(from, "src/client/lib")) &&
    (under(to, "src/client/features") || under(to, "src/client/app"))
  ) {
    add(
      "shared-ui-imports-feature",
      "components/ and lib/ serve every feature: they import no feature and not app/",
    );
  }
  if (isTest(from)) return found; // tests may reach into what they test

  if (/\.routes\.[jt]s$/.test(to) && from !== "src/server/app.ts") {
    add(
      "routes-only-from-app",
      "a *.routes.ts is registered by src/server/app.ts and imported by nothing else",
    );
  }
  const toModule = /^src\/server\/modules\/([^/]+)\/[^/]+\.repo\.[jt]s$/.exec(to)?.[1];
  const fromModuleRoutes = /^src\/server\/modules\/([^/]+)\/[^/]+\.routes\.[jt]s$/.exec(from)?.[1];
  if (toModule && fromModuleRoutes && toModule !== fromModuleRoutes) {
    add(
      "repo-from-other-routes",
      `routes of module "${fromModuleRoutes}" use the repo of module "${toModule}": go through that module's service`,
    );
  }
  const folder = innermostFolder(folders, to);
  if (folder && !under(from, folder) && !folders.get(folder).includes(to)) {
    add(
      "folder-internals",
      `${to} is inside ${folder}/, whose door is ${folders.get(folder).join(", ")}: import the door`,
    );
  }
  const fromUnit = serverUnit(from);
  const toUnit = serverUnit(to);
  if (fromUnit && toUnit && fromUnit !== toUnit) {
    const a = layerOf(fromUnit);
    const b = layerOf(toUnit);
    if (a !== undefined && b !== undefined && b > a) {
      add(
        "server-layer",
        `upward import: "${fromUnit}" (${SERVER_LAYERS[a].name}) imports "${toUnit}" (${SERVER_LAYERS[b].name}); layers bottom to top: ${SERVER_LAYERS.map((l) => l.name).join(" < ")}`,
      );
    }
  }
  return found;
}

/** The strongly connected components (Tarjan) of a graph given as Map<node, Set<node>>, size > 1 only. */
function circles(graph) {
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

/**
 * The server's unit graph from the non-test imports, leaving out the imports `skip` says:
 * Map<unit, Map<unit, the imports from one to the other>>.
 */
export function serverGraph(edges, skip = () => false) {
  const graph = new Map();
  for (const edge of edges) {
    if (isTest(edge.from) || skip(edge)) continue;
    const a = serverUnit(edge.from);
    const b = serverUnit(edge.to);
    if (!a || !b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.has(b)) graph.set(b, new Map());
    if (a === b) continue;
    if (!graph.get(a).has(b)) graph.get(a).set(b, []);
    graph.get(a).get(b).push(edge);
  }
  return graph;
}

const unitSets = (graph) => new Map([...graph].map(([unit, next]) => [unit, new Set(next.keys())]));

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

const where = (edge) => `${edge.from}:${edge.line} imports "${edge.specifier}" (${edge.to})`;

/**
 * Checks a tree. Returns { violations, allowed, stale }: each violation { rule, from, to, text },
 * where a circle's `from` is its units joined by " <-> " and `to` is "".
 */
export function checkBoundaries({ root = repoRoot, allowlist = [] } = {}) {
  const files = listFiles(root);
  const edges = readImports(root, files);
  const folders = doorFolders(files);
  const found = [];
  for (const edge of edges) {
    for (const { rule, message } of edgeViolations(edge, folders)) {
      found.push({ rule, from: edge.from, to: edge.to, text: `${where(edge)}\n    ${rule}: ${message}` });
    }
  }
  const unplaced = new Set();
  for (const file of files) {
    const unit = serverUnit(file);
    if (unit && !isTest(file) && layerOf(unit) === undefined && !unplaced.has(unit)) {
      unplaced.add(unit);
      found.push({
        rule: "server-layer",
        from: file,
        to: "",
        text: `${file}\n    server-layer: "${unit}" is in no layer: place it in SERVER_LAYERS (scripts/check-boundaries.mjs)`,
      });
    }
  }
  // An allowlisted import is left out of the circle search too: one entry per import, whatever
  // rule it breaks. An entry of rule "server-circle" names an import that closes a circle.
  const sameEdge = (entry, edge) => entry.from === edge.from && entry.to === edge.to;
  const skip = (edge) => allowlist.some((entry) => sameEdge(entry, edge));
  const graph = serverGraph(edges, skip);
  for (const units of circles(unitSets(graph))) {
    const links = [];
    for (const a of units) {
      for (const [b, list] of graph.get(a))
        if (units.includes(b)) links.push(...list.map((e) => `      ${where(e)}`));
    }
    found.push({
      rule: "server-circle",
      from: units.join(" <-> "),
      to: "",
      text: `circle between server units ${units.join(", ")}:\n${links.join("\n")}\n    server-circle: these units import each other; cut the circle (ADR 029)`,
    });
  }
  const matches = (entry, v) => entry.rule === v.rule && entry.from === v.from && entry.to === v.to;
  const violations = found.filter((v) => !allowlist.some((entry) => matches(entry, v)));
  const allowed = found.filter((v) => allowlist.some((entry) => matches(entry, v)));
  const stale = allowlist.filter((entry) => {
    if (entry.rule !== "server-circle") return !found.some((v) => matches(entry, v));
    // Still needed while the import exists and, put back, closes a circle.
    const edge = edges.find((e) => !isTest(e.from) && sameEdge(entry, e));
    if (!edge) return true;
    const back = serverGraph(edges, (e) => e !== edge && skip(e));
    const a = serverUnit(edge.from);
    return !circles(unitSets(back)).some((units) => units.includes(a) && units.includes(serverUnit(edge.to)));
  });
  for (const entry of allowlist)
    if (entry.rule === "server-circle" && !stale.includes(entry)) allowed.push(entry);
  return { violations, allowed, stale, graph: serverGraph(edges) };
}

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
      console.log(`${title}: ${top} floor(s)`);
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
