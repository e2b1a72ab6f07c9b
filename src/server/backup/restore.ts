import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { sql } from "kysely";
import yauzl from "yauzl";
import { openDatabase } from "../db/index";
import { migrations } from "../db/migrations/index";
import { MASTER_ID_END, masterKeyIdOf } from "../storage/encrypted";
import { keyringOf } from "../storage/keyring";
import type { Storage } from "../storage/storage";
import {
  BackupError,
  describeDatabase,
  digesting,
  FORMAT,
  keyFingerprint,
  MANIFEST,
  type Manifest,
  postgresConnection,
  postgresTool,
  workDir,
} from "./archive";
import { unpackTar } from "./pgdata-tar";

/**
 * `npm run restore` (issue 37, ADR 047): into an empty place only, every check made before
 * anything is written (the archive's format, the files' key, the migration level, every digest),
 * then the database, its row counts compared with the manifest, then the files.
 */
export interface RestoreOptions {
  file: string;
  /** The configured master keys (DATA_KEY, DATA_KEY_PREVIOUS): every key the files need must be among them. */
  keys: Buffer[];
  /** The files' store as it keeps them (the local folder or the bucket), to fill. */
  store: Storage;
  /** PostgreSQL to fill, or the embedded database's folder to create. */
  target: { databaseUrl: string } | { pgliteDir: string };
}

interface Archive {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  close(): void;
}

function openArchive(file: string): Promise<Archive> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || !zip) return reject(new BackupError(`Archive illisible (${file}) : ${error?.message}`));
      const entries = new Map<string, yauzl.Entry>();
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on("end", () => resolve({ zip, entries, close: () => zip.close() }));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

function entryStream(archive: Archive, name: string): Promise<Readable> {
  const entry = archive.entries.get(name);
  if (!entry) return Promise.reject(new BackupError(`L'archive ne contient pas ${name}.`));
  return new Promise((resolve, reject) =>
    archive.zip.openReadStream(entry, (error, stream) =>
      error || !stream ? reject(error) : resolve(stream),
    ),
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads and checks the manifest, the key and every digest; writes nothing. */
export async function checkArchive(file: string, keys: Buffer[]): Promise<Manifest> {
  const archive = await openArchive(file);
  try {
    return await checked(archive, keys);
  } finally {
    archive.close();
  }
}

async function checked(archive: Archive, keys: Buffer[]): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse((await readAll(await entryStream(archive, MANIFEST))).toString("utf8")) as Manifest;
  } catch (error) {
    throw new BackupError(`Manifeste illisible : ${(error as Error).message}`);
  }
  if (manifest.format !== FORMAT)
    throw new BackupError(`Format de sauvegarde inconnu (${String(manifest.format)}), attendu ${FORMAT}.`);
  if (!keys.some((key) => keyFingerprint(key) === manifest.data_key))
    throw new BackupError(
      "DATA_KEY n'est pas la clé des fichiers de cette sauvegarde : donnez dans DATA_KEY la clé en service le jour de la sauvegarde (rien n'a été écrit).",
    );
  const known = Object.keys(migrations).sort();
  if (!known.includes(manifest.database.migration))
    throw new BackupError(
      `Niveau de migration inconnu de cette version (${manifest.database.migration}) : restaurez avec la version de Sourio qui a fait la sauvegarde (${manifest.versions.sourio}) ou une plus récente.`,
    );
  const expected = new Map<string, { size: number; sha256: string }>([
    [manifest.database.entry, manifest.database],
    ...manifest.files.map((f) => [`files/${f.key}`, f] as const),
  ]);
  for (const name of archive.entries.keys())
    if (name !== MANIFEST && !expected.has(name))
      throw new BackupError(`L'archive contient ${name}, absent du manifeste.`);
  // Files wrapped with a key not given (a backup taken before `npm run rotate-key` had re-wrapped
  // them all): said before the digests are read, from the manifest when it lists them…
  const given = keyringOf(keys).byId;
  const unknownIn = (fileKeys: Record<string, number>) =>
    Object.entries(fileKeys)
      .filter(([id]) => !given.has(id))
      .reduce((n, [, count]) => n + count, 0);
  const listed = unknownIn(manifest.file_keys ?? {});
  if (listed > 0) throw missingPreviousKey(listed);
  // …and from each file's header, for an archive that does not list them.
  const headerKeys: Record<string, number> = {};
  for (const [name, want] of expected) {
    const digest = digesting(MASTER_ID_END);
    await pipeline(await entryStream(archive, name), digest.stream, async (source) => {
      for await (const _ of source);
    });
    const got = digest.result();
    if (got.sha256 !== want.sha256 || got.size !== want.size)
      throw new BackupError(
        `Empreinte SHA-256 différente pour ${name} : archive abîmée (rien n'a été écrit).`,
      );
    const id = name.startsWith("files/") ? masterKeyIdOf(digest.head()) : null;
    if (id) headerKeys[id] = (headerKeys[id] ?? 0) + 1;
  }
  const read = unknownIn(headerKeys);
  if (read > 0) throw missingPreviousKey(read);
  return manifest;
}

/** Files of the archive whose master key is neither DATA_KEY nor DATA_KEY_PREVIOUS (ADR 077). */
function missingPreviousKey(files: number): BackupError {
  return new BackupError(
    `${files} fichier(s) de cette sauvegarde sont chiffrés avec une clé précédente qui n'est pas donnée : la rotation des clés (npm run rotate-key) n'était pas finie le jour de la sauvegarde. Donnez aussi la clé précédente dans DATA_KEY_PREVIOUS (rien n'a été écrit).`,
  );
}

/** Whether the target is empty: no table in PostgreSQL's public schema, or no embedded folder. */
async function assertEmpty(options: RestoreOptions): Promise<void> {
  for await (const _ of options.store.list())
    throw new BackupError(
      "Le stockage des fichiers n'est pas vide : la restauration se fait dans un stockage vide.",
    );
  if ("pgliteDir" in options.target) {
    const present = await readdir(options.target.pgliteDir).catch(() => []);
    if (present.length > 0)
      throw new BackupError(
        `La base embarquée existe déjà (${options.target.pgliteDir}) : restaurez dans un DATA_DIR vide.`,
      );
    return;
  }
  const database = openDatabase({ databaseUrl: options.target.databaseUrl, poolSize: 1 });
  try {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.tables where table_schema = 'public'`.execute(
      database.db,
    );
    if ((rows[0]?.n ?? 0) > 0)
      throw new BackupError("La base PostgreSQL n'est pas vide : créez une base vide pour la restauration.");
  } finally {
    await database.close();
  }
}

export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const archive = await openArchive(options.file);
  /** Once the database is being written: what a failure must take back (the files written). */
  let writing = false;
  const written: string[] = [];
  try {
    const manifest = await checked(archive, options.keys);
    await assertEmpty(options);
    if (manifest.database.kind === "pglite" && !("pgliteDir" in options.target))
      throw new BackupError(
        "Cette sauvegarde est celle de la base embarquée : restaurez-la sans DATABASE_URL (dans DATA_DIR).",
      );
    if (manifest.database.kind === "postgres" && !("databaseUrl" in options.target))
      throw new BackupError(
        "Cette sauvegarde est celle d'une base PostgreSQL : donnez DATABASE_URL (une base vide).",
      );

    // The database.
    writing = true;
    if ("pgliteDir" in options.target) {
      // Unpacked as a stream (memory flat whatever the size); opened once, below, to be counted.
      const entry = await entryStream(archive, manifest.database.entry);
      const dump = createGunzip();
      entry.on("error", (error) => dump.destroy(error));
      await unpackTar(entry.pipe(dump), options.target.pgliteDir);
    } else {
      const pgRestore = postgresTool("pg_restore");
      if (!pgRestore)
        throw new BackupError("pg_restore est introuvable dans le PATH : installez le client PostgreSQL.");
      const work = await workDir();
      try {
        const dumpFile = path.join(work.dir, "postgres.dump");
        await pipeline(
          await entryStream(archive, manifest.database.entry),
          createWriteStream(dumpFile, { mode: 0o600 }),
        );
        // One transaction: a restore that stops part-way leaves no table behind.
        const connection = postgresConnection(options.target.databaseUrl);
        await run(
          pgRestore,
          ["--no-owner", "--exit-on-error", "--single-transaction", "-d", connection.url, dumpFile],
          connection.env,
        );
      } finally {
        await work.done();
      }
    }

    // What came back is what was saved: it opens (the embedded one, for the only time here, closed
    // on every way out) and its rows are the manifest's, before any file is written.
    const database =
      "pgliteDir" in options.target
        ? openDatabase({ pgliteDir: options.target.pgliteDir })
        : openDatabase({ databaseUrl: options.target.databaseUrl, poolSize: 1 });
    try {
      const restored = await describeDatabase(database.db);
      if (restored.migration !== manifest.database.migration)
        throw new BackupError("Niveau de migration restauré différent du manifeste.");
      for (const [table, rows] of Object.entries(manifest.database.tables))
        if (restored.tables[table] !== rows)
          throw new BackupError(
            `Table ${table} : ${restored.tables[table] ?? 0} lignes restaurées, ${rows} dans le manifeste.`,
          );
    } finally {
      await database.close();
    }

    // The files, as stored (encrypted).
    for (const file of manifest.files) {
      written.push(file.key);
      await options.store.write(file.key, await entryStream(archive, `files/${file.key}`));
    }
    return manifest;
  } catch (error) {
    // The place was empty: a restore that fails once it has begun to write (pg_restore or the
    // unpacking stopped, rows that differ from the manifest, a file the store refused) leaves it
    // empty again, so that it can be run again once the cause is fixed.
    if (writing)
      await undo(options, written).catch((undoError: unknown) => {
        // The first error is the cause; the operator must also know the place is not empty.
        throw new BackupError(
          `${error instanceof Error ? error.message : String(error)} ; ce qui avait été écrit n'a pas pu être retiré (${undoError instanceof Error ? undoError.message : String(undoError)}) : videz l'endroit avant de relancer.`,
        );
      });
    throw error;
  } finally {
    archive.close();
  }
}

/** Removes what a failed restore wrote into the empty place it was given. */
async function undo(options: RestoreOptions, written: string[]): Promise<void> {
  for (const key of written) await options.store.remove(key);
  if ("pgliteDir" in options.target) {
    await rm(options.target.pgliteDir, { recursive: true, force: true });
    return;
  }
  // pg_restore ran in one transaction: what is left is a whole restore whose rows or files did not
  // match. The database had no table in its public schema (assertEmpty).
  const database = openDatabase({ databaseUrl: options.target.databaseUrl, poolSize: 1 });
  try {
    await sql`drop schema public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
  } finally {
    await database.close();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} a échoué (${code}) : ${err.trim()}`)),
    );
  });
}
