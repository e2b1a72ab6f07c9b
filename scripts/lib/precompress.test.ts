import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { MIN_SIZE, precompress } from "./precompress.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "sourio-precompress-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (n: number) => `export const t = ${JSON.stringify("Sourio ".repeat(n))};\n`;

describe("precompress (the build's compressed copies, ADR 069)", () => {
  it("writes a brotli and a gzip copy beside each text file of 1 KB or more, each giving the file back", async () => {
    mkdirSync(path.join(dir, "assets"));
    mkdirSync(path.join(dir, "prerendered"));
    const files: Record<string, string | Buffer> = {
      "index.html": `<!doctype html><title>Sourio</title>${"<p>texte</p>".repeat(200)}`,
      "assets/entry-abc.js": text(2000),
      "assets/style-abc.css": `body{margin:0}${".c{color:#123456}".repeat(100)}`,
      "assets/tiny-abc.js": text(10),
      "assets/inter-abc.woff2": Buffer.alloc(5000, 7),
      "prerendered/faq.html": `<h1>FAQ</h1>${"<p>question</p>".repeat(200)}`,
    };
    for (const [name, data] of Object.entries(files)) writeFileSync(path.join(dir, name), data);
    expect(Buffer.byteLength(files["assets/tiny-abc.js"] as string)).toBeLessThan(MIN_SIZE);

    const done = await precompress(dir, { skip: ["prerendered"] });

    const compressed = ["assets/entry-abc.js", "assets/style-abc.css", "index.html"];
    expect(done.map((f) => path.relative(dir, f).split(path.sep).join("/"))).toEqual(compressed);
    for (const name of compressed) {
      const original = readFileSync(path.join(dir, name));
      const br = readFileSync(path.join(dir, `${name}.br`));
      const gz = readFileSync(path.join(dir, `${name}.gz`));
      expect(brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(gunzipSync(gz).equals(original), name).toBe(true);
      expect(br.length, name).toBeLessThan(original.length / 4);
    }
    // Too small to gain anything, compressed already, or completed by the server before it compresses.
    for (const name of ["assets/tiny-abc.js", "assets/inter-abc.woff2", "prerendered/faq.html"])
      for (const suffix of [".br", ".gz"])
        expect(existsSync(path.join(dir, name + suffix)), name).toBe(false);
  });
});
