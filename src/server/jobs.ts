import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { sendAppointmentReminders } from "./modules/appointments/reminders.service";
import { sendUnreadEmails } from "./modules/conversations/conversations.service";
import { runRetention } from "./modules/retention/retention.service";
import { sendReviewInvitations } from "./modules/reviews/reviews.service";
import { sendSupportUnreadEmails } from "./modules/support/support.service";
import { pruneRateLimitHits } from "./plugins/rate-limit-store";
import { loggableError } from "./redact";
import { pruneLoginAttempts } from "./throttle/login-throttle";
import { sweepOrphanFiles } from "./upkeep/sweeper";

/**
 * The scheduled jobs, run by the timers of server.ts on every instance. Each run takes a
 * PostgreSQL advisory lock first (`pg_try_advisory_xact_lock`, held by a transaction of its own
 * for the length of the run): while one instance runs a job, the same job on another instance
 * skips its turn instead of doing the work twice at the same time. The lock goes with the
 * transaction, so an instance that dies mid-run frees it, and it works through a pooler in
 * transaction mode. The jobs also keep their state in the database (e-mails sent, reminders,
 * retention's last day), so a run that comes just after another finds nothing left to do.
 *
 * The embedded PGlite database belongs to one process: no lock there (and none possible: its
 * single connection would be held by the lock's transaction while the job queries).
 */
export type JobName = "mail" | "retention" | "sweeper";

/** First key of the two-key advisory locks: "SOUR", so other users of the database can't collide. */
const LOCK_NAMESPACE = 0x534f5552;
const LOCK_IDS: Record<JobName, number> = { mail: 1, retention: 2, sweeper: 3 };

/**
 * Runs `task` unless the same job is running on another instance (or in this one). Resolves to
 * whether it ran.
 */
export async function runExclusive(
  app: Pick<FastifyInstance, "database">,
  job: JobName,
  task: () => Promise<void>,
): Promise<boolean> {
  if (app.database.kind !== "postgres") {
    await task();
    return true;
  }
  return app.database.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${LOCK_IDS[job]}::integer) as locked`.execute(
      trx,
    );
    if (!rows[0]?.locked) return false;
    await task();
    return true;
  });
}

/** Logs a failed run (the lock's own failure included) instead of rejecting: timers call these. */
function logFailure(app: FastifyInstance, message: string) {
  return (error: unknown) => {
    app.log.error({ err: loggableError(error) }, message);
    return false;
  };
}

/**
 * The e-mails due at the app's clock: unread messages (conversations and support),
 * appointment reminders and review invitations (the day after an appointment); every minute. The same run removes the login and rate-limit counters
 * whose window has ended (indexed deletes).
 */
export async function runMailJobs(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "mail", async () => {
    const deps = { db: app.db, mailer: app.mailer, config: app.config, now: app.clock(), log: app.log };
    await Promise.all([
      Promise.all([
        sendUnreadEmails(deps),
        sendSupportUnreadEmails(deps),
        sendAppointmentReminders(deps),
        sendReviewInvitations(deps),
      ]).catch(logFailure(app, "échec de l'envoi des e-mails programmés")),
      pruneLoginAttempts(app.db, deps.now).catch(
        logFailure(app, "échec du nettoyage des compteurs de connexion"),
      ),
      pruneRateLimitHits(app.db, deps.now).catch(
        logFailure(app, "échec du nettoyage des compteurs de limitation de débit"),
      ),
    ]);
  }).catch(logFailure(app, "échec du lancement des e-mails programmés"));
}

/**
 * The daily retention run (modules/retention): server.ts calls this every hour; the first call
 * of each day, on whichever instance, does the work.
 */
export async function runDailyJobs(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "retention", async () => {
    const deps = { db: app.db, storage: app.storage, mailer: app.mailer, config: app.config, log: app.log };
    await runRetention(deps, app.clock());
  }).catch(logFailure(app, "échec de l'application des durées de conservation"));
}

/**
 * Files whose row never came (or went) and unfinished uploads: server.ts runs this at start-up,
 * then every six hours.
 */
export async function runSweeper(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "sweeper", async () => {
    const removed = await sweepOrphanFiles(app.db, app.storage);
    if (removed > 0) app.log.info({ removed }, "fichiers orphelins supprimés");
  }).catch(logFailure(app, "échec du nettoyage des fichiers orphelins"));
}
