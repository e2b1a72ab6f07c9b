// npm run rotate-key — re-wraps every stored file's data key with the current master key.
import path from "node:path";
import { ConfigError, loadConfig } from "../src/server/config";
import { KEY_FILE, newMasterKey, readKeyFile, writeKeyFile } from "../src/server/config/data-key";
import { setPrivateUmask } from "../src/server/files/private-dir";
import { EncryptedStorage } from "../src/server/storage/encrypted";
import { keyringOf } from "../src/server/storage/keyring";
import { S3Storage } from "../src/server/storage/s3";
import { LocalStorage } from "../src/server/storage/storage";
import { rewrapAll } from "../src/server/upkeep/at-rest";

/**
 * Two ways (docs/privacy.md, « Rotation de la clé ») :
 * - DATA_KEY set (production): DATA_KEY is the new key, DATA_KEY_PREVIOUS the old one(s); every
 *   file is re-wrapped with DATA_KEY, after which DATA_KEY_PREVIOUS can be removed.
 * - Embedded setup (DATA_DIR/data-key): a new key is added in front of the file, every file is
 *   re-wrapped with it, then the old keys are dropped from the file.
 * Files are not encrypted again: only their 72-byte header changes. Safe to run again after a stop.
 * The embedded app is stopped while it runs (it only knows the keys it started with).
 * The files are wherever the configuration puts them, as for the app: the S3_* bucket, listed
 * through the store (an object is rewritten whole, streamed, and replaced only once complete), or
 * the local folder (the header changed in place).
 */
async function main(): Promise<number> {
  setPrivateUmask();
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
  const embedded = !process.env.DATA_KEY?.trim();
  const keyFile = path.join(config.dataDir, KEY_FILE);
  let keys = config.dataKeys;
  if (embedded) {
    const fresh = newMasterKey();
    writeKeyFile(config.dataDir, [fresh, ...readKeyFile(keyFile).map((k) => k.toString("base64url"))]);
    keys = readKeyFile(keyFile);
  }
  const bucket = config.s3 ? new S3Storage(config.s3) : null;
  const storage = new EncryptedStorage(
    bucket ?? new LocalStorage(path.join(config.dataDir, "files")),
    keyringOf(keys),
  );
  let counts: Awaited<ReturnType<typeof rewrapAll>>;
  try {
    counts = await rewrapAll(storage);
  } finally {
    bucket?.close();
  }
  const { rewrapped, unchanged } = counts;
  if (embedded) writeKeyFile(config.dataDir, [(keys[0] as Buffer).toString("base64url")]);
  console.log(
    `Clé de chiffrement : ${rewrapped} fichier(s) ré-emballé(s) avec la clé actuelle, ${unchanged} l'étaient déjà.`,
  );
  if (embedded) console.log(`Nouvelle clé écrite dans ${keyFile} ; les anciennes en sont retirées.`);
  else console.log("Vous pouvez maintenant retirer DATA_KEY_PREVIOUS de la configuration.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : `Échec : ${(error as Error).message}`);
    process.exit(1);
  },
);
