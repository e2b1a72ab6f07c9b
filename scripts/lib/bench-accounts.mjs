// The bench's accounts over HTTP (scripts/bench-soak.mjs, scripts/lib/bench-throughput.mjs): a login
// or a patient's sign-up against a running server, answered by the session cookie to send back; and
// the seeded accounts of scripts/bench-seed.ts (also scripts/bench.mjs, scripts/bench-backup.mjs).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./client-build.mjs";

/** The Cookie header ("name=value; …") carrying every cookie a response sets. */
export const cookieOf = (response) =>
  (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");

/** Logs `email` in on `base`; the session cookie, or an error naming the account and the status. */
export async function login(base, email, password) {
  const response = await fetch(`${base}/api/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`connexion de ${email} : ${response.status}`);
  return cookieOf(response);
}

/**
 * Signs a new patient up on `base` ("Prénom Nom", an e-mail unique to this run under `emailPrefix`);
 * the session cookie, or an error with the server's answer.
 */
export async function signUpPatient(base, { firstName, lastName, emailPrefix, password }) {
  const response = await fetch(`${base}/api/account/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({
      role: "patient",
      first_name: firstName,
      last_name: lastName,
      email: `${emailPrefix}-${Date.now().toString(36)}@example.com`,
      password,
      accept_terms: true,
    }),
  });
  if (response.status !== 201) throw new Error(`inscription : ${response.status} ${await response.text()}`);
  return cookieOf(response);
}

/**
 * Fills `dataDir` (or the database `env` names) with scripts/bench-seed.ts: `requests` requests and
 * `dentists` dentists. Answers what the seed prints last: the accounts it made (e-mails, password).
 */
export function seedBench(dataDir, { requests, dentists, env = {} }) {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "scripts/bench-seed.ts"),
      "--data-dir",
      dataDir,
      "--requests",
      String(requests),
      "--dentists",
      String(dentists),
    ],
    { cwd: root, encoding: "utf8", env: { ...process.env, ...env } },
  );
  if (run.status !== 0) throw new Error(`bench-seed : ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop());
}
