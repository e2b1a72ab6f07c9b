// What `npm run backup` and `npm run restore` share (ADR 047): the private umask, the archive named
// on the command line, the files' store as it keeps them, and how the command ends.
import path from "node:path";
import { BackupError } from "../../src/server/backup/errors";
import { type AppConfig, ConfigError } from "../../src/server/config";
import { setPrivateUmask } from "../../src/server/files/private-dir";
import type { S3Storage } from "../../src/server/storage/s3";
import { LocalStorage } from "../../src/server/storage/storage";

/** The archive given as `npm run x -- FILE`, made absolute; null when none is given. */
export function archiveArgument(args: readonly string[] = process.argv.slice(2)): string | null {
  const given = args.find((arg) => arg !== "--");
  return given ? path.resolve(given) : null;
}

/**
 * Runs `work` with the files' store as it keeps them (still encrypted: the bucket, or DATA_DIR/files,
 * never EncryptedStorage), closed afterwards.
 */
export async function withRawStore<T>(
  config: AppConfig,
  work: (store: LocalStorage | S3Storage) => Promise<T>,
): Promise<T> {
  // The S3 client's modules only for a bucket.
  const s3 = config.s3 ? new (await import("../../src/server/storage/s3")).S3Storage(config.s3) : null;
  try {
    return await work(s3 ?? new LocalStorage(path.join(config.dataDir, "files")));
  } finally {
    s3?.close();
  }
}

/**
 * Runs a command under umask 077 and exits with its code. A refusal (ConfigError, BackupError) is
 * its own French message; anything else is said after `failure` ("La sauvegarde a échoué").
 */
export function runCommand(main: () => Promise<number>, failure: string): void {
  setPrivateUmask();
  main().then(
    (code) => process.exit(code),
    (error) => {
      if (error instanceof ConfigError || error instanceof BackupError) console.error(error.message);
      else console.error(`${failure} : ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
