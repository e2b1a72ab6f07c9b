// Throughput of the authenticated reads against a bare Fastify route, in the same run (issues 19 and
// 38): autocannon, 10 connections, the same duration for every route, on PGlite and on a throwaway
// PostgreSQL. Each screen three ways (ADR 051):
//  - cached: the app as deployed (the response cache answers what did not change, ADR 030);
//  - computed: the same app with RESPONSE_CACHE=off, every answer computed;
//  - under writes: cached, while a patient writes 20 messages a second and another sends a request
//    every second (both through the API, in this process).
// Budgets: cached, the dentist's lists ≥ 20 % of the bare route on PostgreSQL, ≥ 10 % on PGlite, /api/me
// ≥ 30 % / ≥ 15 %, p99 ≤ 15 ms; computed, the five screens ≥ 20 % on PostgreSQL and ≥ 15 % on PGlite;
// under writes, the dentist's list and dashboard ≥ 15 % on PGlite, p99 ≤ 20 ms.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import autocannon from "autocannon";
import { login, signUpPatient } from "./bench-accounts.mjs";
import { root } from "./client-build.mjs";
import { startTempPostgres } from "./temp-postgres.mjs";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 5);
const P99_BUDGET = 15;

/**
 * The routes measured, as whom, and their share of the bare route's rps per way and database (null:
 * no ratio budget); `writes`: measured under writes too. The seeded admin is also a patient.
 */
const ROUTES = [
  { url: "/api/health", as: null, cached: { pglite: null, postgres: null } },
  { url: "/api/me", as: "dentist", cached: { pglite: 0.15, postgres: 0.3 } },
  {
    url: "/api/patient/requests",
    as: "admin",
    cached: { pglite: null, postgres: null },
    computed: { pglite: 0.15, postgres: 0.2 },
  },
  {
    url: "/api/dentist/requests",
    as: "dentist",
    cached: { pglite: 0.1, postgres: 0.2 },
    computed: { pglite: 0.15, postgres: 0.2 },
    writes: { pglite: 0.15, postgres: null },
  },
  {
    url: "/api/dentist/dashboard",
    as: "dentist",
    cached: { pglite: 0.1, postgres: 0.2 },
    computed: { pglite: 0.15, postgres: 0.2 },
    writes: { pglite: 0.15, postgres: null },
  },
  {
    url: "/api/conversations",
    as: "dentist",
    cached: { pglite: null, postgres: null },
    computed: { pglite: 0.15, postgres: 0.2 },
  },
  {
    url: "/api/admin/users?role=patient",
    as: "admin",
    cached: { pglite: null, postgres: null },
    computed: { pglite: 0.15, postgres: 0.2 },
  },
];
const P99_UNDER_WRITES = 20;

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
const pct = (ratio) => `${(100 * ratio).toFixed(1)} %`;
/** The writers' accounts of the "under writes" measure. */
const writerAccount = (n) => ({
  firstName: "Écrit",
  lastName: `Banc ${n}`,
  emailPrefix: `bench-writer-${n}`,
  password: "Sourire-Sain-2026",
});

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n");

/** A request with one small X-ray (typed so: a devis would queue a reading, whose cost is another bench's). */
async function sendRequest(base, cookie) {
  const form = new FormData();
  form.set("treatment_type", "crown");
  form.set("consent", "true");
  form.set("document_types", JSON.stringify(["xray"]));
  form.set("files", new Blob([PDF], { type: "application/pdf" }), "radio.pdf");
  const response = await fetch(`${base}/api/patient/requests`, {
    method: "POST",
    headers: { cookie, origin: base },
    body: form,
  });
  if (response.status !== 201) throw new Error(`request: ${response.status} ${await response.text()}`);
  return (await response.json()).id;
}

/**
 * The writers of the "under writes" way: a patient whose request the measured dentist answered
 * writes 20 messages a second in that conversation; another patient sends a request every second.
 * Returns stop(), which resolves to what was written and refused.
 */
async function startWriters(base, dentistCookie) {
  const writer = await signUpPatient(base, writerAccount(1));
  const sender = await signUpPatient(base, writerAccount(2));
  const requestId = await sendRequest(base, writer);
  const reply = await fetch(`${base}/api/dentist/requests/${requestId}/reply`, {
    method: "POST",
    headers: { cookie: dentistCookie, origin: base, "content-type": "application/json" },
    body: JSON.stringify({ message: "Bonjour, je peux vous recevoir la semaine prochaine." }),
  });
  if (reply.status !== 200 && reply.status !== 201)
    throw new Error(`reply: ${reply.status} ${await reply.text()}`);
  const conversationId = (await reply.json()).conversation_id;
  const done = { messages: 0, requests: 0, failed: 0 };
  const inFlight = new Set();
  const track = (promise, kind) => {
    const p = promise
      .then(() => {
        done[kind] += 1;
      })
      .catch(() => {
        done.failed += 1;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const message = async () => {
    const form = new FormData();
    form.set("body", `Message ${done.messages + 1} : avez-vous un créneau le mardi matin ?`);
    const response = await fetch(`${base}/api/conversations/${conversationId}/messages`, {
      method: "POST",
      headers: { cookie: writer, origin: base },
      body: form,
    });
    if (response.status !== 201) throw new Error(String(response.status));
  };
  const startedAt = performance.now();
  const messages = setInterval(() => track(message(), "messages"), 50);
  const requests = setInterval(() => track(sendRequest(base, sender), "requests"), 1000);
  return async () => {
    clearInterval(messages);
    clearInterval(requests);
    await Promise.allSettled([...inFlight]);
    const seconds = (performance.now() - startedAt) / 1000;
    return { ...done, seconds };
  };
}

/**
 * One database: the bare route, then each route cached and under writes on the app as deployed,
 * then each route computed on the same data with RESPONSE_CACHE=off. Records a row per route and
 * way with rps, p50, p99 and the ratio to the bare route measured just before; returns the rows of
 * the README's table.
 */
async function onDatabase({ kind, label, startServer, record, dataDir, env }) {
  const { dentistEmail, adminEmail, password } = seed(dataDir, env);
  const bare = await startBare();
  const table = new Map(ROUTES.map((route) => [route.url, { url: route.url }]));
  const measureRoutes = async (server, way, routes) => {
    const cookies = {
      dentist: await login(server.base, dentistEmail, password),
      admin: await login(server.base, adminEmail, password),
    };
    const headersOf = (route) => (route.as ? { cookie: cookies[route.as] } : {});
    // Warm-up (JIT, caches, query plans), then the bare route and each route, back to back.
    await measure(bare.url, {}, 2);
    for (const route of routes) await measure(server.base + route.url, headersOf(route), 2);
    const reference = await measure(bare.url, {});
    record(
      `${label} — Fastify nu (20 lignes JSON), avant « ${way} »`,
      `${fmt(reference.rps)} req/s, p50 ${reference.p50} ms, p99 ${reference.p99} ms`,
      "référence",
      true,
    );
    return { cookies, reference, headersOf };
  };
  const one = async (server, way, route, headers, reference, minimum, p99Budget) => {
    const m = await measure(server.base + route.url, headers);
    const ratio = m.rps / reference.rps;
    record(
      `${label} — ${way} — GET ${route.url}`,
      `${fmt(m.rps)} req/s (${pct(ratio)}), p50 ${m.p50} ms, p99 ${m.p99} ms`,
      `${minimum == null ? "" : `≥ ${100 * minimum} % du nu, `}p99 ≤ ${p99Budget} ms`,
      (minimum == null || ratio >= minimum) && m.p99 <= p99Budget,
    );
    return `${pct(ratio)} (p99 ${m.p99} ms)`;
  };
  try {
    // Cached, then under writes, on the app as deployed.
    let server = await startServer(dataDir, { DEMO_DATA: "false", ...env });
    try {
      const { cookies, reference, headersOf } = await measureRoutes(server, "en cache", ROUTES);
      for (const route of ROUTES)
        table.get(route.url).cached = await one(
          server,
          "en cache",
          route,
          headersOf(route),
          reference,
          route.cached[kind],
          P99_BUDGET,
        );
      const stop = await startWriters(server.base, cookies.dentist);
      let written;
      try {
        for (const route of ROUTES.filter((r) => r.writes))
          table.get(route.url).writes = await one(
            server,
            "sous écritures",
            route,
            headersOf(route),
            reference,
            route.writes[kind],
            P99_UNDER_WRITES,
          );
      } finally {
        written = await stop();
      }
      const rate = (n) => (n / written.seconds).toFixed(1);
      record(
        `${label} — écritures pendant « sous écritures »`,
        `${rate(written.messages)} messages/s, ${rate(written.requests)} demandes/s, ${written.failed} refusées`,
        "≈ 20 messages/s et 1 demande/s, aucune refusée",
        written.failed === 0,
      );
    } finally {
      await server.stop();
    }
    // Computed: the same data, the response cache switched off.
    server = await startServer(dataDir, { DEMO_DATA: "false", ...env, RESPONSE_CACHE: "off" });
    try {
      const measured = ROUTES.filter((r) => r.computed || !r.as);
      const { reference, headersOf } = await measureRoutes(server, "calculée", measured);
      for (const route of measured)
        table.get(route.url).computed = await one(
          server,
          "calculée",
          route,
          headersOf(route),
          reference,
          route.computed?.[kind] ?? null,
          P99_BUDGET,
        );
    } finally {
      await server.stop();
    }
  } finally {
    await bare.stop();
  }
  return [...table.values()];
}

/** The README's table: each route, three ways, as shares of the bare route. */
function printTable(label, rows) {
  console.log(`\n${label} — part du débit de Fastify nu (p99)`);
  console.log("| route | en cache | calculée (cache coupé) | sous écritures |");
  console.log("|---|---|---|---|");
  for (const row of rows)
    console.log(`| \`${row.url}\` | ${row.cached ?? "—"} | ${row.computed ?? "—"} | ${row.writes ?? "—"} |`);
}

/** PGlite, then PostgreSQL when installed (skipped with a message otherwise). */
export async function throughputBench({ startServer, record, mkDataDir }) {
  printTable(
    "PGlite",
    await onDatabase({
      kind: "pglite",
      label: "PGlite",
      startServer,
      record,
      dataDir: mkDataDir(),
      env: {},
    }),
  );
  const postgres = await startTempPostgres();
  if (!postgres) {
    console.error("PostgreSQL introuvable : débit sur PostgreSQL non mesuré.");
    return;
  }
  try {
    printTable(
      "PostgreSQL",
      await onDatabase({
        kind: "postgres",
        label: "PostgreSQL",
        startServer,
        record,
        dataDir: mkDataDir(),
        env: postgres.env,
      }),
    );
  } finally {
    postgres.stop();
  }
}
