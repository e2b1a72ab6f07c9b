import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./server-build.mjs";

const root = path.resolve(import.meta.dirname, "../..");
// Inside the repository: the compiled modules resolve their npm packages from node_modules.
mkdirSync(path.join(root, ".tmp"), { recursive: true });
const outDir = mkdtempSync(path.join(root, ".tmp", "server-build-"));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

describe("server build (npm run build → dist/server)", () => {
  beforeAll(async () => {
    expect(await buildServer({ quiet: true, outDir })).toBe(true);
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("emits the server and shared modules in src/'s layout, with the files read next to them, and no test code", () => {
    const files = walk(outDir).map((f) => path.relative(outDir, f).split(path.sep).join("/"));
    expect(files).toContain("server/server.js");
    expect(files).toContain("server/app.js");
    expect(files).toContain("server/db/migrations/index.js");
    expect(files).toContain("server/modules/reading/ocr-worker.cjs");
    expect(files).toContain("server/modules/reading/lstm-data.cjs");
    expect(files.some((f) => f.startsWith("shared/"))).toBe(true);
    expect(files.filter((f) => /\.test\.|\/testing\/|\.ts$/.test(f))).toEqual([]);
  });

  it("rewrites every relative import to a file that exists (Node's ESM loader needs the extension)", () => {
    const modules = walk(outDir).filter((f) => f.endsWith(".js"));
    const missing: string[] = [];
    let relative = 0;
    for (const file of modules) {
      const code = readFileSync(file, "utf8");
      for (const match of code.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]*)"/g)) {
        relative++;
        const specifier = match[1] ?? "";
        if (!existsSync(path.resolve(path.dirname(file), specifier)))
          missing.push(`${path.relative(outDir, file)} → ${specifier}`);
      }
    }
    expect(relative).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it("loads with plain node, without tsx", () => {
    const app = path.join(outDir, "server/app.js");
    const run = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(app)}); console.log(typeof m.buildApp);`,
      ],
      { cwd: root, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("function");
  });
});
