#!/usr/bin/env node
// `npm test`: every test. Unit, component and API tests (vitest, on PGlite), then the browser
// journeys (Playwright with the system's Chromium) against the built app.
// Flags: --unit-only (no browser), --api-only (the server's tests only, e.g. with TEST_DATABASE_URL
// on PostgreSQL), --e2e-only. Extra arguments after -- go to Playwright.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureChromium } from "./lib/chromium.mjs";
import { ensureClientBuilt, root } from "./lib/client-build.mjs";

const args = process.argv.slice(2);
const apiOnly = args.includes("--api-only");
const unitOnly = args.includes("--unit-only") || apiOnly;
const e2eOnly = args.includes("--e2e-only");
const passthrough = args.includes("--") ? args.slice(args.indexOf("--") + 1) : [];
const reports = mkdtempSync(path.join(tmpdir(), "sourio-reports-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

function run(label, command, commandArgs, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(process.execPath, [command, ...commandArgs], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

if (!e2eOnly) {
  const out = path.join(reports, "vitest.json");
  const passed = run(
    "Tests unitaires, composants et API (vitest)",
    path.join(root, "node_modules/vitest/vitest.mjs"),
    [
      "run",
      ...(apiOnly ? ["--project", "unit", "--project", "alone", "src/server"] : []),
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${out}`,
    ],
  );
  ok &&= passed;
  const report = readJson(out);
  if (report) {
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  } else ok = false;
}

if (!unitOnly) {
  const chromium = ensureChromium();
  if (!chromium) ok = false;
  else if (!(await ensureClientBuilt())) {
    console.error("La construction de l'application web a échoué.");
    ok = false;
  } else {
    const out = path.join(reports, "playwright.json");
    const passed = run(
      "Parcours dans le navigateur (Playwright, Chromium)",
      path.join(root, "node_modules/@playwright/test/cli.js"),
      ["test", ...passthrough],
      { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: out, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
    );
    ok &&= passed;
    const report = readJson(out);
    if (report?.stats) {
      totals.passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
      totals.failed += report.stats.unexpected ?? 0;
      totals.skipped += report.stats.skipped ?? 0;
    } else ok = false;
  }
}

rmSync(reports, { recursive: true, force: true });
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
