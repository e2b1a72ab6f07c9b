import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { type Header, type Pack, extract as tarExtract, pack as tarPack } from "tar-stream";
import { BackupError } from "./errors";

/**
 * The embedded database's data directory as a gzip'd tar, both ways as streams (ADR 047, addendum):
 * one file at a time passes through, in chunks, so memory stays flat whatever the database's size.
 * The tar is the one PGlite's own `dumpDataDir` writes and `loadDataDir` reads (ustar, paths relative
 * to the data directory): archives made before this module restore the same way.
 */

/** Writes `dir`'s tree as a gzip'd tar to `file` (created 0600, never over an existing file). */
export async function packDirectory(dir: string, file: string): Promise<void> {
  const pack = tarPack();
  const written = pipeline(pack, createGzip(), createWriteStream(file, { flags: "wx", mode: 0o600 }));
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

/** Adds one entry, its bytes streamed from `source`; resolves once they are in the tar. */
function entryDone(pack: Pack, header: Partial<Header> & { name: string }, source?: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    if (source) {
      source.on("error", (error) => {
        entry.destroy(error);
        reject(error);
      });
      source.pipe(entry);
    }
  });
}

/**
 * Unpacks a tar (already gunzipped) into `dir`: folders 0700, files 0600. A name that would land
 * outside `dir` (an absolute path is read as relative, as PGlite does; `..` is refused) stops it.
 */
export async function unpackTar(source: Readable, dir: string): Promise<void> {
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const extract = tarExtract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const relative = header.name.replace(/^(\.?\/)+/, "");
      const target = path.resolve(root, relative);
      if (relative === "" || relative === ".") {
        stream.resume();
        stream.on("end", () => next());
        return;
      }
      if (!target.startsWith(`${root}${path.sep}`)) {
        const error = new BackupError(`Chemin refusé dans la base sauvegardée : ${header.name}`);
        reject(error);
        // The entry's stream is destroyed with the extractor: the refusal is said once, above.
        stream.on("error", () => {});
        extract.destroy(error);
        return;
      }
      const written =
        header.type === "directory"
          ? mkdir(target, { recursive: true, mode: 0o700 }).then(() => {
              stream.resume();
            })
          : header.type === "file" || header.type === "contiguous-file"
            ? mkdir(path.dirname(target), { recursive: true, mode: 0o700 }).then(() =>
                pipeline(stream, createWriteStream(target, { flags: "wx", mode: 0o600 })),
              )
            : Promise.resolve(stream.resume()).then(() => undefined);
      written.then(
        () => next(),
        (error: Error) => {
          extract.destroy(error);
          reject(error);
        },
      );
    });
    extract.on("finish", () => resolve());
    extract.on("error", reject);
  });
  source.on("error", (error) => extract.destroy(error));
  source.pipe(extract);
  await done;
}
