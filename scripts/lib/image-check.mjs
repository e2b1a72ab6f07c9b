#!/usr/bin/env node
// The Dockerfile's runtime stage reproduced without Docker (no engine needed): what the image holds is
// copied to a temporary folder — package.json and the lockfile, `npm ci --omit=dev` (production
// dependencies only), scripts/, src/server, src/shared and the built dist/ — and checked there with
// the Node 24 binary (the registry's node@24 package, as in CI):
//   1. no development dependency was installed (vite, vitest, s3rver, pdf-lib: the check means something);
//   2. `node scripts/start.mjs` with NODE_ENV=production answers GET /api/health and serves the client,
//      then stops cleanly on SIGTERM;
//   3. the compiled reading code (dist/server/modules/reading) reads a text PDF devis, with pdf.js's
//      fonts, CMaps and wasm and the French OCR data found in the production node_modules.
// Usage: node scripts/lib/image-check.mjs [--keep] (keeps the folder). The devis PDF is drawn here by
// the test corpus (pdf-lib, a development dependency), before the check.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuilt, root } from "./client-build.mjs";
import { TEST_SELLER } from "./cold-start.mjs";
import { freePort } from "./local-server.mjs";
import { ensureServerBuilt } from "./server-build.mjs";

const keep = process.argv.includes("--keep");
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
let failed = false;
function check(ok, label) {
  console.log(`${ok ? "✓" : "✗"} ${label}`);
  if (!ok) failed = true;
  return ok;
}

if (!(await ensureClientBuilt()) || !(await ensureServerBuilt())) {
  console.error("La construction (npm run build) a échoué.");
  process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), "sourio-image-"));
const app = path.join(dir, "app");
try {
  // What the runtime stage copies (Dockerfile), in the same places.
  mkdirSync(app);
  for (const file of ["package.json", "package-lock.json", "tsconfig.json"])
    cpSync(path.join(root, file), path.join(app, file));
  for (const folder of ["scripts", "src/server", "src/shared", "dist"])
    cpSync(path.join(root, folder), path.join(app, folder), { recursive: true });
  // As in the image: the compiled entry newer than the sources, so start.mjs does not recompile.
  const now = new Date();
  utimesSync(path.join(app, "dist/server/server.js"), now, now);

  let since = Date.now();
  const install = spawnSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: app,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  if (!check(install.status === 0, `npm ci --omit=dev (${seconds(since)})`)) process.exit(1);
  const modules = path.join(app, "node_modules");
  // vite and vitest do come in: vitest is an optional peer of better-auth, so the lockfile marks both
  // "devOptional", which --omit=dev keeps (npm omits those only with --omit=optional too, which would
  // drop sharp's and canvas's native binaries). Only weight: the server never loads them.
  const devOnly = ["s3rver", "pdf-lib", "@playwright/test", "typescript", "@biomejs/biome"].filter((name) =>
    existsSync(path.join(modules, name)),
  );
  check(
    devOnly.length === 0,
    `aucune dépendance de développement installée${devOnly.length ? ` : ${devOnly}` : ""}`,
  );
  const assets = [
    "pdfjs-dist/standard_fonts",
    "pdfjs-dist/cmaps",
    "pdfjs-dist/wasm",
    "pdfjs-dist/legacy/build/pdf.worker.mjs",
    "@tesseract.js-data/fra",
  ].filter((asset) => !existsSync(path.join(modules, asset)));
  check(
    assets.length === 0,
    `polices, CMaps, wasm de pdf.js et données françaises de l'OCR présents${assets.length ? ` (manquent : ${assets})` : ""}`,
  );

  const node24 = spawnSync("npx", ["-y", "-p", "node@24", "node", "-p", "process.execPath"], {
    encoding: "utf8",
  }).stdout?.trim();
  if (!check(Boolean(node24) && existsSync(node24), `Node 24 : ${node24}`)) process.exit(1);
  const version = spawnSync(node24, ["--version"], { encoding: "utf8" }).stdout.trim();

  // The devis, drawn by the test corpus in the development tree.
  const devisFile = path.join(dir, "devis.pdf");
  const codesFile = path.join(dir, "devis.json");
  const draw = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `(async () => {
        const { makeDevis, devisPdf } = await import(${JSON.stringify(path.join(root, "src/server/testing/devis-corpus.ts"))});
        const { writeFileSync } = await import("node:fs");
        const devis = makeDevis(4);
        writeFileSync(${JSON.stringify(devisFile)}, await devisPdf(devis));
        writeFileSync(${JSON.stringify(codesFile)}, JSON.stringify(devis.lines.map((l) => l.code)));
      })()`,
    ],
    { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (!check(draw.status === 0, "devis PDF de test dessiné")) process.exit(1);

  // 2. The server, as the image's CMD runs it.
  since = Date.now();
  const port = await freePort();
  const server = spawn(node24, ["scripts/start.mjs"], {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: path.join(dir, "data"),
      SKIP_CLIENT_BUILD: "true",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DEMO_DATA: "false",
      LOG_LEVEL: "warn",
      AUTH_SECRET: randomBytes(32).toString("hex"),
      DATA_KEY: randomBytes(32).toString("base64"),
      // Production requires the payment settings (ADR 044); the start calls nothing of Stripe.
      STRIPE_SECRET_KEY: "sk_test_imagecheck",
      STRIPE_WEBHOOK_SECRET: "whsec_imagecheck",
      STRIPE_PRICE_MONTHLY: "price_monthly",
      STRIPE_PRICE_YEARLY: "price_yearly",
      STRIPE_TAX_RATE: "txr_tva20",
      ...TEST_SELLER,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => server.on("exit", (code, signal) => resolve(code ?? signal)));
  let health = null;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && server.exitCode === null) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      health = { status: response.status, body: await response.json() };
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check(
    health?.status === 200,
    `GET /api/health ${health?.status} ${JSON.stringify(health?.body)} (${version}, ${seconds(since)})`,
  );
  if (health?.status === 200) {
    const home = await fetch(`http://127.0.0.1:${port}/`);
    check(
      home.ok && (await home.text()).includes("<!doctype html"),
      `GET / ${home.status} (application web)`,
    );
  }
  server.kill("SIGTERM");
  check((await exited) === 0, "arrêt propre sur SIGTERM");

  // 3. The compiled reading code on a text PDF.
  since = Date.now();
  const read = spawnSync(
    node24,
    [
      "--input-type=module",
      "-e",
      `import { readFileSync } from "node:fs";
       const { readQuote, closeOcr } = await import("./dist/server/modules/reading/read.js");
       const reading = await readQuote(readFileSync(${JSON.stringify(devisFile)}), { mime: "application/pdf" });
       console.log(JSON.stringify({ kind: reading.kind, codes: reading.result.lines.map((l) => l.code) }));
       await closeOcr();`,
    ],
    { cwd: app, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" } },
  );
  let outcome = null;
  try {
    outcome = JSON.parse(read.stdout.trim().split("\n").at(-1));
  } catch {
    process.stderr.write(read.stderr);
  }
  const expected = JSON.parse(readFileSync(codesFile, "utf8"));
  check(
    read.status === 0 &&
      outcome?.kind === "text_pdf" &&
      JSON.stringify(outcome.codes) === JSON.stringify(expected),
    `devis PDF lu par le code compilé : ${JSON.stringify(outcome)}, attendu ${JSON.stringify(expected)} (${seconds(since)})`,
  );
} finally {
  if (keep) console.log(`Dossier gardé : ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
console.log(`${failed ? "Échec" : "Image vérifiée"} en ${seconds(started)}.`);
process.exit(failed ? 1 : 0);
