import { format } from "node:util";
import { afterEach, beforeEach, vi } from "vitest";

// A test fails when something logs an error it did not announce: a React warning (a missing key, an
// update outside act, a bad prop), an error caught by a boundary, a rejected promise a component
// logs. Such a log is a defect the screen may hide today and show tomorrow (ADR 028). The server's
// tests load this file too (vitest.config.ts): their code logs through pino, never console.error.

let allowed: RegExp[] = [];
let unexpected: string[] = [];

/**
 * Announces that this test makes the code log an error matching `pattern` (and only this test):
 * those lines are then neither printed nor failures. Every other error still fails the test.
 */
export function allowConsoleError(pattern: RegExp | string): void {
  allowed.push(
    typeof pattern === "string" ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : pattern,
  );
}

let spy: { mockRestore(): void } | undefined;

beforeEach(() => {
  allowed = [];
  unexpected = [];
  const original = console.error.bind(console);
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    const line = format(...args);
    if (allowed.some((pattern) => pattern.test(line))) return;
    unexpected.push(line);
    original(...args);
  });
});

afterEach(() => {
  // Restored here too for the suites whose setup does not restore every mock (the server's).
  spy?.mockRestore();
  spy = undefined;
  const lines = unexpected;
  unexpected = [];
  allowed = [];
  if (lines.length > 0) {
    throw new Error(
      `console.error appelé pendant le test (${lines.length} fois) ; corrigez la cause, ou annoncez-le avec allowConsoleError() :\n${lines
        .map((line) => line.split("\n").slice(0, 6).join("\n"))
        .join("\n---\n")}`,
    );
  }
});
