// npm run restore -- FILE: an archive of npm run backup into an empty place (ADR 047).

import { statSync } from "node:fs";
import path from "node:path";
import { humanSize } from "../src/server/backup/archive";
import { restoreBackup } from "../src/server/backup/restore";
import { loadConfig } from "../src/server/config";
import { writeKeyFile } from "../src/server/config/data-key";
import { closeTree } from "../src/server/files/private-dir";
import { archiveArgument, runCommand, withRawStore } from "./lib/backup-command";

/**
 * With the settings of the server to be (DATA_DIR or DATABASE_URL, S3_*) and DATA_KEY, the files'
 * key of the day of the backup (required: nothing is guessed). Refuses a place that is not empty;
 * checks the key, the migration level and every digest before writing anything; compares the
 * restored rows with the manifest. The embedded setup gets its DATA_DIR/data-key from DATA_KEY.
 */
async function main(): Promise<number> {
  const file = archiveArgument();
  if (!file) {
    console.error("Usage : DATA_KEY=… npm run restore -- /chemin/sauvegarde-sourio.zip");
    return 2;
  }
  if (!process.env.DATA_KEY?.trim()) {
    console.error(
      "DATA_KEY est requis pour restaurer : la clé des fichiers du jour de la sauvegarde (en base embarquée, la première ligne de DATA_DIR/data-key de l'installation sauvegardée).",
    );
    return 1;
  }
  // The session secret plays no part in a restore: none is generated in DATA_DIR for it.
  const config = loadConfig({
    ...process.env,
    AUTH_SECRET: process.env.AUTH_SECRET?.trim() || "restore-only-restore-only-restore-only",
    ADMIN_EMAIL: "",
    ADMIN_PASSWORD: "",
  });
  return withRawStore(config, async (store) => {
    const target = config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: path.join(config.dataDir, "pglite") };
    const manifest = await restoreBackup({ file, keys: config.dataKeys, store, target });
    if (!config.databaseUrl) {
      writeKeyFile(
        config.dataDir,
        config.dataKeys.map((key) => key.toString("base64url")),
      );
      await closeTree(config.dataDir);
    }
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Restauration terminée depuis ${file} (${humanSize(statSync(file).size)}, sauvegarde du ${manifest.created_at}) : base ${config.databaseUrl ? "PostgreSQL" : `embarquée dans ${target && "pgliteDir" in target ? target.pgliteDir : ""}`} au niveau ${manifest.database.migration} (${rows} lignes, comptes conformes au manifeste), ${manifest.files.length} fichier(s) vérifié(s) par SHA-256.`,
    );
    return 0;
  });
}

runCommand(main, "La restauration a échoué");
