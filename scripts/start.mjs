#!/usr/bin/env node
// `npm start`: builds the client when dist/client is missing or older than its sources, then runs
// the server (TypeScript through tsx) in this process.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const builtIndex = path.join(root, "dist/client/index.html");

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const sources = ["index.html", "vite.config.ts", "public", "src/client", "src/shared"]
  .map((p) => path.join(root, p))
  .filter(existsSync);
const needsBuild =
  !existsSync(builtIndex) || Math.max(...sources.map(newestMtime)) > statSync(builtIndex).mtimeMs;
if (needsBuild && process.env.SKIP_CLIENT_BUILD !== "true") {
  console.log("Construction de l'application web (vite build)…");
  const vite = path.join(root, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("La construction de l'application web a échoué.");
    process.exit(result.status ?? 1);
  }
}

const { register } = await import("tsx/esm/api");
register();
await import(path.join(root, "src/server/server.ts"));
