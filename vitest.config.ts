import { availableParallelism } from "node:os";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

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
          exclude: ["src/client/**", "**/node_modules/**"],
          // Building an app on a fresh database takes seconds alone, a minute or more on a loaded
          // 2-core machine: the limits are only the verdict "it is stuck" (ADR 028).
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "client",
          environment: "jsdom",
          include: ["src/client/**/*.test.{ts,tsx}"],
          setupFiles: ["src/client/test/setup.ts"],
          // Above the 15 s findBy…/waitFor wait (src/client/test/setup.ts): a test stuck on a screen fails
          // with testing library's message (what the screen shows), not a bare timeout.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
