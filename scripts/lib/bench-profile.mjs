#!/usr/bin/env node
// Where the time goes (issue 19, ADR 025): the server under `node --cpu-prof`, one process per route,
// loaded by autocannon (10 connections), then the profile's self time summed by package / source
// folder and by function. Not part of `npm run bench`; run by hand:
//   node scripts/lib/bench-profile.mjs [--seconds 5] [--connections 10] [--postgres] [--route /api/me ...]
//     [--as dentist|admin] (the seeded admin is also a patient: /api/patient/requests, /api/admin/users)
//     [--keep DIR] (copies each .cpuprofile there, for Chrome's DevTools or scripts/lib/profile-callers.mjs)
// RESPONSE_CACHE=off in the environment profiles the computed answers (issue 38).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { root } from "./client-build.mjs";
import { freePort } from "./local-server.mjs";
import { startTempPostgres } from "./temp-postgres.mjs";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    postgres: { type: "boolean", default: false },
    route: { type: "string", multiple: true },
    top: { type: "string", default: "25" },
    connections: { type: "string", default: "10" },
    as: { type: "string", default: "dentist" },
    keep: { type: "string" },
  },
});
const routes = values.route ?? ["/api/health", "/api/me", "/api/dentist/requests", "/api/dentist/dashboard"];

/** Self time (ms) by group and by function of a .cpuprofile, from `skipMs` after its start (the load). */
function summarize(file, skipMs) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += (dt[i] ?? 0) / 1000;
    // Start-up (modules, migrations, the postal code table) is not the request path.
    if (at < skipMs) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  const groups = new Map();
  const functions = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id);
    const url = callFrame.url ?? "";
    const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
    const group = pkg
      ? pkg
      : url.includes("/src/")
        ? `src/${url.split("/src/")[1].split("/").slice(0, -1).join("/")}`
        : url.startsWith("node:")
          ? "node:internal"
          : callFrame.functionName === "(idle)"
            ? "(idle)"
            : // PGlite's PostgreSQL compiled to WebAssembly: one group, not one per function.
              callFrame.functionName.startsWith("wasm-function")
              ? "PGlite (WebAssembly)"
              : callFrame.functionName || "(native)";
    if (group === "(idle)") continue;
    total += ms;
    groups.set(group, (groups.get(group) ?? 0) + ms);
    const fn = `${callFrame.functionName || "(anonymous)"} ${pkg ?? url.split("/").slice(-2).join("/")}:${callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .map(([name, ms]) => `  ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join("\n");
  return `busy ${(total / 1000).toFixed(1)} s\n by package / folder:\n${top(groups)}\n by function:\n${top(functions)}`;
}

const postgres = values.postgres ? await startTempPostgres() : null;
const env = postgres ? postgres.env : {};
const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-prof-"));
try {
  const seed = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/bench-seed.ts"), "--data-dir", dataDir],
    { cwd: root, encoding: "utf8", env: { ...process.env, ...env } },
  );
  if (seed.status !== 0) throw new Error(seed.stderr);
  const { dentistEmail, adminEmail, password } = JSON.parse(seed.stdout.trim().split("\n").pop());
  const email = values.as === "admin" ? adminEmail : dentistEmail;
  for (const route of routes) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const profDir = mkdtempSync(path.join(tmpdir(), "sourio-prof-cpu-"));
    const spawnedAt = performance.now();
    const server = spawn(
      process.execPath,
      ["--cpu-prof", `--cpu-prof-dir=${profDir}`, path.join(root, "scripts/start.mjs")],
      {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          SKIP_CLIENT_BUILD: "true",
          DEMO_DATA: "false",
          PUBLIC_URL: base,
        },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    for (let i = 0; i < 150; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${base}/api/account/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    const loadAt = performance.now();
    const result = await autocannon({
      url: base + route,
      connections: Number(values.connections),
      duration: Number(values.seconds),
      headers: { cookie },
    });
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
    console.log(
      `\n== ${route} (${postgres ? "PostgreSQL" : "PGlite"}): ${Math.round(result.requests.average)} req/s, ` +
        `p50 ${result.latency.p50} ms, non-2xx ${result.non2xx}`,
    );
    console.log(file ? summarize(path.join(profDir, file), loadAt - spawnedAt) : "(no profile written)");
    if (file && values.keep) {
      mkdirSync(values.keep, { recursive: true });
      const kept = path.join(
        values.keep,
        `${route.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}.cpuprofile`,
      );
      copyFileSync(path.join(profDir, file), kept);
      console.log(`profile: ${kept} (load from ${Math.round(loadAt - spawnedAt)} ms)`);
    }
    rmSync(profDir, { recursive: true, force: true });
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  postgres?.stop();
}
