#!/usr/bin/env node
// `npm run dev`: the API (tsx watch, port 3000) and Vite's dev server (port 5173, proxying /api).
import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "./lib/client-build.mjs";

const children = [
  spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "watch", "src/server/server.ts"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, SKIP_CLIENT_BUILD: "true" },
    },
  ),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js")], {
    cwd: root,
    stdio: "inherit",
  }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children)
  child.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
