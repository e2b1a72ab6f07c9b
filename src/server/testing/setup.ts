import { afterAll } from "vitest";
import { reusePasswordWorkInTests } from "../password-hasher";
import { avoidWasmCodeGcCrash } from "../wasm-code-gc";
import { glyphsInSinglePrecision } from "./devis-corpus/photo";
import { runFileEnd } from "./file-end";

// The server project's setup, run before each test file. The project shares its modules between the
// files of a worker (vitest.config.ts, ADR 032): what must happen once per file is registered here,
// since a hook at the top of a shared module would be registered for the first file only.
afterAll(runFileEnd);

// Each file's PGlite, and the reading's WebAssembly, on Node 24: no WebAssembly code GC, where its V8
// aborts the worker now and then (ADR 090). Set before the worker's first file opens a database.
avoidWasmCodeGcCrash();

// The generated devis drawn alike on every runtime: pdf.js's glyphs in single precision, decided before
// any file of the worker draws one (devis-corpus/photo.ts, ADR 065).
glyphsInSinglePrecision();

// scrypt's answer for a password already hashed or checked in this process, reused (ADR 062).
reusePasswordWorkInTests();
