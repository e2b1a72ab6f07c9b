// Builds the web client (vite build) when dist/client is missing or older than its sources.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

/** Returns true when the client is built and fresh; prints vite's own errors otherwise. */
export function ensureClientBuilt({ force = false } = {}) {
  if (!force && !clientNeedsBuild()) return true;
  console.log("Construction de l'application web (vite build)…");
  const vite = path.join(root, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  return result.status === 0;
}
