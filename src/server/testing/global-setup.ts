import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's folder of the migrated template database (harness.ts), built there by the first worker. */
    templateDir: string;
  }
}

/**
 * One folder per run for the migrated template database (ADR 054): the first worker that needs it
 * builds it there, the others (and the `alone` project's files) read it, instead of every worker
 * building its own. Nothing else is imported here: the main process stays as it was. Both server
 * projects register this file; the first one creates the folder, the other reuses it. A folder given
 * from outside (`npm test` gives its two vitest runs the same one, ADR 054's addendum) is left to
 * whoever gave it.
 */
export default function setup(project: TestProject): () => void {
  const given = process.env.SOURIO_TEST_TEMPLATE_DIR;
  const dir = given ?? mkdtempSync(path.join(tmpdir(), "sourio-template-"));
  process.env.SOURIO_TEST_TEMPLATE_DIR = dir;
  project.provide("templateDir", dir);
  return () => {
    if (given) return;
    delete process.env.SOURIO_TEST_TEMPLATE_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
