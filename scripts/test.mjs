#!/usr/bin/env node
// `npm test`: every test. Unit, component and API tests (vitest, on PGlite) and the browser journeys
// (Playwright with the system's Chromium) against the built app, side by side (ADR 054): the client is
// built and the journeys run while vitest's unit and component tests run, then the hostile-file tests
// (vitest project `alone`, ADR 037) run last with nothing else running.
// Flags: --unit-only (no browser), --api-only (the server's tests only, e.g. with TEST_DATABASE_URL
// on PostgreSQL), --e2e-only. Extra arguments after -- go to Playwright.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import path from "node:path";
import { ensureChromium } from "./lib/chromium.mjs";
import { root } from "./lib/client-build.mjs";

const args = process.argv.slice(2);
const apiOnly = args.includes("--api-only");
const unitOnly = args.includes("--unit-only") || apiOnly;
const e2eOnly = args.includes("--e2e-only");
const passthrough = args.includes("--") ? args.slice(args.indexOf("--") + 1) : [];
const reports = mkdtempSync(path.join(tmpdir(), "sourio-reports-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** The tests that failed, and the journeys that passed only on their retry: named again at the end. */
const failures = [];
const flaky = [];
let ok = true;

/**
 * The reading's processes at the suite's own priority while the browser journeys run (READING_NICE,
 * ADR 054 addendum): at the product's nice 19, beside vitest's workers, the journeys' servers and
 * Chromium at nice 0 or above, they got almost no CPU on a 2-core machine (a page preview stalled for
 * 75 s, readings outlived their tests' waits). The hostile-file tests, which measure the server beside
 * that process, and the runs without a browser keep the product's 19.
 */
const BESIDE_JOURNEYS = { READING_NICE: String(Math.min(19, Math.max(0, getPriority()))) };

/**
 * Runs a Node script; resolves with whether it passed. With `capture`, its output is kept and printed
 * in one block when it ends (two parts running side by side would otherwise mix their lines).
 */
function run(label, command, commandArgs, { env = {}, capture = false } = {}) {
  if (!capture) console.log(`\n▶ ${label}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...commandArgs], {
      cwd: root,
      stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    const output = [];
    if (capture) {
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
    }
    child.on("error", (error) => {
      console.error(`${label} : ${error.message}`);
      resolve(false);
    });
    child.on("close", (code) => {
      if (capture) {
        console.log(`\n▶ ${label}`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve(code === 0);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

let reportCount = 0;
/** vitest with these arguments; its counts added to the totals, its failed tests to `failures`. */
async function vitest(label, vitestArgs, env = {}) {
  reportCount += 1;
  const out = path.join(reports, `vitest-${reportCount}.json`);
  const passed = await run(
    label,
    path.join(root, "node_modules/vitest/vitest.mjs"),
    ["run", ...vitestArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
    { env },
  );
  const report = readJson(out);
  if (report) {
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      const name = path.relative(root, file.name);
      const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
      for (const test of failed) failures.push(`${name} › ${test.fullName}`);
      // A file that failed outside its tests (an import, a hook): named once.
      if (failed.length === 0 && file.status === "failed") failures.push(`${name} : ${file.message ?? ""}`);
    }
  }
  return passed && report !== null;
}

/** The journeys of a Playwright JSON report, by outcome ('unexpected', 'flaky'). */
function journeysBy(suites, outcome, into = []) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === outcome) into.push(`${spec.file}:${spec.line} › ${spec.title}`);
    journeysBy(suite.suites, outcome, into);
  }
  return into;
}

/**
 * The client built when stale (in a process of its own, so that it can run beside vitest), then the
 * browser journeys; with `capture`, their output is printed in one block at the end.
 */
async function browserJourneys(chromium, capture) {
  const built = await run(
    "Construction de l'application web",
    path.join(root, "scripts/lib/client-build.mjs"),
    [],
    { capture },
  );
  if (!built) {
    console.error("La construction de l'application web a échoué.");
    return false;
  }
  const out = path.join(reports, "playwright.json");
  const passed = await run(
    "Parcours dans le navigateur (Playwright, Chromium)",
    path.join(root, "node_modules/@playwright/test/cli.js"),
    ["test", ...passthrough],
    {
      env: {
        ...BESIDE_JOURNEYS,
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
      },
      capture,
    },
  );
  const report = readJson(out);
  if (!report?.stats) return false;
  totals.passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
  totals.failed += report.stats.unexpected ?? 0;
  totals.skipped += report.stats.skipped ?? 0;
  failures.push(...journeysBy(report.suites, "unexpected"));
  flaky.push(...journeysBy(report.suites, "flaky"));
  return passed;
}

const VITEST_LABEL = "Tests unitaires, composants et API (vitest)";

if (unitOnly) {
  ok = await vitest(VITEST_LABEL, apiOnly ? ["--project", "unit", "--project", "alone", "src/server"] : []);
} else {
  const chromium = ensureChromium();
  if (!chromium) ok = false;
  if (e2eOnly) {
    ok = ok && (await browserJourneys(chromium, false));
  } else {
    // Both parts at once: a journey waits much of its time (for its server, for the browser), so the
    // journeys leave the cores half idle; vitest's workers fill them (ADR 054). The hostile-file tests
    // measure the server's responsiveness and run after both, alone. Both vitest runs read the same
    // migrated template database (testing/global-setup.ts): the second does not build it again.
    process.env.SOURIO_TEST_TEMPLATE_DIR ??= path.join(reports, "template");
    const [units, journeys] = await Promise.all([
      vitest(VITEST_LABEL, ["--project", "unit", "--project", "client"], BESIDE_JOURNEYS),
      chromium ? browserJourneys(chromium, true) : false,
    ]);
    const hostile = await vitest("Fichiers hostiles, seuls sur la machine (vitest, projet alone)", [
      "--project",
      "alone",
    ]);
    ok = ok && units && journeys && hostile;
  }
}

rmSync(reports, { recursive: true, force: true });
if (failures.length > 0) console.log(`\nÉchecs :\n${failures.map((name) => `  ✗ ${name}`).join("\n")}`);
if (flaky.length > 0)
  console.log(`\nRéussis au second essai :\n${flaky.map((name) => `  ~ ${name}`).join("\n")}`);
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
