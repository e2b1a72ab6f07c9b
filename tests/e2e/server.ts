import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

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

export interface E2eServer {
  baseUrl: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * The built product (npm start without the build step, the demo data seeded) on a random port and a
 * fresh DATA_DIR: one per Playwright worker, started by the worker's `e2eServer` fixture
 * (tests/e2e/fixtures.ts) when the worker starts, stopped when it ends (ADR 028, 054).
 */
export async function startServer(): Promise<E2eServer> {
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
  // A worker that exits without its teardown (killed after a time-out) does not leave its server running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
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
