import path from "node:path";
import { type Auth, createAuth } from "./auth";
import type { AppConfig } from "./config";
import { type DatabaseHandle, migrateToLatest, openDatabase } from "./db/index";
import { closeTree } from "./files/private-dir";
import { createMailer } from "./mail/mailer";

/** Opens the configured database (PGlite under DATA_DIR, or PostgreSQL) and migrates it. */
export async function openMigratedDatabase(config: AppConfig): Promise<DatabaseHandle> {
  const pgliteDir = config.databaseUrl ? undefined : path.join(config.dataDir, "pglite");
  const database = openDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  if (!pgliteDir) return database;
  // PGlite writes its files with modes of its own (0666 when it unpacks a new database), whatever
  // the umask: closed once open, and again when it closes (ADR 047).
  await closeTree(pgliteDir);
  return {
    ...database,
    close: async () => {
      await database.close();
      await closeTree(pgliteDir);
    },
  };
}

/** Auth bound to a database, for command-line tools that run outside the HTTP server. */
export function standaloneAuth(config: AppConfig, database: DatabaseHandle): Auth {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, "outbox"),
    logger: { info: () => {} },
  });
  return createAuth({ db: database.db, config, mailer });
}
