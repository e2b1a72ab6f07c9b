import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The master keys of the files at rest as configuration: DATA_KEY (and DATA_KEY_PREVIOUS) are
 * parsed here, and the embedded setup keeps its keys in DATA_DIR like AUTH_SECRET. What the keys
 * do (wrap each file's data key) is storage's: `keyringOf` in storage/keyring.ts.
 */
export const KEY_FILE = "data-key";

/** A master key as written in DATA_KEY or the key file: 32 random bytes in base64 (or base64url). */
export function parseMasterKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return key.length === 32 ? key : null;
}

export function newMasterKey(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The embedded setup keeps its keys in DATA_DIR/data-key, one per line, current first; the file is
 * created with one new key on the first start. (DATA_DIR is the service's alone: 0700, this file 0600.)
 */
export function readOrCreateKeyFile(dataDir: string): Buffer[] {
  const file = path.join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeKeyFile(dataDir, [newMasterKey()]);
  }
  return readKeyFile(file);
}

export function readKeyFile(file: string): Buffer[] {
  const keys: Buffer[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const key = parseMasterKey(line);
    if (!key) throw new Error(`${file} : une ligne n'est pas une clé de 32 octets en base64`);
    keys.push(key);
  }
  if (keys.length === 0) throw new Error(`${file} est vide`);
  return keys;
}

/** Replaces the key file at once (written aside, then renamed): never a half-written key. */
export function writeKeyFile(dataDir: string, keys: readonly string[]): void {
  const file = path.join(dataDir, KEY_FILE);
  writeFileSync(`${file}.next`, `${keys.join("\n")}\n`, { mode: 0o600 });
  renameSync(`${file}.next`, file);
}
