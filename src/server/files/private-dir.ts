import { chmod, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * DATA_DIR holds patients' files, the embedded database, the generated secret and the outbox
 * (reset links): only the service's account may read it. New folders are created 0700 and files
 * 0600 where they are written; this closes the folders an older version created 0755, at start-up:
 * DATA_DIR itself and its direct sub-folders (a 0700 folder keeps everything under it private).
 */
export async function protectDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(dataDir, entry.name);
    await chmod(full, entry.isDirectory() ? 0o700 : 0o600);
  }
}
