#!/usr/bin/env node
// `npm start`: builds the client when dist/client is missing or older than its sources, then runs
// the server (TypeScript through tsx) in this process.
import path from "node:path";
import { ensureClientBuilt, root } from "./lib/client-build.mjs";

if (process.env.SKIP_CLIENT_BUILD !== "true" && !(await ensureClientBuilt())) {
  console.error("La construction de l'application web a échoué.");
  process.exit(1);
}

const { register } = await import("tsx/esm/api");
register();
await import(path.join(root, "src/server/server.ts"));
