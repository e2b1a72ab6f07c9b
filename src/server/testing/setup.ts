import { afterAll } from "vitest";
import { runFileEnd } from "./file-end";

// The server project's setup, run before each test file. The project shares its modules between the
// files of a worker (vitest.config.ts, ADR 032): what must happen once per file is registered here,
// since a hook at the top of a shared module would be registered for the first file only.
afterAll(runFileEnd);
