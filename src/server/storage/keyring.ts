import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The master keys that wrap each stored file's own data key (encryption at rest, issue 14). The
 * first key wraps new files; the others only unwrap files written before a rotation, until
 * `npm run rotate-key` has re-wrapped them. A key is known by an 8-byte fingerprint written in each
 * file's header, never by the key itself.
 */
export interface Keyring {
  current: MasterKey;
  /** Every key, current first, by fingerprint (hex). */
  byId: ReadonlyMap<string, MasterKey>;
}

export interface MasterKey {
  id: Buffer;
  key: Buffer;
}

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

export function keyringOf(keys: readonly Buffer[]): Keyring {
  if (keys.length === 0) throw new Error("aucune clé de chiffrement");
  const masters = keys.map((key) => ({ key, id: fingerprint(key) }));
  const byId = new Map<string, MasterKey>();
  for (const master of masters)
    if (!byId.has(master.id.toString("hex"))) byId.set(master.id.toString("hex"), master);
  return { current: masters[0] as MasterKey, byId };
}

function fingerprint(key: Buffer): Buffer {
  return createHash("sha256").update("sourio-data-key").update(key).digest().subarray(0, 8);
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
