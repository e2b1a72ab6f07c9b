import { createHash } from "node:crypto";

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
