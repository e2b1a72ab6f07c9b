import path from "node:path";
import compress from "@fastify/compress";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { MAX_FILE_SIZE } from "../shared/domain/limits";
import { actorOf } from "./access/actor";
import { registerSessionCache, SessionCache, sessionsChanged } from "./access/session-cache";
import { type Auth, createAuth } from "./auth";
import type { AppConfig } from "./config";
import "../shared/schemas/zod-fr";
import type { DatabaseHandle, Db } from "./db/index";
import { registerInputGuard } from "./http/input-guard";
import { createMailer, type Mailer, type TrackedMailer, trackSends } from "./mail/mailer";
import { accountRoutes } from "./modules/account/account.routes";
import { recordActivity } from "./modules/account/account.service";
import { adminRoutes } from "./modules/admin/admin.routes";
import { appointmentRoutes } from "./modules/appointments/appointments.routes";
import { billingRoutes } from "./modules/billing/billing.routes";
import { BillingRuntime } from "./modules/billing/runtime";
import { contactRoutes } from "./modules/contact/contact.routes";
import { conversationRoutes } from "./modules/conversations/conversations.routes";
import { dentistRoutes } from "./modules/dentists/dentists.routes";
import { documentRoutes } from "./modules/documents/documents.routes";
import { exportRoutes } from "./modules/export/export.routes";
import { invoiceRoutes } from "./modules/invoices/invoices.routes";
import { newRequestRoutes } from "./modules/new-request/new-request.routes";
import { offerRoutes } from "./modules/offers/offers.routes";
import { requestDetailRoutes } from "./modules/offers/request-detail.routes";
import { systemEnsureProfile } from "./modules/profiles/profiles.repo";
import { profileRoutes } from "./modules/profiles/profiles.routes";
import { publicStatsRoutes } from "./modules/public-stats/public-stats.routes";
import { quoteRoutes } from "./modules/quotes/quotes.routes";
import { setOcrConcurrency } from "./modules/reading/ocr";
import { readingRoutes } from "./modules/reading/reading.routes";
import { ReadingRunner } from "./modules/reading/runner";
import { RealtimeHub } from "./modules/realtime/hub";
import { realtimeRoutes } from "./modules/realtime/realtime.routes";
import { requestRoutes } from "./modules/requests/requests.routes";
import { retentionRoutes } from "./modules/retention/retention.routes";
import { reviewRoutes } from "./modules/reviews/reviews.routes";
import { securityRoutes } from "./modules/security/security.routes";
import { supportRoutes } from "./modules/support/support.routes";
import { backupRoutes } from "./modules/system/backup.routes";
import { seoRoutes } from "./modules/system/seo.routes";
import { systemRoutes, withinTimeout } from "./modules/system/system.routes";
import { testClockRoutes } from "./modules/system/testClock.routes";
import { registerCrossSiteGuard } from "./plugins/cross-site";
import { frameworkErrors, registerErrorHandler } from "./plugins/error-handler";
import { logSerializers, RequestLogController } from "./plugins/logging";
import { Metrics, registerMetrics } from "./plugins/metrics";
import { registerPrivateAnswers } from "./plugins/private-answers";
import { postgresRateLimitStore, routeAndIpKey } from "./plugins/rate-limit-store";
import { ResponseCache, registerResponseCache } from "./plugins/response-cache";
import { helmetOptions, registerSecurityHeaders } from "./plugins/security-headers";
import { registerStatic } from "./plugins/static";
import { type EventBus, LocalBus, PgBus } from "./realtime/bus";
import { EncryptedStorage } from "./storage/encrypted";
import { keyringOf } from "./storage/keyring";
import { S3Storage } from "./storage/s3";
import { LocalStorage, type Storage } from "./storage/storage";

declare module "fastify" {
  interface FastifyInstance {
    config: AppConfig;
    database: DatabaseHandle;
    db: Db;
    auth: Auth;
    mailer: TrackedMailer;
    storage: Storage;
    /** The time now; tests inject a fixed or moved clock (never sleep). */
    clock: () => Date;
    /** Conversation events between instances (LISTEN/NOTIFY on PostgreSQL, in-process otherwise). */
    bus: EventBus;
    /** This instance's realtime sockets. */
    hub: RealtimeHub;
    /** Reads the uploaded devis queued in quote_readings, one at a time (issue 17). */
    readings: ReadingRunner;
    /** The Prometheus metrics (plugins/metrics.ts), null when METRICS_TOKEN is not set. */
    metrics: Metrics | null;
    /**
     * The token of POST /internal/backup for this start (server.ts writes it in DATA_DIR for
     * `npm run backup`); undefined until set: the route then refuses everyone.
     */
    backupToken: string | undefined;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  mailer?: Mailer;
  storage?: Storage;
  /** Folder of the built client; tests may point elsewhere. */
  clientDir?: string;
  clock?: () => Date;
  /** Where the logs go (default: stdout); tests capture them to check what they hold. */
  logStream?: { write(line: string): void };
  /**
   * Whether the devis reading runner starts with the app (default: yes, except under NODE_ENV=test,
   * where tests call `app.readings.drain()` to read the queue when they choose).
   */
  readingRunner?: boolean;
  /**
   * What the test clock (TEST_CLOCK) runs once it has moved: the mail jobs of jobs.ts, given by
   * server.ts and the test harness (jobs.ts stands beside this file, not below it: ADR 031).
   */
  mailJobs?: (app: FastifyInstance) => Promise<unknown>;
}

/** Builds the whole application (plugins, then modules, in this order). Tests use it directly. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Requests logged by method and path only (no query string, no headers, no body); errors
      // without the values they quote (plugins/logging.ts).
      serializers: logSerializers,
      // Never log cookies or authorization headers.
      redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      ...(options.logStream
        ? { stream: options.logStream }
        : config.env === "development" && process.stdout.isTTY
          ? {
              transport: {
                target: "pino-pretty",
                options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" },
              },
            }
          : {}),
    },
    // Errors met before a route (malformed URL, path parameter over 100 characters): our shape, in French.
    frameworkErrors,
    // One line per request, written when it failed or was slow (plugins/logging.ts, ADR 025).
    logController: new RequestLogController(config.slowRequestMs),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: "idle",
    // How long a plugin or an onReady hook (the bus's listener, the readings' queue) may take before
    // the start is given up: a minute in service; in tests, none of Fastify's own, since a loaded
    // 2-core machine can take longer than its default 10 s and the test's time limit is the verdict
    // (ADR 028).
    pluginTimeout: config.env === "test" ? 0 : 60_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const mailer = trackSends(
    options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, "outbox"),
        logger: app.log,
      }),
  );
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("mailer", mailer);
  // TEST_CLOCK (browser tests): a clock that POST /api/test/clock sets ahead of real time.
  let offsetMs = 0;
  const movable = config.testClock && !options.clock;
  app.decorate(
    "clock",
    options.clock ?? (movable ? () => new Date(Date.now() + offsetMs) : () => new Date()),
  );
  const bus: EventBus =
    database.kind === "postgres" && config.databaseUrl
      ? new PgBus(
          config.databaseUrl,
          async (channel, payload) => {
            await sql`select pg_notify(${channel}, ${payload})`.execute(database.db);
          },
          app.log,
        )
      : new LocalBus(database.listen);
  app.decorate("bus", bus);
  // The payment provider: Stripe with its keys, else the local stand-in, started at its first use.
  app.decorate("billing", new BillingRuntime(app));
  // The caches serve nothing until the bus listens: wait for it before the first request.
  app.addHook("onReady", async () => {
    await bus.listening();
  });
  // Sessions resolved from memory, dropped on every instance when they change (ADR 026).
  const sessionCache = new SessionCache(bus, app.log);
  registerSessionCache(database.db, sessionCache);
  app.decorate("hub", new RealtimeHub(database.db, bus, app.log));
  // The files: an S3-compatible bucket when S3_* is set, else the local disk; encrypted by us either
  // way (the store is not trusted, ADR 013 and 022).
  const bucket = options.storage || !config.s3 ? null : new S3Storage(config.s3);
  app.decorate(
    "storage",
    options.storage ??
      new EncryptedStorage(
        bucket ?? new LocalStorage(path.join(config.dataDir, "files")),
        keyringOf(config.dataKeys),
      ),
  );
  if (bucket) app.addHook("onClose", async () => bucket.close());
  // A signed-in user without a profile row gets one by the profiles module's rules (access/actor.ts).
  app.decorate("loadProfile", systemEnsureProfile);
  app.decorate(
    "auth",
    createAuth({
      db: database.db,
      config,
      mailer,
      log: app.log,
      sessionsChanged: (userId) => sessionsChanged(database.db, userId),
      sessionRefreshed: (userId) => recordActivity(database.db, userId, app.clock()),
    }),
  );
  setOcrConcurrency(config.readingConcurrency);
  let metrics: Metrics | null = null;
  app.decorate(
    "readings",
    new ReadingRunner({
      db: database.db,
      storage: app.storage,
      bus,
      log: app.log.child({ module: "reading" }),
      limits: config.readingLimits,
      onRead: (seconds, outcome) => metrics?.observeReading(seconds, outcome),
    }),
  );

  registerErrorHandler(app, config.brandName);
  registerCrossSiteGuard(app);
  registerInputGuard(app);
  // Cache-Control: private, no-store on personal answers; Vary: Accept-Encoding (plugins/private-answers.ts).
  registerPrivateAnswers(app);

  // helmet's headers, computed once by @fastify/helmet and set on every answer (plugins/security-headers.ts).
  await registerSecurityHeaders(app, helmetOptions(config.secureCookies));
  // Lists and dashboards answered from memory until a table they read changes (ADR 030); its hooks
  // come before compression's.
  const responseCache = new ResponseCache(bus);
  // Keyed by person, and by whether a lapsed subscription limits him now (issue 35): the limit
  // starts at an instant, not at a write, and a list kept from before it is never served after it.
  // RESPONSE_CACHE=off: every answer computed (the bench's "computed" column, issue 38); the cache
  // object stays, empty, for the metrics and the test clock.
  if (config.responseCache)
    registerResponseCache(app, responseCache, async (request, reply) => {
      const actor = await actorOf(request, reply);
      return actor.limited ? { id: actor.userId, variant: "limited" } : { id: actor.userId };
    });
  else app.decorate("responseCache", responseCache);
  // GET /metrics for Prometheus, kept only when METRICS_TOKEN is set (plugins/metrics.ts, ADR 047).
  if (config.metricsToken)
    metrics = new Metrics({
      database,
      health: async () => {
        const [db, storage] = await Promise.all([
          withinTimeout(() => database.ping()),
          withinTimeout(() => app.storage.ping()),
        ]);
        return { database: db, storage };
      },
      sessionCache,
      responseCache,
      sockets: () => app.hub.size,
      readingQueue: () => app.readings.queueGauges(),
    });
  app.decorate("metrics", metrics);
  registerMetrics(app, metrics, config.metricsToken);
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip"] });
  // Counters in the database, shared by every instance (plugins/rate-limit-store.ts); keyed by route
  // and client address unless a route says otherwise.
  await app.register(rateLimit, {
    global: false,
    store: postgresRateLimitStore(database.db, config.authSecret, app.clock),
    keyGenerator: routeAndIpKey,
  });
  // Files are streamed (never buffered) with the 10 MB limit per file enforced while reading.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: MAX_FILE_SIZE, files: 20, fields: 40, fieldSize: 100_000, parts: 80 },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: `${config.brandName} API`,
        description:
          "API JSON de la plateforme. Erreurs : { error: { code, message, fields? } }, messages en français.",
        version: "1.0.0",
      },
      components: {
        securitySchemes: { session: { type: "apiKey", in: "cookie", name: "sourio.session_token" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: false });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(systemRoutes);
  await app.register(accountRoutes);
  await app.register(securityRoutes);
  await app.register(exportRoutes);
  await app.register(profileRoutes);
  await app.register(contactRoutes);
  await app.register(publicStatsRoutes);
  await app.register(requestRoutes);
  await app.register(newRequestRoutes);
  await app.register(requestDetailRoutes);
  await app.register(documentRoutes);
  await app.register(dentistRoutes);
  await app.register(offerRoutes);
  await app.register(appointmentRoutes);
  await app.register(reviewRoutes);
  if (movable)
    await app.register(testClockRoutes, {
      setOffset: (ms: number) => {
        offsetMs = ms;
        // What depends on the time of day (upcoming appointments) is computed again.
        responseCache.clear();
      },
      runMailJobs: async () => options.mailJobs?.(app),
    });
  await app.register(conversationRoutes);
  await app.register(supportRoutes);
  await app.register(quoteRoutes);
  await app.register(readingRoutes);
  await app.register(adminRoutes);
  await app.register(invoiceRoutes);
  await app.register(retentionRoutes);
  await app.register(billingRoutes);
  await app.register(realtimeRoutes);
  await app.register(seoRoutes);
  app.decorate("backupToken", undefined as string | undefined);
  await app.register(backupRoutes, { token: () => app.backupToken });

  await registerStatic(app, options.clientDir);
  if (options.readingRunner ?? config.env !== "test")
    app.addHook("onReady", async () => {
      await app.readings.start();
    });
  app.addHook("onClose", async () => {
    await app.readings.close();
    app.hub.close();
    await app.bus.close();
    await app.billing.close();
    await mailer.close();
  });
  return app;
}
