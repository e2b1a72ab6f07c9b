import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const WORKER = require.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs");
const PDFJS_DIR = path.dirname(require.resolve("pdfjs-dist/package.json"));

export type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

/** A folder of pdfjs-dist (standard_fonts, cmaps, wasm, iccs) as pdf.js wants it: ending with a separator. */
export const pdfjsFolder = (name: string) => `${path.join(PDFJS_DIR, name)}${path.sep}`;

/**
 * The canvas pdf.js itself uses (its own @napi-rs/canvas, possibly another copy than ours): pdf.js draws
 * glyphs with that copy's Path2D, which another copy's context refuses.
 */
export const { createCanvas: createPdfjsCanvas } = createRequire(
  require.resolve("pdfjs-dist/legacy/build/pdf.mjs"),
)("@napi-rs/canvas") as typeof import("@napi-rs/canvas");

/**
 * The built-ins pdf.js's legacy build replaces for the whole process where the runtime is older than
 * it wants. Its bundled core-js, loaded on Node 20 (V8 11.3), swaps `Array.prototype.push` for a
 * JavaScript polyfill (V8 ≤ 12.1 throws another error than the specification's on an array whose length
 * is frozen) and `JSON.stringify` and `JSON.parse` for wrappers (for `JSON.rawJSON`, which pdf.js does
 * not use): every push and every stringify of the process then ran 6 to 9 times slower, the server's
 * and the database driver's included (ADR 067). Node 22 and 24 keep their own; pdf.js needs none of
 * the replacements, and keeps what core-js adds where it is missing (`Promise.withResolvers`, the
 * iterator helpers, `Uint8Array`'s base64…).
 */
const KEPT: ReadonlyArray<readonly [object, PropertyKey]> = [
  [Array.prototype, "push"],
  [JSON, "stringify"],
  [JSON, "parse"],
];

let loading: Promise<PdfJs> | null = null;

/**
 * pdf.js, loaded once per process with its worker's module (pdf.js runs its "fake worker" in this
 * process: it takes the module from `globalThis.pdfjsWorker` rather than importing it at the first
 * document), then the built-ins of KEPT put back as they were before. Every use of pdf.js goes
 * through here.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const before = KEPT.map(([owner, key]) => Object.getOwnPropertyDescriptor(owner, key));
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    await import(pathToFileURL(WORKER).href);
    KEPT.forEach(([owner, key], i) => {
      const descriptor = before[i];
      if (descriptor) Object.defineProperty(owner, key, descriptor);
    });
    pdfjs.GlobalWorkerOptions.workerSrc ||= WORKER;
    return pdfjs;
  })();
  return loading;
}
