import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { pipeline, type Readable, Transform, type TransformCallback } from "node:stream";
import type { Keyring } from "./keyring";
import type { Storage } from "./storage";

/**
 * Every stored file encrypted at rest (issue 14, ADR 013): AES-256-GCM with a data key of its own,
 * wrapped by the current master key (DATA_KEY) and kept in the file's header; the content is
 * encrypted in chunks as it streams, so no file is ever held whole in memory.
 *
 *   header  "SRE1" · master key id (8) · wrap IV (12) · wrapped data key (32) · wrap tag (16)
 *   chunks  AES-256-GCM(data key, IV = 0…0 ‖ chunk number, AAD = chunk number ‖ last?) · tag (16)
 *
 * Every chunk but the last holds CHUNK bytes; the last one is marked in its authenticated data, so a
 * file cut short, reordered or altered fails to decrypt instead of being served. Rotating the master
 * key rewrites the header only (`rewrap`): the content is not encrypted again.
 */
export const MAGIC = Buffer.from("SRE1");
const ID = 8;
const IV = 12;
const TAG = 16;
const DATA_KEY = 32;
export const HEADER = MAGIC.length + ID + IV + DATA_KEY + TAG;
/** Where the master key's id ends in the header: what masterKeyIdOf needs of a file. */
export const MASTER_ID_END = MAGIC.length + ID;
export const CHUNK = 64 * 1024;

export class EncryptedStorage implements Storage {
  constructor(
    readonly inner: Storage,
    private readonly keys: Keyring,
  ) {}

  async write(key: string, source: Readable): Promise<number> {
    const encrypt = new EncryptStream(this.keys);
    await this.inner.write(
      key,
      pipeline(source, encrypt, () => {}),
    );
    return encrypt.plainBytes;
  }

  read(key: string): Readable {
    return pipeline(this.inner.read(key), new DecryptStream(this.keys), () => {});
  }

  /** The size of the content (not of what is stored), for Content-Length. */
  async size(key: string): Promise<number | null> {
    const stored = await this.inner.size(key);
    return stored === null ? null : plainSize(stored);
  }

  remove(key: string): Promise<void> {
    return this.inner.remove(key);
  }

  list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    return this.inner.list();
  }

  readHead(key: string, length: number): Promise<Buffer> {
    return this.inner.readHead(key, length);
  }

  replaceHead(key: string, head: Buffer): Promise<void> {
    return this.inner.replaceHead(key, head);
  }

  ping(): Promise<boolean> {
    return this.inner.ping();
  }

  /**
   * Re-wraps one file's data key with the current master key. 'unchanged' when it already is;
   * 'clear' when the file is not encrypted at all (written before encryption at rest).
   */
  async rewrap(key: string): Promise<"rewrapped" | "unchanged" | "clear"> {
    const head = await this.inner.readHead(key, HEADER);
    if (!isEncrypted(head)) return "clear";
    if (head.subarray(MAGIC.length, MAGIC.length + ID).equals(this.keys.current.id)) return "unchanged";
    const dataKey = unwrap(this.keys, head);
    await this.inner.replaceHead(key, wrap(this.keys, dataKey));
    return "rewrapped";
  }

  /** Encrypts a file stored in clear by an older version, in place (written aside, then renamed). */
  async encryptInPlace(key: string): Promise<boolean> {
    const head = await this.inner.readHead(key, HEADER);
    if (isEncrypted(head)) return false;
    const encrypt = new EncryptStream(this.keys);
    await this.inner.write(
      key,
      pipeline(this.inner.read(key), encrypt, () => {}),
    );
    return true;
  }
}

export function isEncrypted(head: Buffer): boolean {
  return head.length >= HEADER && head.subarray(0, MAGIC.length).equals(MAGIC);
}

/**
 * The id (hex) of the master key that wraps a stored file's data key, read from its first bytes (at
 * least MASTER_ID_END of them); null for a file stored in clear (written before encryption at rest).
 */
export function masterKeyIdOf(head: Buffer): string | null {
  if (head.length < MASTER_ID_END || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  return head.subarray(MAGIC.length, MASTER_ID_END).toString("hex");
}

/** Content size from stored size: the header, then one tag per chunk (the last one 0…CHUNK bytes). */
export function plainSize(stored: number): number {
  const body = stored - HEADER;
  if (body < TAG) return 0;
  const chunks = Math.ceil(body / (CHUNK + TAG));
  return body - chunks * TAG;
}

function wrap(keys: Keyring, dataKey: Buffer): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", keys.current.key, iv);
  cipher.setAAD(MAGIC);
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([MAGIC, keys.current.id, iv, wrapped, cipher.getAuthTag()]);
}

function unwrap(keys: Keyring, head: Buffer): Buffer {
  const at = { id: MAGIC.length, iv: MAGIC.length + ID, key: MAGIC.length + ID + IV, tag: HEADER - TAG };
  const id = head.subarray(at.id, at.iv);
  const iv = head.subarray(at.iv, at.key);
  const wrapped = head.subarray(at.key, at.tag);
  const tag = head.subarray(at.tag, HEADER);
  const master = keys.byId.get(id.toString("hex"));
  if (!master) throw new Error("fichier chiffré avec une clé inconnue (DATA_KEY)");
  const decipher = createDecipheriv("aes-256-gcm", master.key, iv);
  decipher.setAAD(MAGIC);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(wrapped), decipher.final()]);
}

function chunkIv(n: number): Buffer {
  const iv = Buffer.alloc(IV);
  iv.writeUInt32BE(n, IV - 4);
  return iv;
}

function chunkAad(n: number, last: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32BE(n, 0);
  aad[4] = last ? 1 : 0;
  return aad;
}

class EncryptStream extends Transform {
  plainBytes = 0;
  private readonly dataKey = randomBytes(DATA_KEY);
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private n = 0;

  constructor(keys: Keyring) {
    super();
    this.push(wrap(keys, this.dataKey));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.plainBytes += chunk.length;
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    // Strictly more than a chunk: the one sealed now is not the last.
    if (this.pendingLength > CHUNK) {
      let all = Buffer.concat(this.pending);
      while (all.length > CHUNK) {
        this.push(this.seal(all.subarray(0, CHUNK), false));
        all = all.subarray(CHUNK);
      }
      this.pending = [all];
      this.pendingLength = all.length;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.push(this.seal(Buffer.concat(this.pending), true));
    done();
  }

  private seal(plain: Buffer, last: boolean): Buffer {
    const cipher = createCipheriv("aes-256-gcm", this.dataKey, chunkIv(this.n));
    cipher.setAAD(chunkAad(this.n, last));
    this.n += 1;
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }
}

class DecryptStream extends Transform {
  private dataKey: Buffer | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  private n = 0;

  constructor(private readonly keys: Keyring) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      if (!this.dataKey) {
        if (this.buffered.length < HEADER) {
          done();
          return;
        }
        const head = this.buffered.subarray(0, HEADER);
        if (!isEncrypted(head)) throw new Error("fichier stocké non chiffré");
        this.dataKey = unwrap(this.keys, head);
        this.buffered = this.buffered.subarray(HEADER);
      }
      // Strictly more than a sealed chunk: the one opened now is not the last.
      while (this.buffered.length > CHUNK + TAG) {
        this.push(this.open(this.buffered.subarray(0, CHUNK + TAG), false));
        this.buffered = this.buffered.subarray(CHUNK + TAG);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.dataKey || this.buffered.length < TAG) throw new Error("fichier chiffré tronqué");
      this.push(this.open(this.buffered, true));
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  private open(sealed: Buffer, last: boolean): Buffer {
    const decipher = createDecipheriv("aes-256-gcm", this.dataKey as Buffer, chunkIv(this.n));
    decipher.setAAD(chunkAad(this.n, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    this.n += 1;
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
  }
}
