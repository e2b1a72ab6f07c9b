import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where uploaded files live (ADR 005: private, random keys, never a public URL). The local
 * disk under DATA_DIR is the default; an S3-compatible store can implement the same interface.
 */
export interface Storage {
  /** Streams `source` to `key`; the file appears under its key only once complete. Returns its size. */
  write(key: string, source: Readable): Promise<number>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** Every stored key (and unfinished `.part` files) with its last modification time. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** The first `length` bytes as stored (fewer if the file is shorter). */
  readHead(key: string, length: number): Promise<Buffer>;
  /** Overwrites the start of a stored file with `head`, the rest untouched (key rotation). */
  replaceHead(key: string, head: Buffer): Promise<void>;
  /** Whether files can be stored right now (the health check); false, never a throw, when not. */
  ping(): Promise<boolean>;
}

const SAFE_KEY = /^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9_-]+)*\.[a-z0-9]{1,8}$/;

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`clé de stockage invalide : ${key}`);
    return path.join(this.root, key);
  }

  async write(key: string, source: Readable): Promise<number> {
    const target = this.pathOf(key);
    const partial = `${target}.part`;
    const file = await this.create(partial);
    try {
      await pipeline(source, file.createWriteStream());
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      await this.pruneFolders(target);
      throw error;
    }
    return (await stat(target)).size;
  }

  /**
   * Creates a new file (0600) in its folder (0700: nobody but the service's account reads a
   * patient's file). The folder may be removed in between, as the last file of an emptied folder
   * goes (pruneFolders): then it is made again. Once the file exists, its folder stays.
   */
  private async create(file: string): Promise<FileHandle> {
    for (let attempt = 0; ; attempt++) {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      try {
        return await open(file, "wx", 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Removes the folders of `file` left empty, up to the root: a person's folder (named after their
   * account's id) goes with their last file (issue 32: nothing named after an erased account).
   */
  private async pruneFolders(file: string): Promise<void> {
    const root = path.resolve(this.root);
    for (let folder = path.dirname(path.resolve(file)); folder.startsWith(`${root}${path.sep}`); ) {
      try {
        await rmdir(folder);
      } catch {
        return; // not empty (or already gone): the folders above are not empty either
      }
      folder = path.dirname(folder);
    }
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    const partial = key.endsWith(".part");
    const target = this.pathOf(partial ? key.slice(0, -".part".length) : key);
    await rm(partial ? `${target}.part` : target, { force: true });
    await this.pruneFolders(target);
  }

  async readHead(key: string, length: number): Promise<Buffer> {
    const file = await open(this.pathOf(key), "r");
    try {
      const head = Buffer.alloc(length);
      const { bytesRead } = await file.read(head, 0, length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async replaceHead(key: string, head: Buffer): Promise<void> {
    const file = await open(this.pathOf(key), "r+");
    try {
      await file.write(head, 0, head.length, 0);
      await file.sync();
    } finally {
      await file.close();
    }
  }

  /**
   * Writes and removes a probe file: a missing DATA_DIR (an unmounted volume), a files folder that
   * is not one, a read-only or full disk all read as false. The files folder itself is created on
   * first use, like `write` does, but not DATA_DIR, which the server creates at start-up. The probe
   * has a key's shape and a `.part` name: were the process killed in between, the sweeper removes it.
   */
  async ping(): Promise<boolean> {
    try {
      await mkdir(this.root, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      const probe = path.join(this.root, `health-${randomUUID()}.txt.part`);
      await writeFile(probe, "", { flag: "wx", mode: 0o600 });
      await rm(probe);
      return true;
    } catch {
      return false;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let entries: string[];
    try {
      entries = await readdir(this.root, { recursive: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(this.root, entry);
      const info = await stat(full).catch(() => null);
      if (info?.isFile()) yield { key: entry.split(path.sep).join("/"), modifiedAt: info.mtime };
    }
  }
}
