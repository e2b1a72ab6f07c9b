// The built client's text files compressed once at build time, next to them (`x.js.br`, `x.js.gz`):
// the server sends these as they are (@fastify/static's `preCompressed`, plugins/static.ts) instead of
// compressing each asset again for every visitor (ADR 069).
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text. Fonts (woff2), images and PDFs are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Under this size a compressed answer saves nothing (the server's own threshold, app.ts). */
export const MIN_SIZE = 1024;

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `file.br` (brotli at its best) and `file.gz` (gzip -9) beside each text file of `dir` of at
 * least MIN_SIZE bytes, except under the sub-folders named in `skip`; zlib's thread pool compresses
 * several at once. Returns the files compressed.
 */
export async function precompress(dir, { skip = [] } = {}) {
  const skipped = skip.map((folder) => path.join(dir, folder) + path.sep);
  const files = (await filesUnder(dir)).filter(
    (f) => COMPRESSIBLE.test(f) && !skipped.some((folder) => f.startsWith(folder)),
  );
  const done = [];
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_SIZE) return;
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gz(data, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
      done.push(file);
    }),
  );
  return done.sort();
}
