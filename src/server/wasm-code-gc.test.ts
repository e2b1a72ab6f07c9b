import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { wasmCodeGcFlags } from "./wasm-code-gc";

const run = promisify(execFile);

/**
 * A process that creates and closes six embedded databases, as a test worker or a restarted server
 * does, with V8 telling each WebAssembly code GC it runs (`--trace-wasm-code-gc`); `flags` set at run
 * time first, as avoidWasmCodeGcCrash does.
 */
async function codeGcTrace(flags: string[]): Promise<string> {
  const script = `
    import { setFlagsFromString } from "node:v8";
    for (const flag of ${JSON.stringify(flags)}) setFlagsFromString(flag);
    const { PGlite } = await import("@electric-sql/pglite");
    for (let i = 0; i < 6; i++) {
      const db = new PGlite();
      await db.query("select 1");
      await db.close();
      globalThis.gc();
    }`;
  const { stdout, stderr } = await run(
    process.execPath,
    ["--expose-gc", "--trace-wasm-code-gc", "--input-type=module", "-e", script],
    { cwd: process.cwd(), timeout: 120_000 },
  );
  return stdout + stderr;
}

describe("WebAssembly code GC on Node 24 (ADR 090)", () => {
  it("is switched off on Node 24 only", () => {
    expect(wasmCodeGcFlags("24.21.0")).toEqual(["--no-wasm-code-gc"]);
    expect(wasmCodeGcFlags("24.0.0")).toEqual(["--no-wasm-code-gc"]);
    expect(wasmCodeGcFlags("22.13.0")).toEqual([]);
    expect(wasmCodeGcFlags("20.20.2")).toEqual([]);
    expect(wasmCodeGcFlags("26.1.0")).toEqual([]);
  });

  it("stays off when the flag is set at run time, where the embedded database frees dead code otherwise", async () => {
    const [freed, kept] = await Promise.all([codeGcTrace([]), codeGcTrace(wasmCodeGcFlags("24.0.0"))]);
    // Without the flag, V8 frees the dead code of the closed databases: this test can fail.
    expect(freed).toMatch(/\[wasm-gc\] Freeing \d+ code objects/);
    expect(kept).not.toContain("[wasm-gc]");
    // Two processes of six databases each: 13 to 18 s on CI; the children's own limit, not the 60 s.
  }, 150_000);
});
