// Throughput of the authenticated reads against a bare Fastify route, in the same run (issue 19):
// autocannon, 10 connections, the same duration for every route, on PGlite and on a throwaway
// PostgreSQL. Budgets: PostgreSQL lists ≥ 20 % of the bare route's rps and /api/me ≥ 30 %; PGlite
// lists ≥ 10 % and /api/me ≥ 15 %; p99 ≤ 15 ms for every route at 10 connections.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import autocannon from "autocannon";
import { root } from "./client-build.mjs";
import { startTempPostgres } from "./temp-postgres.mjs";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 5);
const P99_BUDGET = 15;

/** The routes measured and their share of the bare route's rps, per database (null: no ratio budget). */
const ROUTES = [
  { url: "/api/health", auth: false, ratio: { pglite: null, postgres: null } },
  { url: "/api/me", auth: true, ratio: { pglite: 0.15, postgres: 0.3 } },
  { url: "/api/dentist/requests", auth: true, ratio: { pglite: 0.1, postgres: 0.2 } },
  { url: "/api/dentist/dashboard", auth: true, ratio: { pglite: 0.1, postgres: 0.2 } },
];

/** One autocannon run; fails when a response is not 2xx (a 401 would otherwise look fast). */
async function measure(url, headers, duration = DURATION) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} réponses non 2xx, ${result.errors} erreurs`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function startBare() {
  const child = spawn(process.execPath, [path.join(root, "scripts/lib/bench-bare.mjs")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [chunk] = await once(child.stdout, "data");
  const base = `http://127.0.0.1:${Number(String(chunk).trim())}`;
  return {
    url: `${base}/rows`,
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

function seed(dataDir, env) {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/bench-seed.ts"), "--data-dir", dataDir],
    { cwd: root, encoding: "utf8", env: { ...process.env, ...env } },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

const fmt = (n) => Math.round(n).toLocaleString("fr-FR");

/**
 * Measures the bare route, then each route of ROUTES on the app, on one database; records a row per
 * route with rps, p50, p99 and the ratio to the bare route.
 */
async function onDatabase({ kind, label, startServer, record, dataDir, env }) {
  const { dentistEmail, password } = seed(dataDir, env);
  const server = await startServer(dataDir, { DEMO_DATA: "false", ...env });
  const bare = await startBare();
  try {
    const login = await fetch(`${server.base}/api/account/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: dentistEmail, password }),
    });
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    // Warm-up (JIT, caches, query plans), then the bare route and each route once, back to back.
    await measure(bare.url, {}, 2);
    for (const route of ROUTES) await measure(server.base + route.url, route.auth ? { cookie } : {}, 2);
    const reference = await measure(bare.url, {});
    record(
      `${label} — Fastify nu (20 lignes JSON)`,
      `${fmt(reference.rps)} req/s, p50 ${reference.p50} ms, p99 ${reference.p99} ms`,
      "référence",
      true,
    );
    for (const route of ROUTES) {
      const m = await measure(server.base + route.url, route.auth ? { cookie } : {});
      const ratio = m.rps / reference.rps;
      const minimum = route.ratio[kind];
      record(
        `${label} — GET ${route.url}`,
        `${fmt(m.rps)} req/s (${(100 * ratio).toFixed(1)} %), p50 ${m.p50} ms, p99 ${m.p99} ms`,
        `${minimum === null ? "" : `≥ ${100 * minimum} % du nu, `}p99 ≤ ${P99_BUDGET} ms`,
        (minimum === null || ratio >= minimum) && m.p99 <= P99_BUDGET,
      );
    }
  } finally {
    await bare.stop();
    await server.stop();
  }
}

/** PGlite, then PostgreSQL when installed (skipped with a message otherwise). */
export async function throughputBench({ startServer, record, mkDataDir }) {
  await onDatabase({
    kind: "pglite",
    label: "PGlite",
    startServer,
    record,
    dataDir: mkDataDir(),
    env: {},
  });
  const postgres = await startTempPostgres();
  if (!postgres) {
    console.error("PostgreSQL introuvable : débit sur PostgreSQL non mesuré.");
    return;
  }
  try {
    await onDatabase({
      kind: "postgres",
      label: "PostgreSQL",
      startServer,
      record,
      dataDir: mkDataDir(),
      env: postgres.env,
    });
  } finally {
    postgres.stop();
  }
}
