import type { Db } from "../db/index";
import type { Storage } from "./storage";

/**
 * Removes stored files that no row refers to (a crash between writing a file and inserting its
 * row, or between deleting a row and its file) and unfinished `.part` files, once they are older
 * than `minAgeMs` so that uploads in progress are never touched. Returns how many it removed.
 */
export async function sweepOrphanFiles(db: Db, storage: Storage, minAgeMs = 60 * 60 * 1000): Promise<number> {
  const cutoff = Date.now() - minAgeMs;
  const candidates: string[] = [];
  for await (const { key, modifiedAt } of storage.list()) {
    if (modifiedAt.getTime() < cutoff) candidates.push(key);
  }
  if (candidates.length === 0) return 0;
  const referenced = new Set<string>();
  for (let i = 0; i < candidates.length; i += 500) {
    const batch = candidates.slice(i, i + 500).filter((k) => !k.endsWith(".part"));
    if (batch.length === 0) continue;
    const [documents, attachments, contact, avatars] = await Promise.all([
      db.selectFrom("documents").select("storage_key as key").where("storage_key", "in", batch).execute(),
      db
        .selectFrom("message_attachments")
        .select("storage_key as key")
        .where("storage_key", "in", batch)
        .execute(),
      db.selectFrom("contact_submissions").select("file_key as key").where("file_key", "in", batch).execute(),
      db
        .selectFrom("profiles")
        .select("avatar_url as key")
        .where(
          "avatar_url",
          "in",
          batch.map((k) => `/api/${k}`),
        )
        .execute(),
    ]);
    for (const row of [...documents, ...attachments, ...contact]) if (row.key) referenced.add(row.key);
    for (const row of avatars) if (row.key) referenced.add(row.key.replace(/^\/api\//, ""));
  }
  let removed = 0;
  for (const key of candidates) {
    if (referenced.has(key)) continue;
    try {
      await storage.remove(key);
      removed += 1;
    } catch {
      // Not one of our keys (a stray file): left alone.
    }
  }
  return removed;
}
