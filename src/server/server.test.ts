import { type ChildProcess, spawn } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readKeyFile, readOrCreateKeyFile } from "./config/data-key";
import { EncryptedStorage } from "./storage/encrypted";
import { keyringOf } from "./storage/keyring";
import { LocalStorage } from "./storage/storage";
import { compiledEntries } from "./testing/compiled-entries";
import { tinyPdf } from "./testing/files";
import { migratedPgliteDir } from "./testing/harness";
import { tempDirs } from "./testing/temp-dirs";

// The real entry points, as separate processes: config errors, start-up, graceful shutdown, CLI.
const root = path.resolve(import.meta.dirname, "../..");
const makeDir = tempDirs();
const tempDir = () => makeDir("sourio-proc-");
// The entry points compiled once per worker, run with plain node (testing/compiled-entries.ts).
let entry: (source: string) => string;
beforeAll(async () => {
  entry = await compiledEntries();
}, 120_000);
const live = new Set<ChildProcess>();
afterAll(async () => {
  // A shared first start that no test stopped (the modes test filtered out).
  await Promise.all(
    [...live].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }),
  );
});

function start(script: string, args: string[], env: Record<string, string>) {
  // Plain node on the entry point itself, as `npm start` runs the compiled server (no launcher that
  // would relay signals itself).
  const child = spawn(process.execPath, [entry(script), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
  });
  live.add(child);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, out: collected(child.stdout), err: collected(child.stderr) };
}

/** What a stream has written so far. */
function collected(stream: Readable): () => string {
  let text = "";
  stream.on("data", (chunk) => {
    text += chunk;
  });
  return () => text;
}

// Waits until the process says what the test needs; the verdict "it will never come" is the test's
// own time limit, not a second, shorter one here (ADR 028).
async function waitFor(predicate: () => boolean, child: ChildProcess) {
  while (!predicate()) {
    if (child.exitCode !== null) throw new Error("process exited early");
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Each case starts real processes (migrations): minutes on a loaded 2-core machine, not seconds.
const PROCESSES = { timeout: 300_000 };

/**
 * A server's first start, on an empty DATA_DIR: PGlite's initdb and every migration, the product's
 * path on a new install. One start serves the two tests that need it (about 10 CPU-s each, ADR 054):
 * the first test to ask starts it, the modes test stops it (SIGTERM) and checks the shutdown; a test
 * that runs alone, or after the modes test, starts its own. Neither test relies on the other's work.
 */
let first: Promise<{ proc: ReturnType<typeof start>; url: string; dataDir: string }> | undefined;
function firstStart() {
  first ??= (async () => {
    const dataDir = tempDir();
    const proc = start("src/server/server.ts", [], {
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      DEMO_DATA: "false",
    });
    await waitFor(() => /est prêt : (http:\/\/\S+)/.test(proc.out()), proc.child);
    return { proc, url: proc.out().match(/est prêt : (http:\/\/\S+)/)?.[1] ?? "", dataDir };
  })();
  return first;
}

describe("server process", PROCESSES, () => {
  it.each([
    [{ DATABASE_URL: "nonsense" }, "DATABASE_URL"],
    [{ NODE_ENV: "production" }, "AUTH_SECRET"],
  ])("stops on bad configuration %o with one line naming %s", async (env, variable) => {
    const proc = start("src/server/server.ts", [], { DATA_DIR: tempDir(), ...env });
    expect(await proc.exited).toBe(1);
    const lines = proc.err().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
  });

  it("starts on an empty DATA_DIR (the embedded database created and migrated) and answers health", async () => {
    const { proc, url } = await firstStart();
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(proc.out()).not.toContain("démonstration");
  });
});

/** Every path under `dir` whose mode is not 0700 (folders) or 0600 (files), with its mode. */
function openPaths(dir: string): string[] {
  const open: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = lstatSync(full).mode & 0o777;
    if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) open.push(`${mode.toString(8)} ${full}`);
  }
  return open;
}

describe("DATA_DIR's modes after a start and writes (issue 37)", PROCESSES, () => {
  it("keeps every path private, the embedded database's own files included, running and stopped after a graceful SIGTERM", async () => {
    const { proc, url, dataDir } = await firstStart();
    // This test stops the server: a test after it starts its own.
    first = undefined;
    // Writes: an account (database rows) and a request with its document (a stored file).
    const signup = await fetch(`${url}/api/account/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        role: "patient",
        first_name: "Marie",
        last_name: "Dupont",
        email: "modes@example.com",
        password: "Sourire-Sain-2026",
        accept_terms: true,
      }),
    });
    expect(signup.status, await signup.clone().text()).toBe(201);
    const cookie = (signup.headers.getSetCookie().find((c) => c.includes("session_token")) ?? "").split(
      ";",
    )[0];
    const form = new FormData();
    form.append("treatment_type", "crown");
    form.append("consent", "true");
    form.append("files", new Blob([new Uint8Array(tinyPdf())], { type: "application/pdf" }), "devis.pdf");
    const request = await fetch(`${url}/api/patient/requests`, {
      method: "POST",
      headers: { cookie: cookie ?? "" },
      body: form,
    });
    expect(request.status, await request.clone().text()).toBe(201);

    const running = readdirSync(dataDir, { recursive: true }).map(String);
    expect(running.some((p) => p.startsWith("pglite"))).toBe(true);
    expect(running.some((p) => p.startsWith("files") && p.endsWith(".pdf"))).toBe(true);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(openPaths(dataDir)).toEqual([]);

    proc.child.kill("SIGTERM");
    // 1 when the stop took over 10 s ("arrêt forcé"): the server's own lines say where it waited.
    expect(await proc.exited, proc.out() + proc.err()).toBe(0);
    expect(openPaths(dataDir)).toEqual([]);
  });
});

describe("create-admin", PROCESSES, () => {
  it("creates an administrator from the command line, and refuses bad arguments", async () => {
    const dataDir = tempDir();
    // The database as a first start leaves it (that start is tested above): the script opens it
    // and finds nothing to migrate.
    await migratedPgliteDir(path.join(dataDir, "pglite"));
    const createAdmin = (...args: string[]) => start("scripts/create-admin.ts", args, { DATA_DIR: dataDir });
    const bad = createAdmin("--email", "pas-un-email");
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toContain("Usage");

    const ok = createAdmin("--email", "Root@Example.com", "--password", "admin-secret");
    expect(await ok.exited).toBe(0);
    expect(ok.out()).toContain("root@example.com créé");

    const again = createAdmin(
      "--email",
      "root@example.com",
      "--password",
      "other-secret",
      "--remove-two-factor",
    );
    expect(await again.exited).toBe(0);
    expect(again.out()).toContain("mis à jour");
    expect(again.out()).toContain("La double authentification n'était pas activée sur ce compte");
  });

  it("rotates the embedded master key: files re-wrapped, the old key gone", async () => {
    const dataDir = tempDir();
    const [oldKey] = readOrCreateKeyFile(dataDir);
    const files = new LocalStorage(path.join(dataDir, "files"));
    const key = "p/00000000-0000-4000-8000-000000000001.pdf";
    await new EncryptedStorage(files, keyringOf([oldKey as Buffer])).write(key, Readable.from([tinyPdf()]));

    const rotate = start("scripts/rotate-key.ts", [], { DATA_DIR: dataDir });
    expect(await rotate.exited, rotate.err()).toBe(0);
    expect(rotate.out()).toContain("1 fichier(s) ré-emballé(s)");
    const keys = readKeyFile(path.join(dataDir, "data-key"));
    expect(keys).toHaveLength(1);
    expect(keys[0]?.equals(oldKey as Buffer)).toBe(false);
    const read = async (k: Buffer) => {
      const chunks: Buffer[] = [];
      for await (const c of new EncryptedStorage(files, keyringOf([k])).read(key)) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await read(keys[0] as Buffer)).equals(tinyPdf())).toBe(true);
    await expect(read(oldKey as Buffer)).rejects.toThrow(/clé inconnue/);
  });
});
