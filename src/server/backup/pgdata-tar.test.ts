import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "kysely";
import { extract as tarExtract, pack as tarPack } from "tar-stream";
import { describe, expect, it } from "vitest";
import { type DatabaseHandle, migrateToLatest, openDatabase, PGLITE_OPTIONS } from "../db/index";
import { LocalStorage } from "../storage/storage";
import { tempDirs } from "../testing/temp-dirs";
import { BackupError, describeDatabase, snapshotEmbedded, workDir, writeBackup } from "./archive";
import { packDirectory, unpackTar } from "./pgdata-tar";
import { restoreBackup } from "./restore";

/**
 * The embedded database's dump as a stream (ADR 047, addendum): on disk, its data directory is copied
 * while its queries wait and packed file by file; the restore unpacks it the same way. PGlite's own
 * dump (archives written before) still unpacks.
 */

const tempDir = tempDirs();

const KEY = Buffer.alloc(32, 9);

async function tarNames(file: string): Promise<string[]> {
  const names: string[] = [];
  const reading = tarExtract();
  reading.on("entry", (header, stream, next) => {
    names.push(header.name);
    stream.on("end", () => next());
    stream.resume();
  });
  const done = new Promise<void>((resolve, reject) => {
    reading.on("finish", () => resolve());
    reading.on("error", reject);
  });
  createReadStream(file).pipe(createGunzip()).pipe(reading);
  await done;
  return names;
}

async function rowsOf(database: DatabaseHandle, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
    database.db,
  );
  return rows[0]?.n ?? 0;
}

describe("the embedded database's dump, streamed", { timeout: 300_000 }, () => {
  it("copies a database on disk while writes go on, packs it, and the restore brings back exactly the snapshot", async () => {
    const source = tempDir("sourio-dump-source-");
    const database = openDatabase({ pgliteDir: path.join(source, "pglite") });
    const work = await workDir(tempDir("sourio-dump-work-"));
    try {
      await migrateToLatest(database.db);
      await sql`create table drill_rows (n int not null, payload text not null)`.execute(database.db);
      await sql`insert into drill_rows select g, repeat('x', 200) from generate_series(1, 2000) g`.execute(
        database.db,
      );
      expect(database.embedded?.dir).toBe(path.join(source, "pglite"));
      // Writes keep coming while the snapshot is taken: each one whole or absent in it. Each waits
      // for the event loop's next turn, as requests do (PGlite answers in microtasks: a bare loop
      // would starve the file copies).
      let writing = true;
      let written = 0;
      const during = (async () => {
        while (writing) {
          await sql`insert into drill_rows values (${10_000 + written}, 'pendant')`.execute(database.db);
          written += 1;
          await new Promise((r) => setImmediate(r));
        }
      })();
      const dumpFile = path.join(work.dir, "pglite.tar.gz");
      let snapshot: Awaited<ReturnType<typeof snapshotEmbedded>>;
      try {
        snapshot = await snapshotEmbedded(database, dumpFile);
      } finally {
        writing = false;
        await during;
      }
      await sql`insert into drill_rows values (-1, 'après')`.execute(database.db);
      const live = await rowsOf(database, "drill_rows");
      expect(snapshot.tables.drill_rows).toBeGreaterThanOrEqual(2000);
      expect(live).toBeGreaterThan(snapshot.tables.drill_rows ?? 0);

      // The dump: a private gzip'd tar of the data directory, its copy removed.
      expect(statSync(dumpFile).mode & 0o777).toBe(0o600);
      const names = await tarNames(dumpFile);
      expect(names).toContain("PG_VERSION");
      expect(names.some((name) => name.startsWith("base/"))).toBe(true);
      expect(readdirSync(work.dir)).toEqual(["pglite.tar.gz"]);

      const archive = path.join(tempDir("sourio-dump-out-"), "sauvegarde.zip");
      await writeBackup({
        file: archive,
        databaseKind: "pglite",
        dumpFile,
        snapshot,
        store: new LocalStorage(path.join(tempDir("sourio-dump-files-"), "files")),
        currentKey: KEY,
        sourioVersion: "test",
      });
      const restoredDir = tempDir("sourio-dump-restored-");
      const manifest = await restoreBackup({
        file: archive,
        keys: [KEY],
        store: new LocalStorage(path.join(restoredDir, "files")),
        target: { pgliteDir: path.join(restoredDir, "pglite") },
      });
      expect(manifest.database.tables.drill_rows).toBe(snapshot.tables.drill_rows);
      // Unpacked private: folders 0700, files 0600.
      expect(statSync(path.join(restoredDir, "pglite")).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(restoredDir, "pglite", "PG_VERSION")).mode & 0o077).toBe(0);
      const restored = openDatabase({ pgliteDir: path.join(restoredDir, "pglite") });
      try {
        expect(await describeDatabase(restored.db)).toEqual({
          migration: snapshot.migration,
          tables: snapshot.tables,
        });
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from drill_rows where payload = 'après'`.execute(restored.db);
        expect(rows[0]?.n).toBe(0);
      } finally {
        await restored.close();
      }
    } finally {
      await database.close();
      await work.done();
    }
  });

  it("unpacks PGlite's own dump (the archives written before), which then opens with its rows", async () => {
    const pglite = new PGlite(PGLITE_OPTIONS);
    await pglite.exec("create table kept (n int); insert into kept select generate_series(1, 42);");
    const dump = await pglite.dumpDataDir("gzip");
    await pglite.close();
    const target = path.join(tempDir("sourio-dump-old-"), "pglite");
    await unpackTar(Readable.fromWeb(dump.stream() as never).pipe(createGunzip()), target);
    const reopened = new PGlite(target, PGLITE_OPTIONS);
    try {
      const { rows } = await reopened.query<{ n: number }>("select count(*)::int as n from kept");
      expect(rows[0]?.n).toBe(42);
    } finally {
      await reopened.close();
    }
  });

  it("refuses a name that would land outside the folder, writing nothing there", async () => {
    const parent = tempDir("sourio-dump-evil-");
    const evil = tarPack();
    evil.entry({ name: "PG_VERSION", type: "file", size: 3 }, Buffer.from("17\n"));
    evil.entry({ name: "../dehors", type: "file", size: 2 }, Buffer.from("x\n"));
    evil.finalize();
    await expect(unpackTar(Readable.from(evil), path.join(parent, "pglite"))).rejects.toThrow(BackupError);
    expect(existsSync(path.join(parent, "dehors"))).toBe(false);
  });
});

/** A store whose every file fails after its first bytes (a disk that gives way mid-read). */
class FailingStore extends LocalStorage {
  override read(): Readable {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.alloc(4096, 1));
    setImmediate(() => stream.destroy(new Error("disque illisible")));
    return stream;
  }
}

/** A small data-like folder: two levels, a few files. */
function smallTree(): string {
  const dir = path.join(tempDir("sourio-dump-tree-"), "pgdata");
  mkdirSync(path.join(dir, "base", "1"), { recursive: true });
  writeFileSync(path.join(dir, "PG_VERSION"), "17\n");
  for (let i = 0; i < 5; i += 1) writeFileSync(path.join(dir, "base", "1", `${i}`), Buffer.alloc(50_000, i));
  return dir;
}

describe("every way out of the backup settles: an error, every stream closed, nothing left waiting", () => {
  it("refuses a database in memory (nothing on disk to copy), in French", async () => {
    const inMemory = { embedded: { dir: null, whileQueriesWait: (work: () => Promise<unknown>) => work() } };
    await expect(snapshotEmbedded(inMemory as unknown as DatabaseHandle, "ignored")).rejects.toThrow(
      /en mémoire, sans dossier/,
    );
  });

  it("never packs over an existing file: the packing fails, the file is untouched", async () => {
    const taken = path.join(tempDir("sourio-dump-taken-"), "pglite.tar.gz");
    writeFileSync(taken, "déjà là");
    await expect(packDirectory(smallTree(), taken)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(taken, "utf8")).toBe("déjà là");
  });

  it("a truncated dump, or one whose stream closes before its end, fails the unpacking", async () => {
    const dump = path.join(tempDir("sourio-dump-whole-"), "pglite.tar.gz");
    await packDirectory(smallTree(), dump);
    const bytes = readFileSync(dump);
    const half = bytes.subarray(0, Math.floor(bytes.length / 2));
    await expect(
      unpackTar(Readable.from([half]).pipe(createGunzip()), path.join(tempDir("sourio-dump-cut-"), "pglite")),
    ).rejects.toThrow(/Lecture de la base sauvegardée interrompue/);
    // The reader closed midway, without an error of its own.
    const gunzipped = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(dump)
        .pipe(createGunzip())
        .on("data", (chunk: Buffer) => chunks.push(chunk))
        .on("end", () => resolve(Buffer.concat(chunks)))
        .on("error", reject);
    });
    // Closed at many points of the tar, and at three moments (before the unpacking reads it, while it
    // opens a folder or a file, while it writes one): each ends with the French error. On Node 22 a
    // few of these waited forever, a file's pipeline on an entry the extractor had already destroyed.
    const out = tempDir("sourio-dump-closed-");
    for (let n = 0; n < 150; n += 1) {
      const closing = new Readable({ read() {} });
      closing.push(gunzipped.subarray(0, 512 + ((n * 1_777) % (gunzipped.length - 512))));
      if (n % 3 === 0) process.nextTick(() => closing.destroy());
      else if (n % 3 === 1) setImmediate(() => closing.destroy());
      else setTimeout(() => closing.destroy(), 1);
      await expect(unpackTar(closing, path.join(out, `pglite-${n}`))).rejects.toThrow(BackupError);
    }
  });

  it("a stored file that cannot be read fails the archive, which is removed; an existing archive is never touched", async () => {
    const work = tempDir("sourio-dump-failing-");
    const dumpFile = path.join(work, "dump");
    writeFileSync(dumpFile, Buffer.alloc(10_000, 3));
    const store = new FailingStore(path.join(work, "files"));
    await store.write("ab/cd.bin", Readable.from([Buffer.alloc(10_000, 5)]));
    const snapshot = { migration: "000", tables: {}, version: "test" };
    const archive = path.join(work, "sauvegarde.zip");
    const backup = (file: string) =>
      writeBackup({
        file,
        databaseKind: "pglite",
        dumpFile,
        snapshot,
        store,
        currentKey: KEY,
        sourioVersion: "test",
      });
    await expect(backup(archive)).rejects.toThrow(/disque illisible/);
    expect(existsSync(archive)).toBe(false);
    const taken = path.join(work, "autre.zip");
    writeFileSync(taken, "une autre sauvegarde");
    await expect(backup(taken)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(taken, "utf8")).toBe("une autre sauvegarde");
  });
});
