#!/usr/bin/env node
// `npm start`: builds the client when dist/client is missing or older than its sources, then runs
// the server in this process:
// - NODE_ENV=production: the compiled JavaScript (dist/server/server.js, compiled first when missing or
//   older than src/server and src/shared) with plain node, no tsx;
// - otherwise: the TypeScript sources through tsx, as in development.
// On a Node.js older than package.json's engines (>=22.13) it says so in one line, and starts anyway.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureClientBuilt, root } from "./lib/client-build.mjs";
import { nodeSupportNotice } from "./lib/node-support.mjs";

// Node 20 and older 22s still run the quick start; one line says which Node to install instead.
const notice = nodeSupportNotice();
if (notice) console.warn(notice);

if (process.env.SKIP_CLIENT_BUILD !== "true" && !(await ensureClientBuilt())) {
  console.error("La construction de l'application web a échoué.");
  process.exit(1);
}

if (process.env.NODE_ENV === "production") {
  const { ensureServerBuilt, SERVER_ENTRY } = await import("./lib/server-build.mjs");
  if (!(await ensureServerBuilt())) {
    console.error("La compilation du serveur a échoué.");
    process.exit(1);
  }
  // Stack traces name the TypeScript sources (dist/server/*.js.map; no measurable start-up cost).
  // module.setSourceMapsSupport from Node 22.14 on; process.setSourceMapsEnabled (experimental) before.
  const { setSourceMapsSupport } = await import("node:module");
  if (setSourceMapsSupport) setSourceMapsSupport(true);
  else process.setSourceMapsEnabled(true);
  await import(pathToFileURL(SERVER_ENTRY).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(path.join(root, "src/server/server.ts"));
}
