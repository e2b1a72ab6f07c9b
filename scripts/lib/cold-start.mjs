// Cold start of the server: time from spawning `node scripts/start.mjs` until GET /api/health answers,
// for the compiled server (NODE_ENV=production, dist/server) and the tsx path (TypeScript sources).
// Used by `npm run bench`; also runnable alone: `node scripts/lib/cold-start.mjs [runs]`, or
// `node scripts/lib/cold-start.mjs --check` (CI: one start of the compiled server, fails if it does not answer).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "./client-build.mjs";
import { freePort } from "./local-server.mjs";
import { ensureServerBuilt } from "./server-build.mjs";

async function healthy(port) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    return response.ok;
  } catch {
    return false;
  }
}

/** A seller identity for the production start (production refuses to start without one; ADR 045). */
export const TEST_SELLER = {
  INVOICE_SELLER_NAME: "Sourio (essai de démarrage)",
  INVOICE_SELLER_ADDRESS: "1 rue de l'Essai",
  INVOICE_SELLER_POSTAL_CODE: "75001",
  INVOICE_SELLER_CITY: "Paris",
  INVOICE_SELLER_SIREN: "123456782",
  INVOICE_SELLER_LEGAL_FORM: "SAS",
  INVOICE_SELLER_CAPITAL: "1 000 €",
  INVOICE_SELLER_RCS: "RCS Paris 123 456 782",
  INVOICE_SELLER_VAT_NUMBER: "FR11123456782",
};

const SECRETS = {
  AUTH_SECRET: randomBytes(32).toString("hex"),
  DATA_KEY: randomBytes(32).toString("base64"),
  // Production requires the payment settings (ADR 044); the start calls nothing of Stripe.
  STRIPE_SECRET_KEY: "sk_test_coldstart",
  STRIPE_WEBHOOK_SECRET: "whsec_coldstart",
  STRIPE_PRICE_MONTHLY: "price_monthly",
  STRIPE_PRICE_YEARLY: "price_yearly",
  STRIPE_TAX_RATE: "txr_tva20",
  ...TEST_SELLER,
};

/**
 * The landing page and its entry script as a browser gets them from the compiled server: brotli, the
 * script byte for byte the build's own copy (ADR 069). Throws otherwise.
 */
async function checkLandingAssets(base) {
  const headers = { "accept-encoding": "gzip, deflate, br, zstd" };
  // node:http, not fetch: fetch would decode the answer.
  const get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () =>
            resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on("error", reject);
    });
  const page = await get(`${base}/`);
  if (page.status !== 200 || page.headers["content-encoding"] !== "br")
    throw new Error(`l'accueil : ${page.status}, encodage ${page.headers["content-encoding"]}`);
  const entry = readFileSync(path.join(root, "dist/client/index.html"), "utf8").match(
    /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/,
  )?.[1];
  if (!entry) throw new Error("le script d'entrée est introuvable dans dist/client/index.html");
  const script = await get(`${base}${entry}`);
  const copy = readFileSync(path.join(root, "dist/client", `${entry}.br`));
  if (script.status !== 200 || script.headers["content-encoding"] !== "br" || !script.body.equals(copy))
    throw new Error(
      `${entry} : ${script.status}, encodage ${script.headers["content-encoding"]}, pas la copie de la construction`,
    );
}

/**
 * Starts the server once and returns the milliseconds until /api/health answers 200, then stops it.
 * `mode`: "compiled" | "tsx". `dataDir`: an embedded database to start on (default: a fresh one, so the
 * time includes creating the database and running every migration). `nodePath`: the node binary.
 */
export async function measureColdStart(
  mode,
  { nodePath = process.execPath, timeoutMs = 60_000, dataDir: givenDataDir, probe } = {},
) {
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), "sourio-cold-"));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO_DATA: "false",
    SKIP_CLIENT_BUILD: "true",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: mode === "compiled" ? "production" : "development",
    ...SECRETS,
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(nodePath, [path.join(root, "scripts/start.mjs")], { cwd: root, env, stdio: "ignore" });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  try {
    while (!(await healthy(port))) {
      if (exited) throw new Error(`le serveur (${mode}) s'est arrêté avant de répondre`);
      if (performance.now() - started > timeoutMs)
        throw new Error(`le serveur (${mode}) ne répond pas après ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = performance.now() - started;
    // `probe(base)`: more checks on the started server before it stops (the CI's --check).
    await probe?.(`http://127.0.0.1:${port}`);
    return ms;
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await gone;
    }
    if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Median cold start of each path over `runs` starts, on an embedded database created and migrated
 * beforehand (a restart, as in a deployment: the process's own start-up, not the database's creation).
 * The compiled server is built first when needed; tsx's transform cache is warmed by the first start.
 */
export async function compareColdStarts(runs = 3, options = {}) {
  if (!(await ensureServerBuilt({ quiet: true }))) throw new Error("la compilation du serveur a échoué");
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const dataDir = mkdtempSync(path.join(tmpdir(), "sourio-cold-"));
  try {
    const firstTsx = await measureColdStart("tsx", { ...options, dataDir });
    const result = { firstTsx: Math.round(firstTsx) };
    for (const mode of ["compiled", "tsx"]) {
      const times = [];
      for (let i = 0; i < runs; i++) times.push(await measureColdStart(mode, { ...options, dataDir }));
      result[mode] = Math.round(median(times));
    }
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--check") {
    // CI: the production path works on this node (compiled server, NODE_ENV=production, plain node).
    if (!(await ensureServerBuilt())) process.exit(1);
    const ms = await measureColdStart("compiled", { probe: checkLandingAssets });
    console.log(
      `Serveur compilé (Node ${process.versions.node}) : /api/health répond après ${Math.round(ms)} ms ; l'accueil et son script envoyés en brotli, le script depuis sa copie de la construction`,
    );
  } else {
    const runs = Number(process.argv[2] ?? 3);
    const { compiled, tsx, firstTsx } = await compareColdStarts(runs);
    console.log(
      `Démarrage jusqu'à /api/health (base déjà migrée, médiane sur ${runs}) : compilé ${compiled} ms, tsx ${tsx} ms ; premier démarrage de la série (tsx) ${firstTsx} ms`,
    );
  }
}
