import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "./config";
import { protectDataDir, setPrivateUmask } from "./files/private-dir";
import { loggableError } from "./redact";
import type { openMigratedDatabase } from "./runtime";
import { avoidWasmCodeGcCrash } from "./wasm-code-gc";

/**
 * config → database (migrated) → admin and demo accounts → app → listen; graceful shutdown. The
 * server's modules are imported once the configuration is known to be good: a configuration refused
 * costs its check, not the import of the whole server (about 1.5 CPU-s, ADR 054).
 */
async function main(): Promise<void> {
  // Before the embedded database's WebAssembly starts (ADR 090).
  avoidWasmCodeGcCrash();
  // Whatever is created without an explicit mode (by us or a library) is the service's only.
  setPrivateUmask();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await protectDataDir(config.dataDir);
  const [
    { buildApp },
    { TWO_FACTOR_KEYS_UNREADABLE, twoFactorKeysReadable },
    { BACKUP_ENDPOINT },
    { ensureAdmin },
    { demoStartupText, seedDemoData },
    { cityOf },
    { runBillingJobs, runDailyJobs, runEmbeddedUpkeep, runMailJobs, runSweeper, sendScheduledEmails },
    { openMigratedDatabase },
    { EncryptedStorage },
    { encryptClearFiles },
  ] = await Promise.all([
    import("./app"),
    import("./auth"),
    import("./backup/archive"),
    import("./bootstrap"),
    import("./demo"),
    import("./geo/communes"),
    import("./jobs"),
    import("./runtime"),
    import("./storage/encrypted"),
    import("./upkeep/at-rest"),
  ]);

  let database: Awaited<ReturnType<typeof openMigratedDatabase>>;
  try {
    database = await openMigratedDatabase(config);
  } catch (error) {
    const where = config.databaseUrl ? "DATABASE_URL" : `DATA_DIR (${config.dataDir})`;
    console.error(`Base de données inaccessible (${where}) : ${(error as Error).message}`);
    process.exit(1);
  }

  const app = await buildApp({ config, database, mailJobs: runMailJobs });
  // Files an older version stored in clear are encrypted before anything is served.
  if (app.storage instanceof EncryptedStorage) {
    const encrypted = await encryptClearFiles(database.db, app.storage);
    if (encrypted) app.log.info({ encrypted }, "fichiers existants chiffrés");
  }
  // A restore started with another AUTH_SECRET: said now, not at the first person's code (ADR 098).
  if (!(await twoFactorKeysReadable(database.db, app.auth))) app.log.error(TWO_FACTOR_KEYS_UNREADABLE);
  const deps = { db: database.db, auth: app.auth, storage: app.storage };
  if (config.adminEmail && config.adminPassword) {
    const outcome = await ensureAdmin(deps, config.adminEmail, config.adminPassword);
    app.log.info(
      { outcome },
      `compte administrateur ${config.adminEmail} ${outcome === "created" ? "créé" : "vérifié"}`,
    );
  }
  // After the admin: the seed decides on demo accounts and requests, not on "any account".
  const demo = config.demoData ? await seedDemoData(app, sendScheduledEmails) : undefined;

  // The scheduled jobs (jobs.ts) run on every instance's timers; each run takes a PostgreSQL
  // advisory lock, so the same job never runs on two instances at once.
  // Files whose row never came (or went) and unfinished uploads (`.part` files a crash left):
  // swept at start-up, then every six hours.
  const sweeper = setInterval(() => void runSweeper(app), 6 * 60 * 60 * 1000);
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));
  void runSweeper(app);

  // Unread messages after 15 minutes, appointment reminders (state in the database: survives restarts).
  const mailTimer = setInterval(() => void runMailJobs(app), 60 * 1000);
  mailTimer.unref();
  app.addHook("onClose", async () => clearInterval(mailTimer));

  // Retention (privacy page's periods): hourly ticks, the first of each day does the work.
  const dailyTimer = setInterval(() => void runDailyJobs(app), 60 * 60 * 1000);
  dailyTimer.unref();
  app.addHook("onClose", async () => clearInterval(dailyTimer));
  void runDailyJobs(app);

  // Subscriptions read again from the payment provider: hourly ticks, the first of each day does it.
  const billingTimer = setInterval(() => void runBillingJobs(app), 60 * 60 * 1000);
  billingTimer.unref();
  app.addHook("onClose", async () => clearInterval(billingTimer));
  void runBillingJobs(app);

  // The embedded database has no autovacuum: its statistics and dead rows are kept here (ADR 095),
  // after the demo's rows, then every five minutes.
  if (database.kind === "pglite") {
    const upkeepTimer = setInterval(() => void runEmbeddedUpkeep(app), 5 * 60 * 1000);
    upkeepTimer.unref();
    app.addHook("onClose", async () => clearInterval(upkeepTimer));
    void runEmbeddedUpkeep(app);
  }

  // Without Stripe (the quick start), the local stand-in charges and renews at its clock, every minute.
  if (!config.stripe) {
    const standInTimer = setInterval(
      () =>
        void app.billing
          .tickStandIn()
          .catch((error) =>
            app.log.error({ err: loggableError(error) }, "paiements simulés : échéances non traitées"),
          ),
      60 * 1000,
    );
    standInTimer.unref();
    app.addHook("onClose", async () => clearInterval(standInTimer));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn("second signal : arrêt immédiat");
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, "arrêt en cours : plus de nouvelles connexions, fin des requêtes en cours");
    const timer = setTimeout(() => {
      app.log.error("arrêt forcé après 10 s");
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "erreur pendant l'arrêt");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  // The backup endpoint file (written once listening, below) goes with the server.
  const endpoint = path.join(config.dataDir, BACKUP_ENDPOINT);
  app.addHook("onClose", async () => rmSync(endpoint, { force: true }));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error(
      `Impossible d'écouter sur ${config.host}:${config.port} (PORT/HOST) : ${(error as Error).message}`,
    );
    await database.close().catch(() => {});
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  // `npm run backup` asks this process for the embedded database's snapshot (ADR 047): where and
  // with which token, in a file only the service's account can read, gone when the server stops.
  if (database.kind === "pglite") {
    const token = randomBytes(32).toString("base64url");
    const host = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host;
    app.backupToken = token;
    writeFileSync(
      endpoint,
      JSON.stringify({
        pid: process.pid,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        token,
      }),
      { mode: 0o600 },
    );
  }
  const url = config.publicUrl.includes(`:${config.port}`)
    ? config.publicUrl.replace(`:${config.port}`, `:${port}`)
    : config.publicUrl;
  const lines = [
    `${config.brandName} est prêt : ${url}`,
    `Base de données : ${database.kind === "pglite" ? `embarquée (${config.dataDir}/pglite)` : "PostgreSQL (DATABASE_URL)"}`,
    app.billing.startupText,
  ];
  if (demo) lines.push(demoStartupText(demo, url));
  console.log(lines.join("\n"));
  // The communes table (postal code → commune, point) takes about a second to build: build it now,
  // once, rather than in the first request that shows a distance.
  setImmediate(() => cityOf("75001"));
}

void main();
