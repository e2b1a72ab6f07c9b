// Object storage part of `npm run bench` (issue 18, ADR 022): two app instances on one throwaway
// PostgreSQL and one S3 bucket (s3rver, in a process of its own so its memory is not counted):
//  - 8 concurrent 10 MB uploads through instance A: A's RSS growth, budget < 15 MB (as on disk);
//  - the same files downloaded through instance B: throughput, bytes checked against what was sent;
//  - cold start of the compiled server (NODE_ENV=production, dist/server) and of the tsx path.
// Also runnable alone: `node scripts/bench-s3.mjs`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { root } from "./lib/client-build.mjs";
import { compareColdStarts } from "./lib/cold-start.mjs";
import { freePort, rssGrowthDuring, startServer } from "./lib/local-server.mjs";
import { startTempPostgres } from "./lib/temp-postgres.mjs";

const MB = 1024 * 1024;
const UPLOADS = 8;
const FILE_SIZE = 10 * MB - 1024;

// The S3 server in a child process: one bucket, files in a temporary folder, killed at the end.
const S3RVER = `
const S3rver = require("s3rver");
const [directory, port, bucket] = process.argv.slice(1);
new S3rver({ address: "127.0.0.1", port: Number(port), silent: true, directory,
  configureBuckets: [{ name: bucket, configs: [] }] })
  .run().then(() => process.stdout.write("ready\\n"), (e) => { console.error(e); process.exit(1); });
`;

async function startS3rver() {
  const directory = mkdtempSync(path.join(tmpdir(), "sourio-bench-s3-"));
  const port = await freePort();
  const bucket = "sourio-bench";
  const child = spawn(process.execPath, ["-e", S3RVER, directory, String(port), bucket], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (data) => String(data).includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`s3rver s'est arrêté (${code})`)));
  });
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: "eu-west-3",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await gone;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function cookieOf(response) {
  return (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
}

/** A 10 MB PDF-looking file, different for each upload (no two objects alike). */
function fileOf(n) {
  const head = Buffer.from(`%PDF-1.4\n% fichier ${n}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n`);
  const file = Buffer.alloc(FILE_SIZE, 0x20);
  head.copy(file);
  randomBytes(64 * 1024).copy(file, 4096);
  return file;
}

async function upload(base, cookie, file) {
  const form = new FormData();
  form.set("treatment_type", "implant");
  form.set("consent", "true");
  form.set("files", new Blob([file], { type: "application/pdf" }), "devis.pdf");
  const response = await fetch(`${base}/api/patient/requests`, {
    method: "POST",
    headers: { cookie, origin: base },
    body: form,
  });
  if (response.status !== 201) throw new Error(`téléversement : ${response.status} ${await response.text()}`);
  return (await response.json()).id;
}

/**
 * `startServer(dataDir, env)` → { base, pid, stop } and `record(name, value, budget, ok)` are
 * bench.mjs's. Options: `coldStart: false` skips (c).
 */
export async function s3Bench({ startServer, record, coldStart = true }) {
  const postgres = await startTempPostgres();
  if (!postgres) {
    record("S3 : 8 téléversements simultanés de 10 Mo", "PostgreSQL absent", "< 15 Mo", false);
  } else {
    const dirs = [];
    const stops = [() => postgres.stop()];
    try {
      const s3 = await startS3rver();
      stops.unshift(() => s3.stop());
      // One secret and one file key for both instances: a session and a file of A are valid on B.
      const env = {
        ...s3.env,
        DATABASE_URL: postgres.url,
        DEMO_DATA: "false",
        AUTH_SECRET: randomBytes(32).toString("hex"),
        DATA_KEY: randomBytes(32).toString("base64"),
        // The SDK's notice that its 2027 releases need Node 22 (ADR 022), once per instance.
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      };
      const dataDir = () => {
        const dir = mkdtempSync(path.join(tmpdir(), "sourio-bench-s3-app-"));
        dirs.push(dir);
        return dir;
      };
      const a = await startServer(dataDir(), env);
      stops.unshift(a.stop);
      const b = await startServer(dataDir(), env);
      stops.unshift(b.stop);

      const signup = await fetch(`${a.base}/api/account/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: a.base },
        body: JSON.stringify({
          role: "patient",
          first_name: "Objet",
          last_name: "Banc",
          email: `bench-s3-${Date.now()}@example.com`,
          password: "Sourire-Sain-2026",
          accept_terms: true,
        }),
      });
      if (signup.status !== 201) throw new Error(`inscription : ${signup.status} ${await signup.text()}`);
      const cookie = cookieOf(signup);
      const files = Array.from({ length: UPLOADS }, (_, n) => fileOf(n));

      // (a) Warm-up first: the first upload loads the SDK and opens the connections.
      await upload(a.base, cookie, fileOf(99));
      const requests = [];
      const { growth, seconds } = await rssGrowthDuring(a.pid, async () => {
        requests.push(...(await Promise.all(files.map((file) => upload(a.base, cookie, file)))));
      });
      record(
        "S3 : 8 téléversements simultanés de 10 Mo sur A (hausse du RSS)",
        `${growth.toFixed(1)} Mo (${seconds.toFixed(1)} s)`,
        "< 15 Mo",
        growth < 15,
      );

      // (b) The documents of those requests, downloaded through B.
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      const { rows } = await client.query(
        "select id, request_id from documents where request_id = any($1::uuid[])",
        [requests],
      );
      await client.end();
      const byRequest = new Map(rows.map((row) => [row.request_id, row.id]));
      let same = rows.length === UPLOADS;
      let bytes = 0;
      const started = performance.now();
      await Promise.all(
        requests.map(async (request, n) => {
          const response = await fetch(`${b.base}/api/documents/${byRequest.get(request)}/file`, {
            headers: { cookie },
          });
          if (response.status !== 200) throw new Error(`téléchargement sur B : ${response.status}`);
          const body = Buffer.from(await response.arrayBuffer());
          bytes += body.length;
          if (!body.equals(files[n])) same = false;
        }),
      );
      const downloadSeconds = (performance.now() - started) / 1000;
      record(
        "S3 : les 8 fichiers téléchargés sur B (débit)",
        `${(bytes / MB / downloadSeconds).toFixed(0)} Mo/s (${(bytes / MB).toFixed(0)} Mo en ${downloadSeconds.toFixed(1)} s)${same ? "" : ", octets différents !"}`,
        "octets identiques",
        same,
      );
    } catch (error) {
      // An instance that did not start or an upload refused: a line in the table, not a crash.
      record("S3 : deux instances, un bucket", `échec : ${error.message}`.slice(0, 120), "", false);
    } finally {
      for (const stop of stops) await stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }

  // (c) Compiled server vs tsx, on an embedded database already migrated (compiled first if needed).
  if (coldStart) {
    const { compiled, tsx, firstTsx } = await compareColdStarts(3);
    record(
      "Démarrage jusqu'à /api/health : compilé / tsx (médiane de 3)",
      `${compiled} ms / ${tsx} ms (1er tsx ${firstTsx} ms)`,
      "mesuré",
      true,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = [];
  const record = (name, value, budget, ok) => results.push({ name, value, budget, ok });
  await s3Bench({ startServer, record, coldStart: !process.argv.includes("--no-cold-start") });
  for (const r of results) console.log(`${r.ok ? "OK     " : "DÉPASSÉ"}  ${r.name}  ${r.value}  ${r.budget}`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
