import { spawn, spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { createReadStream } from "node:fs";
import { cp, mkdir, mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import { ZipFile } from "yazl";
import { type DatabaseHandle, type Db, openDatabase } from "../db/index";
import { MASTER_ID_END, masterKeyIdOf } from "../storage/encrypted";
import { keyringOf } from "../storage/keyring";
import type { Storage } from "../storage/storage";
import { BackupError } from "./errors";
import { packDirectory } from "./pgdata-tar";

/**
 * One backup archive (issue 37, ADR 047): a zip written as a stream, 0600, holding
 * - `database/pglite.tar.gz` (the embedded database's own data-dir dump) or `database/postgres.dump`
 *   (`pg_dump -Fc`), taken in one snapshot;
 * - `files/<key>`: every stored file as the store keeps it, still encrypted (never decrypted here);
 * - `manifest.json`, last: versions, migration level, row counts per table of the snapshot, the
 *   SHA-256 and size of every entry, the fingerprint of the files' master key (never the key), and
 *   the ids of every master key the files are wrapped with (ADR 077).
 */
export const FORMAT = "sourio-backup/1";
export const MANIFEST = "manifest.json";
/** DATA_DIR's file where a running server says how `npm run backup` may ask it for a snapshot. */
export const BACKUP_ENDPOINT = "backup-endpoint.json";

export interface Manifest {
  format: typeof FORMAT;
  created_at: string;
  versions: { sourio: string; node: string; database: string };
  database: {
    kind: "pglite" | "postgres";
    entry: string;
    size: number;
    sha256: string;
    /** The last migration applied (kysely_migration), the schema's level. */
    migration: string;
    /** Rows of each table of the public schema, in the snapshot. */
    tables: Record<string, number>;
  };
  files: { key: string; size: number; sha256: string }[];
  /** HMAC of a fixed text under the current DATA_KEY: which key the files need, without the key. */
  data_key: string;
  /**
   * The master keys the files' data keys are wrapped with, by the id each file's header gives, with
   * their numbers of files (ADR 077). More than the current key's: the backup was taken before
   * `npm run rotate-key` had re-wrapped every file, and the restore needs DATA_KEY_PREVIOUS too.
   * Absent from archives written before it (the restore reads the files' headers either way).
   */
  file_keys?: Record<string, number>;
}

export { BackupError };

/** The fingerprint of a master key written in the manifest (HMAC-SHA256 of a fixed text, 16 bytes). */
export function keyFingerprint(key: Buffer): string {
  return createHmac("sha256", key).update("sourio-backup-key-check").digest("hex").slice(0, 32);
}

/** Rows per table of the public schema, and the last migration, as `db` sees them. */
export async function describeDatabase(
  db: Db,
): Promise<{ migration: string; tables: Record<string, number> }> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const tables: Record<string, number> = {};
  for (const { name } of rows) {
    const { rows: counted } = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    tables[name] = counted[0]?.n ?? 0;
  }
  const { rows: last } = await sql<{ name: string }>`
    select name from kysely_migration order by name desc limit 1`.execute(db);
  return { migration: last[0]?.name ?? "", tables };
}

/** A temporary folder of the backup's own (0700), removed by `done`. */
export async function workDir(parent = tmpdir()): Promise<{ dir: string; done(): Promise<void> }> {
  const dir = path.join(parent, `sourio-backup-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The embedded database's snapshot, written to `file` (a gzip'd tar of its data directory, 0600) with
 * memory flat whatever its size (ADR 047, addenda):
 * 1. after a checkpoint, its data directory is copied, file by file by the kernel, into a private
 *    folder beside `file` while PGlite's queries wait: a crash-consistent
 *    copy (what was committed, nothing half-done), as PGlite's own dump would be, without holding the
 *    database in memory. A database in memory (tests) has no folder: refused;
 * 2. the copy is opened on its own: its counts are the snapshot's, whatever was written since, and
 *    it is proved to open (closed cleanly, it needs no recovery after a restore); it is closed before
 *    the packing, on every way out;
 * 3. the copy is packed into `file` as a stream, then removed (on failure too).
 */
export async function snapshotEmbedded(
  database: DatabaseHandle,
  file: string,
): Promise<{ migration: string; tables: Record<string, number>; version: string }> {
  const embedded = database.embedded;
  if (!embedded) throw new BackupError("La base n'est pas la base embarquée.");
  const source = embedded.dir;
  if (!source)
    throw new BackupError(
      "La base embarquée est en mémoire, sans dossier : rien à sauvegarder (elle vit le temps du processus).",
    );
  await sql`checkpoint`.execute(database.db);
  const work = await mkdtemp(path.join(path.dirname(file), ".pglite-copy-"));
  const copy = path.join(work, "pgdata");
  try {
    await embedded.whileQueriesWait(() => cp(source, copy, { recursive: true, errorOnExist: true }));
    const described = await describeCopy(copy);
    await packDirectory(copy, file);
    return described;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Opens the copy (the snapshot) on its own: its migration, its counts and its version; closed always. */
async function describeCopy(
  dir: string,
): Promise<{ migration: string; tables: Record<string, number>; version: string }> {
  const handle = openDatabase({ pgliteDir: dir });
  try {
    const described = await describeDatabase(handle.db);
    const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(
      handle.db,
    );
    return { ...described, version: `PGlite (PostgreSQL ${rows[0]?.v ?? "?"})` };
  } finally {
    await handle.close();
  }
}

/** pg_dump / pg_restore on the PATH, or null. */
export function postgresTool(name: "pg_dump" | "pg_restore"): string | null {
  const found = spawnSync(name, ["--version"], { encoding: "utf8" });
  return found.status === 0 ? name : null;
}

/**
 * PostgreSQL's snapshot: a repeatable-read transaction exports its snapshot, the rows are counted
 * in it, and `pg_dump --snapshot` dumps exactly that state while the transaction stays open.
 */
export async function snapshotPostgres(
  database: DatabaseHandle,
  databaseUrl: string,
  file: string,
): Promise<{ migration: string; tables: Record<string, number>; version: string }> {
  const pgDump = postgresTool("pg_dump");
  if (!pgDump)
    throw new BackupError(
      "pg_dump est introuvable dans le PATH : installez le client PostgreSQL (paquet postgresql-client) ou utilisez la sauvegarde de l'hébergeur (docs/deploy.md).",
    );
  return database.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const { rows } = await sql<{ id: string; v: string }>`
        select pg_export_snapshot() as id, current_setting('server_version') as v`.execute(trx);
      const snapshot = rows[0]?.id as string;
      const described = await describeDatabase(trx);
      await new Promise<void>((resolve, reject) => {
        const connection = postgresConnection(databaseUrl);
        const child = spawn(
          pgDump,
          ["-Fc", "--no-owner", `--snapshot=${snapshot}`, "-f", file, connection.url],
          { stdio: ["ignore", "ignore", "pipe"], env: connection.env },
        );
        let err = "";
        child.stderr.on("data", (chunk) => {
          err += chunk;
        });
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve() : reject(new BackupError(`pg_dump a échoué (${code}) : ${err.trim()}`)),
        );
      });
      return { ...described, version: `PostgreSQL ${rows[0]?.v ?? "?"}` };
    });
}

/** Hashes what passes through, counts its bytes and keeps its first `keep` bytes. */
export function digesting(keep = 0): {
  stream: Transform;
  result(): { size: number; sha256: string };
  head(): Buffer;
} {
  const hash = createHash("sha256");
  let size = 0;
  let head = Buffer.alloc(0);
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      if (head.length < keep) head = Buffer.concat([head, chunk.subarray(0, keep - head.length)]);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  let digest: string | undefined;
  return {
    stream,
    result: () => {
      digest ??= hash.digest("hex");
      return { size, sha256: digest };
    },
    head: () => head,
  };
}

export interface WriteBackupOptions {
  /** The archive to create: refused if it exists. */
  file: string;
  databaseKind: "pglite" | "postgres";
  /** The snapshot's dump file and what it holds. */
  dumpFile: string;
  snapshot: { migration: string; tables: Record<string, number>; version: string };
  /** The files' store as it keeps them (encrypted): the local folder or the bucket, not EncryptedStorage. */
  store: Storage;
  currentKey: Buffer;
  sourioVersion: string;
}

/**
 * Writes the archive: the dump, then each stored file (one at a time, streamed: memory stays flat),
 * then the manifest. Files listed but gone before their turn (deleted meanwhile) are left out. If the
 * archive cannot be written to the end (no room, a file unreadable), every stream is closed, the
 * unfinished archive is removed and the error is thrown: nothing waits for a stream that is gone.
 */
export async function writeBackup(
  options: WriteBackupOptions,
): Promise<{ bytes: number; manifest: Manifest }> {
  // The archive's file first, before anything is read: an existing file fails the backup at once
  // (EEXIST) and is never touched, whatever else would have failed later.
  const handle = await open(options.file, "wx", 0o600);
  const zip = new ZipFile();
  const out = handle.createWriteStream();
  const written = pipeline(zip.outputStream, out);
  // The archive's failure stops the entry under way (below) and is thrown once, by `await written`.
  const stop = new AbortController();
  written.catch((error: Error) => stop.abort(error));
  try {
    const entry = options.databaseKind === "pglite" ? "database/pglite.tar.gz" : "database/postgres.dump";
    const dumpDigest = digesting();
    await addEntry(zip, entry, createReadStream(options.dumpFile), dumpDigest, stop.signal);

    const files: Manifest["files"] = [];
    const fileKeys: Record<string, number> = {};
    for await (const { key } of options.store.list()) {
      if (key.endsWith(".part")) continue;
      const size = await options.store.size(key);
      if (size === null) continue;
      const digest = digesting(MASTER_ID_END);
      await addEntry(zip, `files/${key}`, options.store.read(key), digest, stop.signal);
      files.push({ key, ...digest.result() });
      const id = masterKeyIdOf(digest.head());
      if (id) fileKeys[id] = (fileKeys[id] ?? 0) + 1;
    }
    files.sort((a, b) => a.key.localeCompare(b.key));
    const manifest: Manifest = {
      format: FORMAT,
      created_at: new Date().toISOString(),
      versions: { sourio: options.sourioVersion, node: process.version, database: options.snapshot.version },
      database: {
        kind: options.databaseKind,
        entry,
        ...dumpDigest.result(),
        migration: options.snapshot.migration,
        tables: options.snapshot.tables,
      },
      files,
      data_key: keyFingerprint(options.currentKey),
      file_keys: fileKeys,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST);
    zip.end();
    await written;
    return { bytes: (await stat(options.file)).size, manifest };
  } catch (error) {
    // The archive's own failure (no room…) rather than the entry it interrupted.
    const cause = stop.signal.aborted ? stop.signal.reason : error;
    (zip.outputStream as Readable).destroy();
    out.destroy();
    await written.catch(() => {});
    await rm(options.file, { force: true });
    throw cause;
  }
}

/**
 * Adds one entry and resolves once it is fully written (the next one starts only then); rejects if
 * its source fails or the archive stops (`stop`), its source then closed.
 */
function addEntry(
  zip: ZipFile,
  name: string,
  source: Readable,
  digest: { stream: Transform },
  stop: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      stop.removeEventListener("abort", stopped);
      source.destroy();
      digest.stream.destroy();
      reject(error);
    };
    const stopped = () => fail(stop.reason);
    if (stop.aborted) return stopped();
    stop.addEventListener("abort", stopped, { once: true });
    source.on("error", fail);
    digest.stream.on("error", fail);
    digest.stream.on("end", () => {
      stop.removeEventListener("abort", stopped);
      resolve();
    });
    // Stored, not compressed: the files are encrypted (nothing to gain) and the dump is gzip already.
    zip.addReadStream(source.pipe(digest.stream), name, { compress: false, mode: 0o100600 });
  });
}

/** How many archived files are wrapped with a master key other than the current one (ADR 077). */
export function filesUnderOtherKeys(fileKeys: Record<string, number>, keys: readonly Buffer[]): number {
  const current = keyringOf(keys).current.id.toString("hex");
  return Object.entries(fileKeys)
    .filter(([id]) => id !== current)
    .reduce((n, [, count]) => n + count, 0);
}

/** "12,3 Mo": a size as the messages say it. */
export function humanSize(bytes: number): string {
  const units = ["o", "Ko", "Mo", "Go", "To"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toLocaleString("fr-FR", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/**
 * DATABASE_URL for pg_dump and pg_restore without its password, which goes in their environment
 * (PGPASSWORD): a command line is readable by every local user (`ps`, /proc/<pid>/cmdline), a
 * process's environment by its owner only.
 */
export function postgresConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { url: url.href, env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}
