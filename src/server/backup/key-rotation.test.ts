import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { ZipFile } from "yazl";
import { openDatabase } from "../db/index";
import { EncryptedStorage } from "../storage/encrypted";
import { keyringOf } from "../storage/keyring";
import { LocalStorage } from "../storage/storage";
import { migratedPgliteDir } from "../testing/harness";
import { tempDirs } from "../testing/temp-dirs";
import { filesUnderOtherKeys, type Manifest, snapshotEmbedded, workDir, writeBackup } from "./archive";
import { checkArchive, restoreBackup } from "./restore";

/**
 * A backup taken while a key rotation is under way (ADR 077): DATA_KEY is the new key, and files
 * written before the rotation are still wrapped with the old one, until `npm run rotate-key` has
 * re-wrapped them. The archive says which keys its files need; a restore given DATA_KEY alone refuses
 * before writing anything, instead of restoring files nobody can open.
 */
const tempDir = tempDirs();
const OLD = Buffer.alloc(32, 3);
const NEW = Buffer.alloc(32, 5);
const BEFORE = Buffer.from("radio d'avant la rotation");
const AFTER = Buffer.from("devis d'après la rotation");
const idOf = (key: Buffer) => keyringOf([key]).current.id.toString("hex");

let archive = "";
let manifest: Manifest;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  const dataDir = tempDir("sourio-rotation-source-");
  const pgliteDir = path.join(dataDir, "pglite");
  await migratedPgliteDir(pgliteDir);
  const raw = new LocalStorage(path.join(dataDir, "files"));
  // One file written under the old key, then DATA_KEY changed (the old one kept as previous).
  await new EncryptedStorage(raw, keyringOf([OLD])).write("avant.png", Readable.from([BEFORE]));
  await new EncryptedStorage(raw, keyringOf([NEW, OLD])).write("apres.pdf", Readable.from([AFTER]));

  const work = await workDir(tempDir("sourio-rotation-work-"));
  archive = path.join(tempDir("sourio-rotation-out-"), "sauvegarde.zip");
  const database = openDatabase({ pgliteDir });
  try {
    const dumpFile = path.join(work.dir, "dump");
    const snapshot = await snapshotEmbedded(database, dumpFile);
    ({ manifest } = await writeBackup({
      file: archive,
      databaseKind: "pglite",
      dumpFile,
      snapshot,
      store: raw,
      currentKey: NEW,
      sourioVersion: "test",
    }));
  } finally {
    await database.close();
    await work.done();
  }
}, 120_000);

afterAll(() => {
  archive = "";
});

describe("a backup taken during a key rotation", { timeout: 120_000 }, () => {
  it("lists the keys its files need, and how many files the previous key still wraps", () => {
    expect(manifest.file_keys).toEqual({ [idOf(OLD)]: 1, [idOf(NEW)]: 1 });
    expect(filesUnderOtherKeys(manifest.file_keys ?? {}, [NEW, OLD])).toBe(1);
    expect(filesUnderOtherKeys({ [idOf(NEW)]: 2 }, [NEW, OLD])).toBe(0);
  });

  const refusal =
    "1 fichier(s) de cette sauvegarde sont chiffrés avec une clé précédente qui n'est pas donnée : la rotation des clés (npm run rotate-key) n'était pas finie le jour de la sauvegarde. Donnez aussi la clé précédente dans DATA_KEY_PREVIOUS (rien n'a été écrit).";

  it("is not restored with DATA_KEY alone: refused before anything is written", async () => {
    await expect(checkArchive(archive, [NEW])).rejects.toThrow(refusal);
    const dataDir = tempDir("sourio-rotation-refused-");
    await expect(
      restoreBackup({
        file: archive,
        keys: [NEW],
        store: new LocalStorage(path.join(dataDir, "files")),
        target: { pgliteDir: path.join(dataDir, "pglite") },
      }),
    ).rejects.toThrow(refusal);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("reads the files' own headers when the manifest does not list their keys (an older archive)", async () => {
    // The same archive, its manifest without file_keys, as written before ADR 077.
    const older = path.join(tempDir("sourio-rotation-older-"), "ancienne.zip");
    const zip = new ZipFile();
    await new Promise<void>((resolve, reject) => {
      yauzl.open(archive, { lazyEntries: true }, (error, source) => {
        if (error || !source) return reject(error);
        source.on("entry", (entry: { fileName: string }) => {
          source.openReadStream(entry as never, async (failed, stream) => {
            if (failed || !stream) return reject(failed);
            const bytes = await readAll(stream);
            if (entry.fileName === "manifest.json") {
              const { file_keys: _, ...rest } = JSON.parse(bytes.toString("utf8")) as Manifest;
              zip.addBuffer(Buffer.from(JSON.stringify(rest)), entry.fileName);
            } else zip.addBuffer(bytes, entry.fileName);
            source.readEntry();
          });
        });
        source.on("end", () => resolve());
        source.readEntry();
      });
    });
    zip.end();
    await writeFile(older, await readAll(zip.outputStream));
    await expect(checkArchive(older, [NEW])).rejects.toThrow(refusal);
    expect((await checkArchive(older, [NEW, OLD])).file_keys).toBeUndefined();
  });

  it("is restored with DATA_KEY and DATA_KEY_PREVIOUS: both files come back, readable", async () => {
    const dataDir = tempDir("sourio-rotation-restored-");
    const raw = new LocalStorage(path.join(dataDir, "files"));
    const back = await restoreBackup({
      file: archive,
      keys: [NEW, OLD],
      store: raw,
      target: { pgliteDir: path.join(dataDir, "pglite") },
    });
    expect(back.file_keys).toEqual(manifest.file_keys);
    const storage = new EncryptedStorage(raw, keyringOf([NEW, OLD]));
    expect((await readAll(storage.read("avant.png"))).equals(BEFORE)).toBe(true);
    expect((await readAll(storage.read("apres.pdf"))).equals(AFTER)).toBe(true);
  });
});
