import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { finished, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { type Header, type Pack, extract as tarExtract, pack as tarPack } from "tar-stream";
import { BackupError } from "./errors";

/**
 * The embedded database's data directory as a gzip'd tar, both ways as streams (ADR 047, addendum):
 * one file at a time passes through, in chunks, so memory stays flat whatever the database's size.
 * The tar is the one PGlite's own `dumpDataDir` writes and `loadDataDir` reads (ustar, paths relative
 * to the data directory): archives made before this module restore the same way.
 *
 * Every way out settles (ADR 047, second addendum): a failure of the file written (no room, a name
 * taken), of a file read or of the stream read ends the whole operation with that error, every stream
 * destroyed; nothing waits for a stream that will not move again.
 */

/** Writes `dir`'s tree as a gzip'd tar to `file` (created 0600, never over an existing file). */
export async function packDirectory(dir: string, file: string): Promise<void> {
  const pack = tarPack();
  const written = pipeline(pack, createGzip(), createWriteStream(file, { flags: "wx", mode: 0o600 }));
  // Its failure is said once, by the `await written` below; meanwhile it stops the loop (the pack is
  // destroyed with it: `entryDone` rejects), and it must not count as an unhandled rejection.
  written.catch(() => {});
  try {
    for await (const { name, full, isDir } of walk(dir, "")) {
      if (isDir) {
        await entryDone(pack, { name, type: "directory", mode: 0o700 });
        continue;
      }
      const { size, mtime } = await stat(full);
      await entryDone(pack, { name, type: "file", mode: 0o600, size, mtime }, createReadStream(full));
    }
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
  }
  await written;
}

/** The tree under `dir`, parents before their contents, in name order. */
async function* walk(
  dir: string,
  prefix: string,
): AsyncGenerator<{ name: string; full: string; isDir: boolean }> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      yield { name, full, isDir: true };
      yield* walk(full, name);
    } else if (entry.isFile()) yield { name, full, isDir: false };
  }
}

/**
 * Adds one entry, its bytes streamed from `source`; resolves once they are in the tar, rejects if
 * the file cannot be read or the tar stops (its output failed): then `source` is closed.
 */
function entryDone(pack: Pack, header: Partial<Header> & { name: string }, source?: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      pack.off("close", stopped);
      source?.destroy();
      reject(error);
    };
    const stopped = () =>
      fail(new BackupError("L'écriture de la base sauvegardée s'est arrêtée avant la fin du dossier."));
    if (pack.destroyed) return stopped();
    pack.once("close", stopped);
    const entry = pack.entry(header, (error) => {
      if (error) return fail(error);
      pack.off("close", stopped);
      resolve();
    });
    if (source) {
      source.on("error", (error) => {
        entry.destroy(error);
        fail(error);
      });
      source.pipe(entry);
    }
  });
}

/**
 * Unpacks a tar (already gunzipped) into `dir`: folders 0700, files 0600. A name that would land
 * outside `dir` (an absolute path is read as relative, as PGlite does; `..` is refused) stops it, and
 * so does `source` failing or closing before its end (a truncated archive).
 */
export async function unpackTar(source: Readable, dir: string): Promise<void> {
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const extract = tarExtract();
  // A source that fails or closes midway, or the extractor's own error, ends the unpacking at once:
  // the entry being written (a tar-stream stream, not a Node one) may already be destroyed with the
  // extractor, and a pipeline from it would then wait forever (seen on Node 22). So each file's
  // pipeline is raced against that failure.
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  let failure: Error | null = null;
  const stop = (error: Error) => {
    failure ??= error;
    fail(failure);
    if (!extract.destroyed) extract.destroy(failure);
  };
  extract.on("error", stop);
  finished(source, (error) => {
    if (error) stop(new BackupError(`Lecture de la base sauvegardée interrompue : ${error.message}`));
  });
  let output: WriteStream | null = null;
  source.pipe(extract);
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const relative = header.name.replace(/^(\.?\/)+/, "");
      const target = path.resolve(root, relative);
      if (relative === "" || relative === ".") {
        entry.resume();
        continue;
      }
      if (!target.startsWith(`${root}${path.sep}`))
        throw new BackupError(`Chemin refusé dans la base sauvegardée : ${header.name}`);
      if (header.type === "directory") {
        await mkdir(target, { recursive: true, mode: 0o700 });
        entry.resume();
      } else if (header.type === "file" || header.type === "contiguous-file") {
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        if (failure) throw failure;
        output = createWriteStream(target, { flags: "wx", mode: 0o600 });
        await Promise.race([pipeline(entry, output), failed]);
        output = null;
      } else entry.resume();
    }
  } catch (error) {
    output?.destroy();
    source.unpipe(extract);
    source.destroy();
    extract.destroy();
    throw error;
  }
}
