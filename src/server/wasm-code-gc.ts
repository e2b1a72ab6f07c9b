import { setFlagsFromString } from "node:v8";

/**
 * V8's flags that keep a process on this Node clear of its WebAssembly code-GC crash (ADR 090).
 *
 * Node 24's V8 aborts now and then (« Check failed: jit_page_->allocations_.erase(addr) == 1 »,
 * nodejs/node#66366) when it frees WebAssembly code found dead: PGlite's engine, pdf.js' and the OCR's
 * WebAssembly, created and dropped in one process, are what meets it. The fix is in V8 upstream, not
 * yet in a Node 24 release; Node 22 and 26 are not affected. With `--no-wasm-code-gc` the dead code
 * is never freed, which is where the check fails: it stays until its module is dropped as a whole.
 */
export function wasmCodeGcFlags(nodeVersion: string = process.versions.node): string[] {
  return nodeVersion.split(".")[0] === "24" ? ["--no-wasm-code-gc"] : [];
}

/**
 * Sets {@link wasmCodeGcFlags} in this process (V8 reads the flag when code becomes dead, so it holds
 * from now on); called first by the server's entry and by each test file's setup. A forked process
 * gets them on its command line (the reading's child).
 */
export function avoidWasmCodeGcCrash(): void {
  for (const flag of wasmCodeGcFlags()) setFlagsFromString(flag);
}
