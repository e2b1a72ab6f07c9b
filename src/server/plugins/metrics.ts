import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { ERROR_CODES } from "../../shared/schemas/common";
import type { DatabaseHandle } from "../db/index";
import { AppError, notFound } from "../errors";

/**
 * What an operator watches and alerts on (issue 37, ADR 047): GET /metrics in Prometheus's text
 * format (prom-client), answered only with `Authorization: Bearer <METRICS_TOKEN>`. No label holds
 * personal data: routes are patterns (`/api/patient/requests/:id`, never the URL asked), statements
 * their first keyword, jobs and caches their names.
 *
 * Nothing is kept when METRICS_TOKEN is not set (no hooks, no monitors): the route then answers 404.
 */

/** What the app's parts tell or are asked at each scrape; structural types keep this file below them. */
export interface MetricSources {
  database: DatabaseHandle;
  /** Both checks of /api/health, each true when it answers in time. */
  health: () => Promise<{ database: boolean; storage: boolean }>;
  sessionCache: { stats: { hits: number; misses: number } };
  responseCache: { stats: { hits: number; misses: number } };
  /** WebSockets open on this instance. */
  sockets: () => number;
  /** The reading queue, every instance's (it is the database's). */
  readingQueue: () => Promise<{
    waiting: number;
    running: number;
    failed: number;
    oldestWaitingSeconds: number;
  }>;
}

/** The scheduled jobs (jobs.ts) and how often each one runs, in seconds: the alert's "two periods". */
export const JOB_PERIODS_S = {
  mail: 60,
  retention: 60 * 60,
  billing: 60 * 60,
  sweeper: 6 * 60 * 60,
} as const;
export type MetricJob = keyof typeof JOB_PERIODS_S;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Seconds: from 5 ms (a cached list) to 30 s (an upload on a slow link). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const READING_BUCKETS = [1, 2.5, 5, 10, 20, 30, 60, 90, 120];

export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<"method" | "route" | "status_class">;
  private readonly httpDuration: Histogram<"method" | "route" | "status_class">;
  private readonly queryDuration: Histogram<"statement" | "outcome">;
  private readonly readingDuration: Histogram<"outcome">;
  private readonly jobSuccess: Gauge<"task">;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    // Process memory, CPU, event-loop delay (a histogram of perf_hooks' monitor), GC, handles.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });

    this.httpRequests = new Counter({
      name: "sourio_http_requests_total",
      help: "Requêtes HTTP répondues, par méthode, route (motif) et classe de statut",
      labelNames: ["method", "route", "status_class"],
      registers,
    });
    this.httpDuration = new Histogram({
      name: "sourio_http_request_duration_seconds",
      help: "Durée des réponses HTTP, par méthode, route (motif) et classe de statut",
      labelNames: ["method", "route", "status_class"],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.queryDuration = new Histogram({
      name: "sourio_db_query_duration_seconds",
      help: "Durée des requêtes SQL, par type d'instruction (select, insert…) et issue",
      labelNames: ["statement", "outcome"],
      buckets: QUERY_BUCKETS,
      registers,
    });
    sources.database.observeQueries((seconds, statement, failed) =>
      this.queryDuration.observe({ statement, outcome: failed ? "error" : "ok" }, seconds),
    );
    const pool = sources.database.poolStats;
    if (pool)
      new Gauge({
        name: "sourio_db_pool_connections",
        help: "Pool PostgreSQL : connexions ouvertes (total), libres (idle), requêtes en attente d'une connexion (waiting)",
        labelNames: ["state"],
        registers,
        collect() {
          const stats = pool();
          this.set({ state: "total" }, stats.total);
          this.set({ state: "idle" }, stats.idle);
          this.set({ state: "waiting" }, stats.waiting);
        },
      });

    for (const [name, cache] of [
      ["session", sources.sessionCache],
      ["response", sources.responseCache],
    ] as const) {
      new Counter({
        name: `sourio_${name}_cache_lookups_total`,
        help: `Consultations du cache ${name === "session" ? "des sessions" : "des réponses"}, trouvées (hit) ou non (miss)`,
        labelNames: ["result"],
        registers,
        collect() {
          // The cache's own counts since the start (they only go up, as a counter's value must).
          this.reset();
          this.inc({ result: "hit" }, cache.stats.hits);
          this.inc({ result: "miss" }, cache.stats.misses);
        },
      });
    }

    new Gauge({
      name: "sourio_websockets_open",
      help: "WebSockets temps réel ouverts sur cette instance",
      registers,
      collect() {
        this.set(sources.sockets());
      },
    });

    // One query per scrape for both gauges: the first one's collect starts it, the second awaits it.
    let counts: ReturnType<MetricSources["readingQueue"]> | null = null;
    new Gauge({
      name: "sourio_reading_queue",
      help: "Lectures de devis en file (toutes instances) : en attente, en cours, échouées",
      labelNames: ["state"],
      registers,
      async collect() {
        counts = sources.readingQueue();
        const { waiting, running, failed } = await counts;
        this.set({ state: "waiting" }, waiting);
        this.set({ state: "running" }, running);
        this.set({ state: "failed" }, failed);
      },
    });
    new Gauge({
      name: "sourio_reading_queue_oldest_waiting_seconds",
      help: "Âge de la plus ancienne lecture de devis en attente (0 si aucune)",
      registers,
      async collect() {
        const current = counts ?? sources.readingQueue();
        counts = null;
        this.set((await current).oldestWaitingSeconds);
      },
    });
    this.readingDuration = new Histogram({
      name: "sourio_reading_duration_seconds",
      help: "Durée des lectures de devis faites par cette instance, par issue (done, failed)",
      labelNames: ["outcome"],
      buckets: READING_BUCKETS,
      registers,
    });

    this.jobSuccess = new Gauge({
      name: "sourio_job_last_success_timestamp_seconds",
      help: "Dernière exécution réussie de chaque tâche programmée sur cette instance (secondes Unix)",
      labelNames: ["task"],
      registers,
    });
    new Gauge({
      name: "sourio_job_period_seconds",
      help: "Période de chaque tâche programmée (pour l'alerte « tâche non exécutée depuis deux périodes »)",
      labelNames: ["task"],
      registers,
      collect() {
        for (const [task, period] of Object.entries(JOB_PERIODS_S)) this.set({ task }, period);
      },
    });

    new Gauge({
      name: "sourio_health_up",
      help: "Vérifications de /api/health : 1 si la base (database) ou le stockage (storage) répond, 0 sinon",
      labelNames: ["check"],
      registers,
      async collect() {
        const health = await sources.health();
        this.set({ check: "database" }, health.database ? 1 : 0);
        this.set({ check: "storage" }, health.storage ? 1 : 0);
      },
    });
  }

  /** One answered request: its route's pattern (never the URL), its method and status class. */
  observeRequest(request: FastifyRequest, reply: FastifyReply): void {
    const labels = {
      method: METHODS.has(request.method) ? request.method : "OTHER",
      route: request.routeOptions.url ?? "(aucune)",
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, reply.elapsedTime / 1000);
  }

  observeReading(seconds: number, outcome: "done" | "failed"): void {
    this.readingDuration.observe({ outcome }, seconds);
  }

  jobSucceeded(task: MetricJob, at = new Date()): void {
    this.jobSuccess.set({ task }, at.getTime() / 1000);
  }

  close(): void {
    this.registry.clear();
  }
}

/** Constant-time comparison of the given bearer token with the configured one (digests: equal lengths). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!given) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics (hidden from the OpenAPI document, outside /api: for the scraper, not the product).
 * `metrics` null (no METRICS_TOKEN): 404.
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics | null,
  token: string | undefined,
): void {
  if (metrics) {
    app.addHook("onResponse", async (request, reply) => {
      metrics.observeRequest(request, reply);
    });
    app.addHook("onClose", async () => metrics.close());
  }
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !token) throw notFound();
    if (!tokenMatches(request.headers.authorization, token)) {
      reply.header("www-authenticate", 'Bearer realm="metrics"');
      throw new AppError(
        401,
        ERROR_CODES.unauthenticated,
        "Jeton des métriques absent ou incorrect (METRICS_TOKEN).",
      );
    }
    const body = await metrics.registry.metrics();
    return reply.header("cache-control", "no-store").type(metrics.registry.contentType).send(body);
  });
}
