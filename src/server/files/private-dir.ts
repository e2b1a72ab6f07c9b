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

/**
 * The umask of the server and of the scripts (`npm start`, create-admin, rotate-key, backup, restore):
 * whatever they or a library create without an explicit mode is the service's account's only.
 */
export const PRIVATE_UMASK = 0o077;

export function setPrivateUmask(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * Closes a whole tree: folders 0700, files 0600 (links left as they are). For what a library
 * writes with modes of its own, ignoring the umask: the embedded database (PGlite) unpacks its
 * initial files 0666 and creates some 0644 (ADR 047); runtime.ts runs this on its folder after
 * opening it and again when it closes.
 */
export async function closeTree(dir: string): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  await chmod(dir, 0o700);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await closeTree(full);
    else if (entry.isFile()) await chmod(full, 0o600).catch(ignoreVanished);
  }
}

/** A file the database removed between the listing and the chmod (a temporary one) is no error. */
function ignoreVanished(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
