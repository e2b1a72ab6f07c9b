import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMailJobs, runSweeper } from "../jobs";
import {
  appPerFile,
  createTestContext,
  devisPdf,
  newRequestId,
  signUpPatient,
  type TestContext,
} from "../testing/harness";
import { openSocket } from "../testing/sockets";
import { tokenMatches } from "./metrics";

/** GET /metrics (issue 37, ADR 047): the token's guard, then the series moving with the traffic. */
const TOKEN = "metrics-token-metrics-token-0123456789abcdef";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, one sample per line (comments left out). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`ligne illisible : ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = pair[2] as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}

const ctx = appPerFile({ env: { METRICS_TOKEN: TOKEN } });

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const response = await ctx.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toContain("text/plain");
  return { text: response.body, samples: parse(response.body) };
}

describe("GET /metrics: who may read it", () => {
  it("answers 401 without the token, with a wrong one or another scheme; 200 with it", async () => {
    for (const authorization of [
      undefined,
      "Bearer ",
      "Bearer wrong-token",
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}`,
      TOKEN,
    ]) {
      const response = await ctx.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json().error.code).toBe("UNAUTHENTICATED");
      expect(response.headers["www-authenticate"]).toContain("Bearer");
      expect(response.body).not.toContain("sourio_");
    }
    const session = await signUpPatient(ctx.app);
    const signedIn = await ctx.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { cookie: session.cookie },
    });
    expect(signedIn.statusCode).toBe(401);
    await scrape();
  });

  it("never lets a forged header through (generated headers)", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("Bearer ", "bearer ", "", "Bearer  "), (text, scheme) => {
        fc.pre(text.trim() !== TOKEN);
        expect(tokenMatches(`${scheme}${text}`, TOKEN)).toBe(false);
      }),
    );
    expect(tokenMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
  });

  it("answers 404 when no METRICS_TOKEN is configured", async () => {
    const bare: TestContext = await createTestContext();
    try {
      expect(bare.app.metrics).toBeNull();
      const response = await bare.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("NOT_FOUND");
    } finally {
      await bare.close();
    }
  });
});

// A devis read in its own process and the jobs run: minutes on a loaded 2-core machine (ADR 028).
describe("GET /metrics: the series move with the traffic", { timeout: 300_000 }, () => {
  let base = "";
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // The harness closes the app (and its listener) after the file.
  });

  it("counts requests by route pattern and status class, queries, caches, readings, jobs and sockets", async () => {
    const before = (await scrape()).samples;
    const patient = await signUpPatient(ctx.app);
    // A request with its devis: a reading queued.
    const requestId = await newRequestId(ctx.app, patient.cookie, [devisPdf()], {
      document_types: JSON.stringify(["quote"]),
    });
    for (let i = 0; i < 3; i += 1)
      expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    // A path with an id: counted under its pattern, never under the id asked.
    const detail = await ctx.app.inject({
      method: "GET",
      url: `/api/patient/requests/${requestId}`,
      headers: { cookie: patient.cookie },
    });
    expect(detail.statusCode).toBe(200);
    const missing = await ctx.app.inject({
      method: "GET",
      url: "/api/patient/requests/00000000-0000-4000-8000-000000000000",
      headers: { cookie: patient.cookie },
    });
    expect(missing.statusCode).toBe(404);
    // A cached list asked twice: a miss, then a hit.
    for (let i = 0; i < 2; i += 1)
      expect(
        (
          await ctx.app.inject({
            method: "GET",
            url: "/api/appointments",
            headers: { cookie: patient.cookie },
          })
        ).statusCode,
      ).toBe(200);
    const { ws } = await openSocket(base, patient.cookie);
    const waiting = (await scrape()).samples;
    expect(sum(waiting, "sourio_websockets_open")).toBe(1);
    ws.close();
    expect(sum(waiting, "sourio_reading_queue", { state: "waiting" })).toBe(1);
    expect(await ctx.app.readings.drain()).toBe(1);
    await runMailJobs(ctx.app);
    await runSweeper(ctx.app);

    const { text, samples: after } = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sum(after, name, labels) - sum(before, name, labels);

    const health = { route: "/api/health", method: "GET", status_class: "2xx" };
    expect(moved("sourio_http_requests_total", health)).toBe(3);
    expect(moved("sourio_http_request_duration_seconds_count", health)).toBe(3);
    expect(sum(after, "sourio_http_request_duration_seconds_bucket", { ...health, le: "+Inf" })).toBe(
      sum(after, "sourio_http_requests_total", health),
    );
    const detailRoute = { route: "/api/patient/requests/:id", method: "GET" };
    expect(moved("sourio_http_requests_total", { ...detailRoute, status_class: "2xx" })).toBe(1);
    expect(moved("sourio_http_requests_total", { ...detailRoute, status_class: "4xx" })).toBe(1);
    expect(moved("sourio_http_requests_total", { route: "/api/patient/requests", status_class: "2xx" })).toBe(
      1,
    );

    expect(
      moved("sourio_db_query_duration_seconds_count", { statement: "select", outcome: "ok" }),
    ).toBeGreaterThan(0);
    expect(
      moved("sourio_db_query_duration_seconds_count", { statement: "insert", outcome: "ok" }),
    ).toBeGreaterThan(0);
    expect(moved("sourio_response_cache_lookups_total", { result: "miss" })).toBeGreaterThanOrEqual(1);
    expect(moved("sourio_response_cache_lookups_total", { result: "hit" })).toBeGreaterThanOrEqual(1);
    expect(moved("sourio_session_cache_lookups_total")).toBeGreaterThan(0);
    expect(moved("sourio_session_cache_lookups_total", { result: "hit" })).toBeGreaterThan(0);
    expect(sum(after, "sourio_reading_queue", { state: "waiting" })).toBe(0);
    expect(sum(after, "sourio_reading_queue_oldest_waiting_seconds")).toBe(0);
    expect(moved("sourio_reading_duration_seconds_count")).toBe(1);
    const now = Date.now() / 1000;
    for (const task of ["mail", "sweeper"]) {
      const last = sum(after, "sourio_job_last_success_timestamp_seconds", { task });
      expect(last, task).toBeGreaterThan(now - 600);
      expect(last, task).toBeLessThanOrEqual(now + 1);
    }
    expect(sum(after, "sourio_job_period_seconds", { task: "retention" })).toBe(3600);
    expect(sum(after, "sourio_health_up", { check: "database" })).toBe(1);
    expect(sum(after, "sourio_health_up", { check: "storage" })).toBe(1);
    // The process: memory and the event loop's delay.
    expect(sum(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(after.some((s) => s.name.startsWith("nodejs_eventloop_lag"))).toBe(true);

    // No personal data and no raw URL in any label.
    for (const secret of [requestId, patient.body.email, "00000000-0000-4000-8000-000000000000", "Dupont"])
      expect(text, secret).not.toContain(secret);
  });
});

describe("the alert rules of deploy/prometheus/sourio-alerts.yml", () => {
  interface Rule {
    alert?: string;
    expr?: string;
    for?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  }

  it("parse, name the alerts the issue asks for, and use only series a scrape holds", async () => {
    const { readFileSync } = await import("node:fs");
    const { parse: parseYaml } = await import("yaml");
    const file = new URL("../../../deploy/prometheus/sourio-alerts.yml", import.meta.url);
    const document = parseYaml(readFileSync(file, "utf8")) as { groups: { name: string; rules: Rule[] }[] };
    const rules = document.groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.alert)).toEqual([
      "SourioErreursServeur",
      "SourioLenteurP99",
      "SourioLecturesEnRetard",
      "SourioTacheNonExecutee",
      "SourioTacheJamaisReussie",
      "SourioSanteEnEchec",
      "SourioInstanceMuette",
    ]);
    // Every series a rule names is there once the jobs have run (their gauges come with a success).
    await runMailJobs(ctx.app);
    await runSweeper(ctx.app);
    const scraped = new Set((await scrape()).samples.map((s) => s.name));
    for (const rule of rules) {
      expect(rule.expr, rule.alert).toBeTruthy();
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(["page", "ticket"], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toMatch(/[a-zé]/);
      // Balanced brackets: a typo in an expression shows here before Prometheus refuses the file.
      for (const [open, close] of ["()", "{}", "[]"])
        expect((rule.expr ?? "").split(open as string).length, `${rule.alert} ${open}${close}`).toBe(
          (rule.expr ?? "").split(close as string).length,
        );
      for (const series of (rule.expr ?? "").match(/sourio_[a-z_]+/g) ?? [])
        expect(scraped.has(series), `${rule.alert} : ${series}`).toBe(true);
    }
    const exprs = rules.map((rule) => rule.expr).join("\n");
    expect(exprs).toContain('status_class="5xx"');
    expect(exprs).toContain("histogram_quantile(0.99");
  });
});
