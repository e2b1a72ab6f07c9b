// The rules of scripts/check-boundaries.mjs (ADR 029): what an import may not cross, and the
// server's layers. Each rule has a name, printed with the file, the line and the import that break it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CODE, circles, floors, listFiles, readImports, unitSets } from "./import-graph.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The server's layers, bottom to top: a file may import its own layer or a lower one, never a higher
 * one. A unit is a folder of src/server (modules/<name> each a unit of its own) or a file directly in
 * it. A new folder or file at the top of src/server must be placed here: until it is, it is reported.
 */
export const SERVER_LAYERS = [
  {
    name: "base",
    units: [
      "config",
      "errors",
      "redact",
      "db",
      "files",
      "mail",
      "storage",
      "realtime",
      "password-hasher",
      "sample-files",
      "wasm-code-gc",
    ],
  },
  {
    name: "platform",
    units: ["access", "plugins", "auth", "http", "upkeep", "geo", "chat", "throttle", "backup"],
  },
  { name: "modules", units: ["modules/*"] },
  { name: "top", units: ["app", "server", "runtime", "bootstrap", "jobs", "demo"] },
];

/**
 * The most floors the server's units may stand (ADR 031): floor 1 imports no other unit, each unit
 * sits one floor above the highest it imports (tests and src/server/testing left out). Today:
 * base, platform, two floors of modules (the lower import no other module), app and jobs, server.
 * Lower it when a floor goes; a change that raises it is a change of the design, to be argued in an ADR.
 */
export const SERVER_MAX_FLOORS = 6;

const TEST = /(\.(test|spec)\.[cm]?[jt]sx?$)|(^src\/server\/testing\/)|(^src\/client\/test\/)|(^tests\/)/;

export const isTest = (file) => TEST.test(file);

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

  if (feature(from) && under(to, "src/client/app")) {
    add("feature-imports-app", "app/ imports the features (routes, layouts); a feature never imports app/");
  }

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

/**
 * A violation when the unit graph stands more than `max` floors, naming its highest chain with one
 * import per step (the first in file order), or undefined.
 */
function floorsAbove(graph, max) {
  const floor = floors(graph);
  const top = Math.max(0, ...floor.values());
  if (top <= max) return undefined;
  const byName = (a, b) => (a < b ? -1 : 1);
  let unit = [...floor]
    .filter(([, f]) => f === top)
    .map(([u]) => u)
    .sort(byName)[0];
  const chain = [unit];
  const steps = [];
  while (floor.get(unit) > 1) {
    const below = [...graph.get(unit)]
      .filter(([u]) => floor.get(u) === floor.get(unit) - 1)
      .sort(([a], [b]) => byName(a, b))[0];
    if (!below) break; // a circle counted as one room: its units share a floor
    steps.push(`      ${where(below[1][0])}`);
    unit = below[0];
    chain.push(unit);
  }
  return {
    rule: "server-floors",
    from: chain.join(" → "),
    to: "",
    text: `the server's units stand ${top} floors, at most ${max} (SERVER_MAX_FLOORS, ADR 031): ${chain.join(" → ")}\n${steps.join("\n")}\n    server-floors: take a floor out of that chain (a piece both need moves down), or argue a new ceiling in an ADR`,
  };
}

const where = (edge) => `${edge.from}:${edge.line} imports "${edge.specifier}" (${edge.to})`;

/**
 * Checks a tree. Returns { violations, allowed, stale }: each violation { rule, from, to, text },
 * where a circle's `from` is its units joined by " <-> " and `to` is "".
 */
export function checkBoundaries({ root = repoRoot, allowlist = [], maxFloors = SERVER_MAX_FLOORS } = {}) {
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
  const tooHigh = floorsAbove(graph, maxFloors);
  if (tooHigh) found.push(tooHigh);
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
