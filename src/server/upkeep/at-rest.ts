import { sql } from "kysely";
import type { Db } from "../db/index";
import { hasRow } from "../db/queries";
import type { EncryptedStorage } from "../storage/encrypted";

const JOB = "encrypt-files";

/**
 * Files stored in clear by a version before encryption at rest are encrypted once, at start-up,
 * before the app listens (a clear file can no longer be read). A finished run is recorded in
 * `job_runs`, so later starts skip the listing; the run itself is idempotent (an encrypted file is
 * recognised by its header), so a run stopped half-way is simply done again.
 */
export async function encryptClearFiles(db: Db, storage: EncryptedStorage): Promise<number | null> {
  const finishedRun = db
    .selectFrom("job_runs")
    .select("job")
    .where("job", "=", JOB)
    .where("finished_at", "is not", null);
  if (await hasRow(finishedRun)) return null;
  let encrypted = 0;
  for await (const { key } of storage.list()) {
    if (key.endsWith(".part")) continue;
    if (await storage.encryptInPlace(key)) encrypted += 1;
  }
  await db
    .insertInto("job_runs")
    .values({
      job: JOB,
      run_on: sql<string>`current_date`,
      finished_at: sql<Date>`now()`,
      details: JSON.stringify({ encrypted }),
    })
    .onConflict((oc) => oc.columns(["job", "run_on"]).doUpdateSet({ finished_at: sql<Date>`now()` }))
    .execute();
  return encrypted;
}

/** Re-wraps every file's data key with the current master key (npm run rotate-key). */
export async function rewrapAll(
  storage: EncryptedStorage,
): Promise<{ rewrapped: number; unchanged: number }> {
  const counts = { rewrapped: 0, unchanged: 0 };
  for await (const { key } of storage.list()) {
    if (key.endsWith(".part")) continue;
    const outcome = await storage.rewrap(key);
    if (outcome === "clear") await storage.encryptInPlace(key);
    counts[outcome === "unchanged" ? "unchanged" : "rewrapped"] += 1;
  }
  return counts;
}
