// The backup's memory against the database's size (issue 37: "streamed, memory flat whatever the
// size"; ADR 047, addenda). For each size, a fresh DATA_DIR is seeded by scripts/bench-seed.ts (the
// embedded database, no stored files), a server is started on it, and `npm run backup` (scripts/backup.ts,
// which asks the running server for the snapshot: the copy, its counting and its packing happen in the
// server's process) is run twice. Sampled every 10 ms: the server's RSS (its rise above its settled
// level), and the command's own peak (VmHWM). Budget: from the smaller size to the larger (a data
// directory about 13 times larger), the server's worst rise grows by at most a tenth of what the data
// directory grew (a dump held in memory would grow by all of it, or twice). The rise itself is mostly
// the PGlite opened on the copy to count it (about 100 to 150 MB whatever the size; a closed one is
// freed by the next garbage collection, hence the second run's variations).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { seedBench } from "./lib/bench-accounts.mjs";
import { root } from "./lib/client-build.mjs";
import { rssOf } from "./lib/local-server.mjs";

const SIZES = [
  { requests: 2_000, dentists: 50 },
  { requests: 200_000, dentists: 1_000 },
];
/** The most the server's rise may grow, as a share of the data directory's growth. */
const BUDGET_SHARE = 0.1;
const MB = 1024 * 1024;

/** Bytes of every file under `dir`. */
function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** A process's peak resident memory so far (bytes), or 0 once it is gone. */
function peakOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** One `npm run backup` against the server `pid`: the server's RSS rise, the command's peak, the time. */
async function backupOnce(dataDir, pid, archive) {
  await new Promise((r) => setTimeout(r, 1000));
  const settled = rssOf(pid);
  let serverPeak = settled;
  let commandPeak = 0;
  const started = performance.now();
  const command = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/backup.ts"), archive],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  command.stdout.on("data", (chunk) => {
    output += chunk;
  });
  command.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const timer = setInterval(() => {
    serverPeak = Math.max(serverPeak, rssOf(pid));
    commandPeak = Math.max(commandPeak, peakOf(command.pid));
  }, 10);
  const code = await new Promise((resolve) => command.on("exit", resolve));
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`npm run backup a échoué (${code}) : ${output.trim()}`);
  return {
    growth: (serverPeak - settled) / MB,
    settled: settled / MB,
    after: rssOf(pid) / MB,
    command: commandPeak / MB,
    seconds,
    archive: statSync(archive).size / MB,
  };
}

export async function backupBench({ startServer, record, mkDataDir }) {
  const rows = [];
  for (const size of SIZES) {
    const dataDir = mkDataDir();
    seedBench(dataDir, size);
    const database = sizeOf(path.join(dataDir, "pglite")) / MB;
    const server = await startServer(dataDir, { DEMO_DATA: "false" });
    try {
      for (let run = 1; run <= 2; run += 1) {
        const load = loadavg()[0];
        const measured = await backupOnce(dataDir, server.pid, path.join(dataDir, `sauvegarde-${run}.zip`));
        rows.push({ ...size, run, database, load, ...measured });
        console.log(
          `sauvegarde, ${size.requests.toLocaleString("fr-FR")} demandes (base ${database.toFixed(0)} Mo), essai ${run} : serveur ${measured.settled.toFixed(0)} Mo +${measured.growth.toFixed(1)} Mo au plus (${measured.after.toFixed(0)} Mo après), commande ${measured.command.toFixed(0)} Mo au plus, archive ${measured.archive.toFixed(1)} Mo en ${measured.seconds.toFixed(1)} s (charge ${load.toFixed(1)})`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  const worst = (requests) => Math.max(...rows.filter((r) => r.requests === requests).map((r) => r.growth));
  const small = worst(SIZES[0].requests);
  const large = worst(SIZES[1].requests);
  const databases = SIZES.map((s) => rows.find((r) => r.requests === s.requests).database);
  const allowed = BUDGET_SHARE * (databases[1] - databases[0]);
  record(
    `sauvegarde : hausse du RSS du serveur, base ${databases[0].toFixed(0)} → ${databases[1].toFixed(0)} Mo`,
    `${small.toFixed(1)} → ${large.toFixed(1)} Mo`,
    `écart ≤ ${allowed.toFixed(0)} Mo (10 % de la base)`,
    large - small <= allowed,
  );
}
