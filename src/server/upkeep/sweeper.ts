import { sql } from "kysely";
import { FILE_KEY_COLUMNS } from "../db/file-keys";
import type { Db } from "../db/index";
import type { Storage } from "../storage/storage";

export interface SweepOptions {
  /** A stored file no row refers to is removed once older than this (uploads insert their row after). */
  minAgeMs?: number;
  /**
   * An unfinished `.part` file is removed once untouched for this long: an upload in progress
   * writes to it all the time, so an old one was left by a crash or a killed process.
   */
  partMinAgeMs?: number;
  now?: Date;
}

export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
export const PART_MIN_AGE_MS = 5 * 60 * 1000;

const PART = ".part";

/**
 * Removes stored files that no row refers to (a crash between writing a file and inserting its
 * row, or between deleting a row and its file), once older than `minAgeMs` so that uploads in
 * progress are never touched, and unfinished `.part` files untouched for `partMinAgeMs`. The rows
 * are those of FILE_KEY_COLUMNS (db/file-keys.ts). Returns how many files it removed.
 */
export async function sweepOrphanFiles(
  db: Db,
  storage: Storage,
  options: SweepOptions = {},
): Promise<number> {
  const now = (options.now ?? new Date()).getTime();
  const cutoff = now - (options.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  const partCutoff = now - (options.partMinAgeMs ?? PART_MIN_AGE_MS);
  const candidates: string[] = [];
  const parts: string[] = [];
  for await (const { key, modifiedAt } of storage.list()) {
    if (key.endsWith(PART)) {
      if (modifiedAt.getTime() < partCutoff) parts.push(key);
    } else if (modifiedAt.getTime() < cutoff) candidates.push(key);
  }
  const referenced = new Set<string>();
  for (let i = 0; i < candidates.length; i += 500) {
    const batch = candidates.slice(i, i + 500);
    const found = await Promise.all(
      FILE_KEY_COLUMNS.map(async ({ table, column, prefix = "" }) => {
        const values = sql.join(batch.map((key) => `${prefix}${key}`));
        const { rows } = await sql<{ key: string | null }>`
          select ${sql.ref(column)} as key from ${sql.table(table)} where ${sql.ref(column)} in (${values})
        `.execute(db);
        return rows.flatMap((row) => (row.key?.startsWith(prefix) ? [row.key.slice(prefix.length)] : []));
      }),
    );
    for (const key of found.flat()) referenced.add(key);
  }
  let removed = 0;
  for (const key of [...parts, ...candidates.filter((k) => !referenced.has(k))]) {
    try {
      await storage.remove(key);
      removed += 1;
    } catch {
      // Not one of our keys (a stray file): left alone.
    }
  }
  return removed;
}
