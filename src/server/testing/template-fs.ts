import { Readable } from "node:stream";
import { MemoryFS } from "@electric-sql/pglite";
import { extract as tarExtract } from "tar-stream";

/**
 * A test app's database in memory, started from the migrated template's files without unpacking its
 * tar again (ADR 068). PGlite's `loadDataDir` parses the whole 28 MB tar in JavaScript at every start
 * (each header, each file sliced out, then copied into the in-memory file system): about 0.3 CPU-s an
 * app, more than PostgreSQL's own start. Here the tar is read once per worker into its files, and each
 * app's database is those files written into a fresh in-memory file system before PostgreSQL starts:
 * about 0.17 CPU-s. What PostgreSQL finds is the same data directory, byte for byte.
 */

/** A file (with its bytes) or a folder of the data directory, its path relative to it. */
export interface TemplateEntry {
  path: string;
  data?: Uint8Array;
}

/** The entries of a PGlite data directory's tar (as `dumpDataDir("none")` writes it), in tar order. */
export async function templateEntries(tar: Blob): Promise<TemplateEntry[]> {
  const extract = tarExtract();
  Readable.from([Buffer.from(await tar.arrayBuffer())]).pipe(extract);
  const entries: TemplateEntry[] = [];
  for await (const entry of extract) {
    const path = entry.header.name.replace(/^(\.?\/)+/, "").replace(/\/+$/, "");
    if (entry.header.type === "directory") {
      entry.resume();
      if (path) entries.push({ path });
    } else if (entry.header.type === "file") {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      // A plain Uint8Array, not a Buffer: the in-memory file system copies a file's bytes with
      // `slice`, which on a Buffer is a view (the database's writes would land in the shared bytes).
      entries.push({ path, data: new Uint8Array(Buffer.concat(chunks)) });
    } else throw new Error(`Unexpected ${entry.header.type} entry in the template: ${entry.header.name}`);
  }
  return entries;
}

/**
 * PGlite's in-memory file system, holding `entries` in its data directory when PGlite looks for a
 * database there (`initialSyncFs` runs after the file system is made and before PGlite checks for
 * `PG_VERSION`): PGlite then starts PostgreSQL on it as on a database it found. Each file is copied
 * (`writeFile`), so what the database writes never reaches the shared entries.
 */
export class TemplateFS extends MemoryFS {
  readonly #entries: TemplateEntry[];

  constructor(entries: TemplateEntry[]) {
    super();
    this.#entries = entries;
  }

  override async initialSyncFs(): Promise<void> {
    if (!this.pg) throw new Error("TemplateFS: the file system is not initialised");
    const { FS, ENV } = this.pg.Module;
    const root = ENV.PGDATA;
    if (!root) throw new Error("TemplateFS: PGlite gave no data directory");
    FS.mkdirTree(root);
    for (const { path, data } of this.#entries) {
      if (data) FS.writeFile(`${root}/${path}`, data);
      else FS.mkdirTree(`${root}/${path}`);
    }
  }
}
