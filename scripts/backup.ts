// npm run backup -- FILE: one archive of everything Sourio needs to come back (ADR 047).
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { snapshotEmbedded } from "../src/server/backup/archive";
import { BackupError } from "../src/server/backup/errors";
import { type AppConfig, loadConfig } from "../src/server/config";
import { closeTree } from "../src/server/files/private-dir";
import type { Storage } from "../src/server/storage/storage";
import { archiveArgument, runCommand, withRawStore } from "./lib/backup-command";

/**
 * With the server's own settings (DATA_DIR or DATABASE_URL, S3_*, DATA_KEY):
 * - the database in one snapshot: PostgreSQL by pg_dump (on the PATH); the embedded one by the
 *   running server (POST /internal/backup, local and token-guarded: DATA_DIR/backup-endpoint.json),
 *   or directly when no server runs on this DATA_DIR;
 * - the files as stored, still encrypted; the manifest last. The archive is created 0600 and
 *   never overwrites a file.
 */
async function main(): Promise<number> {
  const file = archiveArgument();
  if (!file) {
    console.error("Usage : npm run backup -- /chemin/sauvegarde-sourio.zip");
    return 2;
  }
  if (existsSync(file)) {
    console.error(
      `${file} existe déjà : choisissez un autre nom (une sauvegarde n'en écrase jamais une autre).`,
    );
    return 1;
  }
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
  return withRawStore(config, (store) => backUp(config, file, store));
}

async function backUp(config: AppConfig, file: string, store: Storage): Promise<number> {
  // The archive's and the database's modules once the arguments and the configuration are good: a
  // refusal does not pay for their import (ADR 054).
  const [
    {
      BACKUP_ENDPOINT,
      filesUnderOtherKeys,
      humanSize,
      snapshotEmbedded,
      snapshotPostgres,
      workDir,
      writeBackup,
    },
    { openDatabase },
  ] = await Promise.all([import("../src/server/backup/archive"), import("../src/server/db/index")]);
  const work = await workDir();
  let dumpFile = path.join(work.dir, "database.dump");
  try {
    let snapshot: Awaited<ReturnType<typeof snapshotEmbedded>>;
    const kind = config.databaseUrl ? "postgres" : "pglite";
    if (config.databaseUrl) {
      const database = openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1 });
      try {
        snapshot = await snapshotPostgres(database, config.databaseUrl, dumpFile);
      } finally {
        await database.close();
      }
    } else {
      const running = runningServer(path.join(config.dataDir, BACKUP_ENDPOINT));
      if (running) {
        const answer = await fetch(`${running.url}/internal/backup`, {
          method: "POST",
          headers: { authorization: `Bearer ${running.token}` },
        });
        const body = (await answer.json()) as {
          file: string;
          snapshot: typeof snapshot;
          error?: { message: string };
        };
        if (!answer.ok)
          throw new BackupError(`Le serveur en marche a refusé : ${body.error?.message ?? answer.status}`);
        dumpFile = body.file;
        snapshot = body.snapshot;
        console.log(`Base embarquée : instantané pris par le serveur en marche (pid ${running.pid}).`);
      } else {
        const pgliteDir = path.join(config.dataDir, "pglite");
        if (!existsSync(pgliteDir)) throw new BackupError(`Aucune base embarquée dans ${config.dataDir}.`);
        const database = openDatabase({ pgliteDir });
        try {
          snapshot = await snapshotEmbedded(database, dumpFile);
        } finally {
          await database.close();
          await closeTree(pgliteDir);
        }
      }
    }
    const { bytes, manifest } = await writeBackup({
      file,
      databaseKind: kind,
      dumpFile,
      snapshot,
      store,
      currentKey: config.dataKeys[0] as Buffer,
      sourioVersion: packageVersion(),
    });
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Sauvegarde écrite dans ${file} (${humanSize(bytes)}) : base ${kind === "pglite" ? "embarquée" : "PostgreSQL"} au niveau ${manifest.database.migration} (${rows} lignes dans ${Object.keys(manifest.database.tables).length} tables), ${manifest.files.length} fichier(s) chiffré(s).`,
    );
    if (!process.env.DATA_KEY?.trim())
      console.log(
        `La clé des fichiers n'est pas dans l'archive : gardez à part ${path.join(config.dataDir, "data-key")} ; la restauration la demandera dans DATA_KEY.`,
      );
    // Two-step sign-in keys are encrypted with AUTH_SECRET, which no archive holds (ADR 098).
    const twoFactor = manifest.database.tables.two_factors ?? 0;
    if (twoFactor > 0 && !process.env.AUTH_SECRET?.trim())
      console.log(
        `${twoFactor} compte(s) ont la double authentification, chiffrée avec le secret de ${path.join(config.dataDir, "auth-secret")} qui n'est pas dans l'archive : gardez-le à part, la restauration le demandera dans AUTH_SECRET.`,
      );
    const previous = filesUnderOtherKeys(manifest.file_keys ?? {}, config.dataKeys);
    if (previous > 0)
      console.log(
        `${previous} fichier(s) sont encore chiffrés avec une clé précédente : gardez-la avec la clé en service, la restauration la demandera dans DATA_KEY_PREVIOUS (npm run rotate-key les rechiffre avec la clé en service).`,
      );
    return 0;
  } finally {
    if (dumpFile.startsWith(path.join(config.dataDir, "backup-work"))) await rm(dumpFile, { force: true });
    await work.done();
  }
}

/** The server running on this DATA_DIR (its endpoint file, its process alive), or null. */
function runningServer(endpoint: string): { pid: number; url: string; token: string } | null {
  if (!existsSync(endpoint)) return null;
  const found = JSON.parse(readFileSync(endpoint, "utf8")) as { pid: number; url: string; token: string };
  try {
    process.kill(found.pid, 0);
    return found;
  } catch {
    return null;
  }
}

function packageVersion(): string {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")).version;
}

runCommand(main, "La sauvegarde a échoué");
