import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { compiledEntries } from "../../testing/compiled-entries";
import { devisPdf, makeDevis } from "../../testing/devis-corpus";

/**
 * pdf.js's legacy build replaces `Array.prototype.push`, `JSON.stringify` and `JSON.parse` for the
 * whole process on Node 20 (its core-js; ADR 067): loadPdfJs puts them back. Checked in a fresh
 * process (this worker's built-ins may have met pdf.js already), with a devis opened and its text read,
 * so that pdf.js's worker module has run too.
 */

const dir = mkdtempSync(path.join(tmpdir(), "sourio-pdfjs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-ins after pdf.js (through `how`) has read a devis in a new process, and what it read. */
async function afterPdfJs(how: "loadPdfJs" | "direct") {
  const entry = await compiledEntries();
  const file = path.join(dir, "devis.pdf");
  writeFileSync(file, await devisPdf(makeDevis(4)));
  const loader = pathToFileURL(entry("src/server/modules/reading/pdfjs.ts")).href;
  const script = `
    import { readFileSync } from "node:fs";
    const own = [Array.prototype.push, JSON.stringify, JSON.parse];
    const pdfjs = ${how === "loadPdfJs" ? `await (await import(${JSON.stringify(loader)})).loadPdfJs()` : `await import("pdfjs-dist/legacy/build/pdf.mjs")`};
    const doc = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(${JSON.stringify(file)})), verbosity: 0 }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((item) => item.str ?? "").join(" ");
    await doc.destroy();
    const now = [Array.prototype.push, JSON.stringify, JSON.parse];
    process.stdout.write(JSON.stringify({ kept: now.map((f, i) => f === own[i]), text }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: path.resolve(import.meta.dirname, "../../../.."),
  });
  return JSON.parse(stdout) as { kept: boolean[]; text: string };
}

describe("loadPdfJs", () => {
  it("leaves the process its own push, JSON.stringify and JSON.parse once a devis is read", async () => {
    const { kept, text } = await afterPdfJs("loadPdfJs");
    expect(kept).toEqual([true, true, true]);
    expect(text).toContain(makeDevis(4).lines[0]?.code);
  });

  // What the check above would see without loadPdfJs: on Node 20, pdf.js's replacements; Node 22 and
  // 24 have what core-js wants and keep their own.
  it("sees pdf.js imported directly replace them on Node 20 (the check itself)", async () => {
    const { kept } = await afterPdfJs("direct");
    const major = Number(process.versions.node.split(".")[0]);
    expect(kept).toEqual(major < 22 ? [false, false, false] : [true, true, true]);
  });
});
