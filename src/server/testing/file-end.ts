/**
 * Work to do when the current test file ends (src/server/testing/setup.ts runs it in an afterAll
 * of every file), registered by shared test modules such as the harness: with modules shared
 * between the files of a worker (ADR 032), their own top-level hooks would run for one file only.
 */
const pending: Array<() => Promise<void> | void> = [];

export function atFileEnd(work: () => Promise<void> | void): void {
  pending.push(work);
}

export async function runFileEnd(): Promise<void> {
  for (const work of pending.splice(0)) await work();
}
