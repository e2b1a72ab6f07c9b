import { availableParallelism } from "node:os";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * Tests that measure the server's responsiveness while hostile files are processed (issue 32: a
 * /api/health probe's p99 under 200 ms): they run after every other test file, one at a time, so that
 * what they measure is the server under its hostile file, not the machine under the rest of the suite
 * (ADR 037).
 */
const ALONE = ["src/server/**/*hostile.test.ts"];

export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: on the 2-core machines this
    // project is tested on, a single worker, one test file at a time, while the other core waits.
    // Every file is independent (its own PGlite cloned from the migrated template, its own
    // DATA_DIR, random ports): one worker per core (ADR 028).
    maxWorkers: Math.max(availableParallelism(), 2),
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["src/shared/**/*.test.ts", "src/server/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["src/client/**", "**/node_modules/**", ...ALONE],
          // The files of a worker share their modules (ADR 032): the server's module graph is imported
          // and the migrated template database built once per worker, not once per file (about 2 s
          // and 5 s of CPU a file). The files stay independent: each app has its own database cloned
          // from the template, its own DATA_DIR and random ports; the server keeps no state in a
          // module that a test reads as absolute (counters are read as differences). What must
          // happen per file is registered in the setup files, which run before every file.
          isolate: false,
          // The run's folder for the migrated template, built there once for the run (ADR 054).
          globalSetup: ["src/server/testing/global-setup.ts"],
          // compiled-reader.ts: the reading's child forked compiled, not under tsx (ADR 054).
          setupFiles: [
            "src/client/test/console.ts",
            "src/server/testing/setup.ts",
            "src/server/testing/compiled-reader.ts",
          ],
          // Building an app on a fresh database takes seconds alone, a minute or more on a loaded
          // 2-core machine: the limits are only the verdict "it is stuck" (ADR 028).
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll's wait for what comes after an answer and cannot be awaited (a live event,
          // an e-mail sent after a lookup the answer does not wait for; the e-mails a use case
          // starts before answering are awaited with ctx.mails()): 1 s by default, too short on a
          // loaded machine; 15 s, as the component tests' waitFor.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          name: "alone",
          environment: "node",
          include: ALONE,
          globalSetup: ["src/server/testing/global-setup.ts"],
          // The reading's child forked compiled, as the compiled server forks it in production and
          // as the unit project's apps do (ADR 054).
          setupFiles: [
            "src/client/test/console.ts",
            "src/server/testing/setup.ts",
            "src/server/testing/compiled-reader.ts",
          ],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          // One worker, its three files one after the other, sharing their modules as the unit
          // project's do (ADR 032): the server is imported once, not once per file, and the dear files
          // they all send are made once (testing/hostile-files.ts). Each file still builds its app.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        plugins: [react()],
        test: {
          name: "client",
          environment: "jsdom",
          include: ["src/client/**/*.test.{ts,tsx}"],
          // The files of a worker share their modules and their document, as the unit project's do
          // (ADR 032, its addendum): the app's pages are imported and evaluated once per worker, not
          // once per file (a third of this project's CPU). No file mocks a module; what a file may
          // leave behind (the stores, the query cache, the live channel, sonner's toasts, storage)
          // is put back by the setup file, which runs before every file.
          isolate: false,
          setupFiles: ["src/client/test/setup.ts"],
          // Above the 15 s findBy…/waitFor wait (src/client/test/setup.ts): a test stuck on a screen fails
          // with testing library's message (what the screen shows), not a bare timeout.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
