// A throwaway PostgreSQL server for measurements that need two app instances on one database
// (like .ci/run does for the API suite). Returns null when PostgreSQL is not installed.
// `{ dir }`: the cluster lives in `dir` and outlives the server (created there the first time, started
// again from it after; its secrets kept beside it in `dir`/env.json): two versions of the code then
// read the same data (scripts/profile-reads.ts --postgres --data-dir).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./local-server.mjs";

function pgBin() {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin/initdb")))
    .sort((a, b) => Number(a) - Number(b));
  const last = versions.at(-1);
  return last ? path.join(base, last, "bin") : null;
}

export async function startTempPostgres({ dir: keptDir } = {}) {
  const bin = pgBin();
  if (!bin) return null;
  if (keptDir) mkdirSync(keptDir, { recursive: true });
  const dir = keptDir ? path.resolve(keptDir) : mkdtempSync(path.join(tmpdir(), "sourio-pg-"));
  const reuse = keptDir && existsSync(path.join(dir, "data")) && existsSync(path.join(dir, "env.json"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  // initdb refuses to run as root: run it as the postgres user then.
  const asPg = (command) =>
    process.getuid?.() === 0
      ? execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", command], { stdio: "ignore" })
      : execFileSync("sh", ["-c", command], { stdio: "ignore" });
  if (!reuse) asPg(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth=trust -E UTF8`);
  asPg(
    `'${bin}/pg_ctl' -D '${dir}/data' -o "-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=off" -l '${dir}/log' -w start`,
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // What every instance on this database is given: the instances share the session secret and the
  // files' key, which the app then requires explicitly (config/index.ts). Kept with a kept cluster.
  const secrets = reuse
    ? JSON.parse(readFileSync(path.join(dir, "env.json"), "utf8"))
    : { AUTH_SECRET: randomBytes(32).toString("hex"), DATA_KEY: randomBytes(32).toString("base64") };
  if (keptDir && !reuse) writeFileSync(path.join(dir, "env.json"), JSON.stringify(secrets));
  return {
    url,
    env: { DATABASE_URL: url, ...secrets },
    /** CPU time (ms, user + system) of the server's processes so far: the postmaster, its children. */
    serverCpu() {
      const postmaster = Number(readFileSync(path.join(dir, "data/postmaster.pid"), "utf8").split("\n")[0]);
      let ticks = 0;
      for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
        let fields;
        try {
          // After the command's parenthesised name: state, ppid… utime (14th), stime, cutime, cstime.
          fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        } catch {
          continue;
        }
        if (Number(pid) !== postmaster && Number(fields[1]) !== postmaster) continue;
        ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      }
      // Linux's clock ticks (USER_HZ): 100 per second.
      return ticks * 10;
    },
    stop() {
      try {
        asPg(`'${bin}/pg_ctl' -D '${dir}/data' -m fast stop`);
      } catch {}
      if (keptDir) return;
      spawnSync("rm", ["-rf", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
