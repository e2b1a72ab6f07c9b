// npm run restore -- FILE: an archive of npm run backup into an empty place (ADR 047).

import { statSync, writeFileSync } from "node:fs";
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
 * restored rows with the manifest. The embedded setup gets its DATA_DIR/data-key from DATA_KEY,
 * and its DATA_DIR/auth-secret from AUTH_SECRET when given (ADR 098).
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
  // The session secret plays no part in the restore itself: none is generated in DATA_DIR for it.
  // Given, it is the embedded setup's DATA_DIR/auth-secret (the two-step sign-in keys need it).
  const authSecret = process.env.AUTH_SECRET?.trim();
  const config = loadConfig({
    ...process.env,
    AUTH_SECRET: authSecret || "restore-only-restore-only-restore-only",
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
      if (authSecret) writeFileSync(path.join(config.dataDir, "auth-secret"), authSecret, { mode: 0o600 });
      await closeTree(config.dataDir);
    }
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Restauration terminée depuis ${file} (${humanSize(statSync(file).size)}, sauvegarde du ${manifest.created_at}) : base ${config.databaseUrl ? "PostgreSQL" : `embarquée dans ${target && "pgliteDir" in target ? target.pgliteDir : ""}`} au niveau ${manifest.database.migration} (${rows} lignes, comptes conformes au manifeste), ${manifest.files.length} fichier(s) vérifié(s) par SHA-256.`,
    );
    // Their authenticator keys and recovery codes are encrypted with AUTH_SECRET (ADR 098).
    const twoFactor = manifest.database.tables.two_factors ?? 0;
    if (twoFactor > 0)
      console.log(
        config.databaseUrl
          ? `${twoFactor} compte(s) ont la double authentification : démarrez les instances avec l'AUTH_SECRET du jour de la sauvegarde, sinon ils ne pourront plus se connecter.`
          : authSecret
            ? `${twoFactor} compte(s) ont la double authentification : AUTH_SECRET est écrit dans ${path.join(config.dataDir, "auth-secret")}.`
            : `${twoFactor} compte(s) ont la double authentification : sans l'AUTH_SECRET du jour de la sauvegarde (le contenu de DATA_DIR/auth-secret de l'installation sauvegardée), ils ne pourront plus se connecter. Écrivez-le dans ${path.join(config.dataDir, "auth-secret")} avant de démarrer.`,
      );
    return 0;
  });
}

runCommand(main, "La restauration a échoué");
