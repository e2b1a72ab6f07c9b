// CPU per call of the computed screens (issue 38), in one process: the bench's seed, the app built
// in this process with the response cache off, then for each route `--calls` `inject`s in a row,
// `--rounds` times; printed: CPU time per call (process.cpuUsage: user + system, which the other
// processes of a shared machine do not inflate), the median round and the lowest. `--data-dir DIR`
// seeds DIR once and keeps it (PGlite), so that two versions of the code read the same data;
// `--json FILE` then writes each route's answer, for comparing the two versions' files; with
// `--postgres`, DIR holds the PostgreSQL cluster (seeded once, started again from it). `--plans`
// prints each prepared statement's custom and generic plans counted by PostgreSQL after the runs.
// Usage: npx tsx scripts/profile-reads.ts [--requests 1000] [--dentists 100] [--postgres]
//   [--calls 300] [--rounds 5] [--route /api/conversations ...] [--data-dir DIR] [--json answers.json]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { seedBench } from "./lib/bench-accounts.mjs";
import { startTempPostgres } from "./lib/temp-postgres.mjs";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "1000" },
    dentists: { type: "string", default: "100" },
    postgres: { type: "boolean", default: false },
    calls: { type: "string", default: "300" },
    rounds: { type: "string", default: "5" },
    route: { type: "string", multiple: true },
    json: { type: "string" },
    "data-dir": { type: "string" },
    plans: { type: "boolean", default: false },
  },
});

/** The five screens of issue 38 and as whom (the seeded admin is also a patient). */
const ROUTES: { url: string; as: "dentist" | "admin" }[] = [
  { url: "/api/patient/requests", as: "admin" },
  { url: "/api/dentist/requests", as: "dentist" },
  { url: "/api/dentist/dashboard", as: "dentist" },
  { url: "/api/conversations", as: "dentist" },
  { url: "/api/admin/users?role=patient", as: "admin" },
];
/** Another route given by --route is read as the dentist (`/api/me`, for a floor). */
const routes = values.route
  ? values.route.map((url) => ROUTES.find((r) => r.url === url) ?? { url, as: "dentist" as const })
  : ROUTES;

const keptCluster = values.postgres && values["data-dir"] ? path.resolve(values["data-dir"]) : undefined;
const postgres = values.postgres ? await startTempPostgres({ dir: keptCluster }) : null;
if (values.postgres && !postgres) throw new Error("PostgreSQL introuvable");
const env: Record<string, string> = postgres ? postgres.env : {};
const kept = values["data-dir"] && !postgres ? path.resolve(values["data-dir"]) : undefined;
const dataDir = kept ?? mkdtempSync(path.join(tmpdir(), "sourio-cpu-"));
/** The seed's accounts, kept beside a kept data directory (or cluster). */
const accountsFile = `${kept ?? keptCluster ?? dataDir}.accounts.json`;
try {
  const reuse = keptCluster
    ? existsSync(accountsFile)
    : kept && existsSync(kept) && readdirSync(kept).length > 0;
  const accounts: { dentistEmail: string; adminEmail: string; password: string } = reuse
    ? JSON.parse(readFileSync(accountsFile, "utf8"))
    : seedBench(dataDir, { requests: Number(values.requests), dentists: Number(values.dentists), env });
  if ((kept || keptCluster) && !reuse) writeFileSync(accountsFile, JSON.stringify(accounts));
  Object.assign(process.env, env, {
    DATA_DIR: dataDir,
    DEMO_DATA: "false",
    RESPONSE_CACHE: "off",
    LOG_LEVEL: "silent",
  });
  const { loadConfig } = await import("../src/server/config");
  const { openMigratedDatabase } = await import("../src/server/runtime");
  const { buildApp } = await import("../src/server/app");
  const config = loadConfig();
  const database = await openMigratedDatabase(config);
  const app = await buildApp({ config, database });
  try {
    const cookieOf = async (email: string) => {
      const response = await app.inject({
        method: "POST",
        url: "/api/account/login",
        headers: { origin: config.publicUrl },
        payload: { email, password: accounts.password },
      });
      if (response.statusCode !== 200) throw new Error(`connexion de ${email} : ${response.statusCode}`);
      const set = response.headers["set-cookie"];
      return (Array.isArray(set) ? set : [String(set)]).map((c) => c.split(";")[0]).join("; ");
    };
    const cookies = {
      dentist: await cookieOf(accounts.dentistEmail),
      admin: await cookieOf(accounts.adminEmail),
    };
    const cpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const calls = Number(values.calls);
    const answers: Record<string, unknown> = {};
    // On PostgreSQL, the server's processes too (the database's share of a call), all rounds together.
    const server = postgres ? " PostgreSQL (ms, moyenne) |" : "";
    console.log(
      `| route | CPU par appel, médiane (ms) | plus basse | ${values.rounds} × ${calls} appels |${server}`,
    );
    console.log(`|---|---|---|---|${postgres ? "---|" : ""}`);
    for (const route of routes) {
      const call = async () => {
        const response = await app.inject({
          method: "GET",
          url: route.url,
          headers: { cookie: cookies[route.as] },
        });
        if (response.statusCode !== 200)
          throw new Error(`${route.url} : ${response.statusCode} ${response.body}`);
        return response;
      };
      answers[route.url] = (await call()).json();
      for (let i = 0; i < 100; i += 1) await call();
      const perCall: number[] = [];
      const serverStart = postgres?.serverCpu() ?? 0;
      for (let r = 0; r < Number(values.rounds); r += 1) {
        const start = cpu();
        for (let i = 0; i < calls; i += 1) await call();
        perCall.push((cpu() - start) / calls);
      }
      const sorted = [...perCall].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      const serverPerCall = postgres
        ? ` ${((postgres.serverCpu() - serverStart) / (calls * Number(values.rounds))).toFixed(3)} |`
        : "";
      console.log(
        `| \`${route.url}\` | ${median.toFixed(3)} | ${(sorted[0] ?? 0).toFixed(3)} | ${perCall.map((x) => x.toFixed(2)).join(" ")} |${serverPerCall}`,
      );
    }
    if (values.plans) {
      const { sql } = await import("kysely");
      const { rows } = await sql<{ generic_plans: number; custom_plans: number; text: string }>`
        select generic_plans::int, custom_plans::int, left(regexp_replace(statement, '[[:space:]]+', ' ', 'g'), 110) as text
        from pg_prepared_statements order by custom_plans + generic_plans desc limit 12`.execute(database.db);
      for (const row of rows)
        console.log(`custom ${row.custom_plans}, generic ${row.generic_plans}: ${row.text}`);
    }
    if (values.json) writeFileSync(values.json, `${JSON.stringify(answers, null, 1)}\n`);
  } finally {
    await app.close();
    await database.close();
  }
} finally {
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
  postgres?.stop();
}
