import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledEntries } from "../testing/compiled-entries";
import { tinyPdf } from "../testing/files";
import { migratedPgliteDir } from "../testing/harness";
import { tempDirs } from "../testing/temp-dirs";
import { totpCode } from "../testing/totp";

/**
 * npm run backup and npm run restore as real processes (issue 37), on the embedded database: the
 * backup taken from the running server (POST /internal/backup), the restore refused with a wrong
 * key, then done into an empty DATA_DIR, and the server started on it.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const makeDir = tempDirs();
const tempDir = () => makeDir("sourio-backup-proc-");

// The entry points compiled once per worker, run with plain node (testing/compiled-entries.ts).
let entry: (source: string) => string;
beforeAll(async () => {
  entry = await compiledEntries();
});

function start(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [entry(script), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, out: collected(child.stdout), err: collected(child.stderr) };
}

function collected(stream: Readable): () => string {
  let text = "";
  stream.on("data", (chunk) => {
    text += chunk;
  });
  return () => text;
}

async function waitFor(predicate: () => boolean, child: ChildProcess, err: () => string) {
  while (!predicate()) {
    if (child.exitCode !== null) throw new Error(`process exited early: ${err()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startServer(dataDir: string) {
  const proc = start("src/server/server.ts", [], {
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    DEMO_DATA: "false",
  });
  await waitFor(() => /est prêt : (http:\/\/\S+)/.test(proc.out()), proc.child, proc.err);
  return { proc, url: proc.out().match(/est prêt : (http:\/\/\S+)/)?.[1] ?? "" };
}

/** The cookies a response sets (those it clears left out), as a Cookie header. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

const postJson = (url: string, cookie: string, body: object) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });

/** A sign-in in two steps (ADR 098): the password (202), then the app's code. */
async function loginWithCode(url: string, email: string, totpUri: string) {
  const first = await postJson(`${url}/api/account/login`, "", { email, password: "Sourire-Sain-2026" });
  expect(first.status).toBe(202);
  const second = await postJson(`${url}/api/account/login/code`, cookiesOf(first), {
    code: totpCode(totpUri),
  });
  const cookie = (second.headers.getSetCookie().find((c) => c.includes("session_token")) ?? "").split(";")[0];
  return { status: second.status, cookie: cookie ?? "" };
}

async function login(url: string, email: string): Promise<{ status: number; cookie: string }> {
  const response = await fetch(`${url}/api/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "Sourire-Sain-2026" }),
  });
  const cookie = (response.headers.getSetCookie().find((c) => c.includes("session_token")) ?? "").split(
    ";",
  )[0];
  return { status: response.status, cookie: cookie ?? "" };
}

describe("npm run backup / restore", { timeout: 600_000 }, () => {
  it("backs up a running embedded server, refuses a wrong key, restores into an empty DATA_DIR that starts", async () => {
    const source = tempDir();
    // The database as a server's first start leaves it (that start is server.test.ts's subject):
    // this server opens it and finds nothing to migrate.
    await migratedPgliteDir(path.join(source, "pglite"));
    const server = await startServer(source);
    const email = "sauvegarde@example.com";
    const signup = await fetch(`${server.url}/api/account/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        role: "patient",
        first_name: "Marie",
        last_name: "Dupont",
        email,
        password: "Sourire-Sain-2026",
        accept_terms: true,
      }),
    });
    expect(signup.status).toBe(201);
    const { cookie } = await login(server.url, email);
    const form = new FormData();
    form.append("treatment_type", "crown");
    form.append("consent", "true");
    form.append("files", new Blob([new Uint8Array(tinyPdf())], { type: "application/pdf" }), "devis.pdf");
    const created = await fetch(`${server.url}/api/patient/requests`, {
      method: "POST",
      headers: { cookie },
      body: form,
    });
    expect(created.status).toBe(201);
    const requestId = ((await created.json()) as { id: string }).id;
    // She turned on two-step sign-in: its key is encrypted with the server's auth-secret (ADR 098).
    const setup = await postJson(`${server.url}/api/account/two-factor/setup`, cookie, {
      password: "Sourire-Sain-2026",
    });
    const totpUri = ((await setup.json()) as { totp_uri: string }).totp_uri;
    const confirmed = await postJson(`${server.url}/api/account/two-factor/confirm`, cookie, {
      code: totpCode(totpUri),
    });
    expect(confirmed.status).toBe(200);

    // A dump a killed backup left behind two days ago (a plaintext copy of the database): the next
    // backup removes it.
    mkdirSync(path.join(source, "backup-work"), { recursive: true, mode: 0o700 });
    const leftover = path.join(source, "backup-work", "abandoned.tar.gz");
    writeFileSync(leftover, "copie en clair", { mode: 0o600 });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(leftover, twoDaysAgo, twoDaysAgo);

    const archive = path.join(tempDir(), "sourio.zip");
    const backup = start("scripts/backup.ts", ["--", archive], { DATA_DIR: source });
    expect(await backup.exited, backup.err()).toBe(0);
    expect(backup.out()).toContain("instantané pris par le serveur en marche");
    expect(backup.out()).toMatch(new RegExp(`Sauvegarde écrite dans ${archive} \\(\\d[\\d,]* [KM]?o\\)`));
    expect(backup.out()).toContain("1 fichier(s) chiffré(s)");
    expect(backup.out()).toContain("1 compte(s) ont la double authentification");
    expect(backup.out()).toContain("la restauration le demandera dans AUTH_SECRET");
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(source, "backup-work"))).toEqual([]);
    // Never over an existing file.
    const again = start("scripts/backup.ts", ["--", archive], { DATA_DIR: source });
    expect(await again.exited).toBe(1);
    expect(again.err()).toContain("existe déjà");

    server.proc.child.kill("SIGTERM");
    expect(await server.proc.exited, server.proc.out() + server.proc.err()).toBe(0);
    expect(existsSync(path.join(source, "backup-endpoint.json"))).toBe(false);

    const target = tempDir();
    const wrong = start("scripts/restore.ts", ["--", archive], {
      DATA_DIR: target,
      DATA_KEY: Buffer.alloc(32, 3).toString("base64"),
    });
    expect(await wrong.exited).toBe(1);
    expect(wrong.err().trim()).toBe(
      "DATA_KEY n'est pas la clé des fichiers de cette sauvegarde : donnez dans DATA_KEY la clé en service le jour de la sauvegarde (rien n'a été écrit).",
    );
    expect(readdirSync(target)).toEqual([]);

    const key = readFileSync(path.join(source, "data-key"), "utf8").split("\n")[0] as string;
    const authSecret = readFileSync(path.join(source, "auth-secret"), "utf8");
    const restore = start("scripts/restore.ts", ["--", archive], {
      DATA_DIR: target,
      DATA_KEY: key,
      AUTH_SECRET: authSecret,
    });
    expect(await restore.exited, restore.err()).toBe(0);
    expect(restore.out()).toContain("Restauration terminée depuis");
    expect(restore.out()).toContain(
      "1 compte(s) ont la double authentification : AUTH_SECRET est écrit dans",
    );
    expect(restore.out()).toContain("comptes conformes au manifeste");
    const twice = start("scripts/restore.ts", ["--", archive], { DATA_DIR: target, DATA_KEY: key });
    expect(await twice.exited).toBe(1);
    expect(twice.err()).toContain("n'est pas vide");

    // The restored DATA_DIR starts without DATA_KEY nor AUTH_SECRET (their files came from the
    // restore): her authenticator's code still opens her account.
    const restored = await startServer(target);
    const back = await loginWithCode(restored.url, email, totpUri);
    expect(back.status).toBe(200);
    const detail = await fetch(`${restored.url}/api/patient/requests/${requestId}`, {
      headers: { cookie: back.cookie },
    });
    expect(detail.status).toBe(200);
    const documents = ((await detail.json()) as { documents: { id: string }[] }).documents;
    expect(documents).toHaveLength(1);
    const file = await fetch(`${restored.url}/api/documents/${documents[0]?.id}/file`, {
      headers: { cookie: back.cookie },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(tinyPdf())).toBe(true);
    restored.proc.child.kill("SIGTERM");
    expect(await restored.proc.exited, restored.proc.out() + restored.proc.err()).toBe(0);
    for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      expect(lstatSync(full).mode & 0o777, full).toBe(entry.isDirectory() ? 0o700 : 0o600);
    }
  });
});
