// A throwaway PostgreSQL server for measurements that need two app instances on one database
// (like .ci/run does for the API suite). Returns null when PostgreSQL is not installed.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
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

export async function startTempPostgres() {
  const bin = pgBin();
  if (!bin) return null;
  const dir = mkdtempSync(path.join(tmpdir(), "sourio-pg-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  // initdb refuses to run as root: run it as the postgres user then.
  const asPg = (command) =>
    process.getuid?.() === 0
      ? execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", command], { stdio: "ignore" })
      : execFileSync("sh", ["-c", command], { stdio: "ignore" });
  asPg(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth=trust -E UTF8`);
  asPg(
    `'${bin}/pg_ctl' -D '${dir}/data' -o "-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=off" -l '${dir}/log' -w start`,
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    // What every instance on this database is given: the instances share the session secret and the
    // files' key, which the app then requires explicitly (config/index.ts).
    env: {
      DATABASE_URL: url,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      DATA_KEY: randomBytes(32).toString("base64"),
    },
    stop() {
      try {
        asPg(`'${bin}/pg_ctl' -D '${dir}/data' -m fast stop`);
      } catch {}
      spawnSync("rm", ["-rf", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
