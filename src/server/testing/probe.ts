import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

/**
 * What the serving process went through while a hostile file was handled (issue 32): `/api/health`
 * probed every 50 ms, and the process's resident memory sampled at each probe. The same measure as
 * reading/hostile.test.ts, for the other routes that take a file.
 */
export interface Probed<T> {
  value: T;
  ms: number;
  probes: number[];
  rssGrowthMb: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** Runs `work` while probing `/api/health` on `app`; at least one probe is taken. */
export async function whileProbing<T>(app: FastifyInstance, work: () => Promise<T>): Promise<Probed<T>> {
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  const probes: number[] = [];
  let running = true;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const probing = (async () => {
    do {
      const started = performance.now();
      const response = await app.inject({ method: "GET", url: "/api/health" });
      probes.push(performance.now() - started);
      expect(response.statusCode).toBe(200);
      peak = Math.max(peak, process.memoryUsage.rss());
      await sleep(50);
    } while (running);
  })();
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    running = false;
  }
  const ms = performance.now() - started;
  await probing;
  clearInterval(sample);
  return { value, ms, probes, rssGrowthMb: (peak - rss0) / 2 ** 20 };
}

/** The fewest probes for which the p99 verdict is given (below, the slowest is judged: < 1 s). */
const P99_PROBES = 20;

/**
 * The server kept answering (none of the probes over 1 s and, from P99_PROBES probes on, their
 * p99 < 200 ms; below 101 probes the p99 is the slowest one) and grew by less than
 * 150 MB; the figures are printed in the test's output.
 */
export function expectServerUnaffected(name: string, measured: Probed<unknown>): void {
  const p99 = percentile(measured.probes, 99);
  const max = Math.max(...measured.probes);
  console.info(
    `${name}: ${Math.round(measured.ms)} ms; ${measured.probes.length} probes, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; server RSS +${measured.rssGrowthMb.toFixed(1)} MB`,
  );
  expect(measured.probes.length).toBeGreaterThan(0);
  // A refusal from the header takes a probe or two: one probe slowed by the machine (216 ms, once,
  // at load 14) is not the server busy with the file, which the probes of a long handling show.
  if (measured.probes.length >= P99_PROBES) expect(p99, `${name}: p99 of /api/health`).toBeLessThan(200);
  expect(max, `${name}: slowest /api/health`).toBeLessThan(1000);
  expect(measured.rssGrowthMb, `${name}: server RSS growth`).toBeLessThan(150);
}
