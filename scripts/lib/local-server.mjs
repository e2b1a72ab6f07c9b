// The app started as a child process on a free loopback port, and a process's memory, for the bench
// and the script checks.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { root } from "./client-build.mjs";

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `node [nodeArgs] scripts/start.mjs` on a free port with `DATA_DIR=dataDir` (the client not rebuilt,
 * warnings only), `extraEnv` on top; resolves once GET /api/health answers 200 (or after `waitMs`).
 * Returns { base, pid, stop }.
 */
export async function startServer(dataDir, extraEnv = {}, { nodeArgs = [], waitMs = 60_000 } = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...nodeArgs, path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SKIP_CLIENT_BUILD: "true",
      LOG_LEVEL: "warn",
      PUBLIC_URL: base,
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let waited = 0; waited < waitMs; waited += 200) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
  };
  return { base, pid: server.pid, stop };
}

/** A process's resident memory (bytes), read from /proc. */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) * 1024;
}

/**
 * How much the process's RSS rose above its settled level while `work` ran (MB, sampled every
 * 10 ms), and how long the work took (s).
 */
export async function rssGrowthDuring(pid, work) {
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssOf(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, rssOf(pid));
  return { growth: (peak - baseline) / (1024 * 1024), seconds: (performance.now() - started) / 1000 };
}
