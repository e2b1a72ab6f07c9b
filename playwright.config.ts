import { availableParallelism } from "node:os";
import { defineConfig, devices } from "@playwright/test";

// Browser journeys against the built app, served by tests/e2e/server.ts on random ports with
// temporary DATA_DIRs: one server per worker (its `e2eServer` fixture), each worker's files one after
// the other. Chromium is the system's (CHROMIUM_PATH, set by scripts/test.mjs):
// Playwright never downloads a browser here.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // One worker per core, each with its own server (tests/e2e/fixtures.ts), as vitest: a journey
  // spends part of its time waiting (for its server, for the browser), and `npm test` runs vitest's
  // unit and component tests beside the journeys to fill that time (ADR 028, 054). `--workers=N`
  // still chooses; a run starts a server only for each worker it uses (one for a single file).
  workers: Math.max(availableParallelism(), 2),
  retries: process.env.CI ? 1 : 0,
  // Journeys wait for what the page shows, never for a fixed time; how long they may wait is only
  // the verdict "it will never come", generous enough for a 2-core machine loaded many times over
  // (a journey of 10 s quiet took more than 60 s at a load of 30), and one for every journey: none
  // sets its own (ADR 028).
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: [["list"], ["json"]],
  outputDir: "test-results",
  use: {
    ...devices["Desktop Chrome"],
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    // A trace only where it is read: a journey's retry (CI retries once) records one; recording
    // every passing journey cost about a quarter of the browser suite's CPU (ADR 032). Locally, a
    // failing journey is run again with `-- --trace on` (npm test) for its trace.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
