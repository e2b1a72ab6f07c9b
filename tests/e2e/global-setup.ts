import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${child.exitCode})`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`le serveur n'a pas répondu sur ${url} en ${timeoutMs} ms`);
}

interface Server {
  baseUrl: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/** The built product (npm start without the build step) on a random port and a fresh DATA_DIR. */
async function startServer(): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-e2e-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.resolve("scripts/start.mjs")], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      SKIP_CLIENT_BUILD: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      // One browser, many logins from one address: keep the per-IP limit out of the journeys' way.
      LOGIN_RATE_LIMIT_PER_IP: "10000",
      // The reminder journey moves the server's clock (POST /api/test/clock), then puts it back.
      TEST_CLOCK: "true",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => {
        child.once("exit", resolve);
        setTimeout(resolve, 10_000);
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Start-up (migrations, the demo data) takes seconds alone, minutes on a loaded 2-core machine.
  try {
    await waitForHealth(baseUrl, child, 300_000);
  } catch (error) {
    // A server that did not answer in time is not left running.
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, stop };
}

/**
 * One server per Playwright worker (ADR 028): a worker's journeys run one after the other against
 * their own server, database, outbox and clock, as they did when there was one worker, and never
 * see what the other worker's journeys create or move (the admin's lists, the demo accounts, the
 * clock of the reminder journey). tests/e2e/fixtures.ts picks the worker's server by its index.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const count = Math.max(1, config.workers);
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer()));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  process.env.E2E_BASE_URLS = servers.map((s) => s.baseUrl).join(" ");
  process.env.E2E_DATA_DIRS = servers.map((s) => s.dataDir).join(path.delimiter);
  return stopAll;
}
