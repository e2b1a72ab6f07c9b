import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { Mailer } from "./mail/mailer";
import { liftEndedSuspensions } from "./modules/admin/suspension.service";
import { sendAppointmentReminders, sendDentistAwayEmails } from "./modules/appointments/reminders.service";
import { runDailyReconciliation, sendTrialEndingMails } from "./modules/billing/billing.service";
import { sendUnreadEmails } from "./modules/conversations/conversations.service";
import {
  sendNamedRequestEmails,
  sendNewRequestsMorningEmails,
  sendRecipientAwayEmails,
} from "./modules/new-request/new-request.service";
import { sendOfferExpiryReminders } from "./modules/offers/offers.service";
import { runRetention } from "./modules/retention/retention.service";
import { sendReviewInvitations } from "./modules/reviews/reviews.service";
import { sendSupportUnreadEmails } from "./modules/support/support.service";
import { pruneRateLimitHits } from "./plugins/rate-limit-store";
import { loggableError } from "./redact";
import { pruneLoginAttempts } from "./throttle/login-throttle";
import { maintainEmbeddedStatistics } from "./upkeep/embedded-statistics";
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
 *
 * Each run that completes without a failure sets its job's last success time in the metrics
 * (`sourio_job_last_success_timestamp_seconds{task}`, ADR 047): the alert is on the latest of all
 * instances, since the run an instance skips is another's.
 */
export type JobName = "mail" | "retention" | "sweeper" | "billing";

/** First key of the two-key advisory locks: "SOUR", so other users of the database can't collide. */
const LOCK_NAMESPACE = 0x534f5552;
const LOCK_IDS: Record<JobName, number> = { mail: 1, retention: 2, sweeper: 3, billing: 4 };

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

/** What the scheduled e-mails take: the database, a mailer, the settings, the run's time, a log. */
export interface ScheduledMailDeps {
  db: FastifyInstance["db"];
  mailer: Mailer;
  config: FastifyInstance["config"];
  now: Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * The e-mails due at `now`, each claimed in the database before it is sent (once across instances):
 * the mail job's, and the demo's history's, whose e-mails went out as it happened (demo/index.ts).
 */
export function sendScheduledEmails(deps: ScheduledMailDeps) {
  return Promise.all([
    sendUnreadEmails(deps),
    sendSupportUnreadEmails(deps),
    // One after the other: both write the requests addressed by name (no two updates of a row
    // at once, in an order PostgreSQL could find deadlocked).
    sendNamedRequestEmails(deps).then(() => sendRecipientAwayEmails(deps)),
    // Dentists' morning e-mail of new requests sent to all (ADR 086), once a day from 8:00 Paris.
    sendNewRequestsMorningEmails(deps),
    sendAppointmentReminders(deps),
    // Appointments standing with a dentist no longer verified, to their patient (ADR 093).
    sendDentistAwayEmails(deps),
    // Offers about to expire, to their patient (ADR 087), from 9:00 Paris.
    sendOfferExpiryReminders(deps),
    // Trials ending in 7 days (issue 35), once each.
    sendTrialEndingMails({ ...deps, clock: () => deps.now }),
    sendReviewInvitations(deps),
  ]);
}

/**
 * The e-mails due at the app's clock: unread messages (conversations and support), requests
 * addressed to a dentist by name (to him, and to their patients when he stops receiving requests),
 * the dentists' morning e-mail of new requests, offers about to expire (to their patient),
 * appointment reminders, appointments whose dentist is no longer verified (to their patient), and
 * review invitations (the day after an appointment); every minute. The same run lifts the
 * suspensions whose end has come (ADR 092's addendum) and removes the login and rate-limit counters
 * whose window has ended (indexed deletes).
 */
export async function runMailJobs(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "mail", async () => {
    const deps = { db: app.db, mailer: app.mailer, config: app.config, now: app.clock(), log: app.log };
    const done = () => true;
    const parts = await Promise.all([
      sendScheduledEmails(deps).then(done).catch(logFailure(app, "échec de l'envoi des e-mails programmés")),
      // Suspensions whose end day has come (ADR 092's addendum), each person told by e-mail.
      liftEndedSuspensions({ ...deps, clock: () => deps.now })
        .then(done)
        .catch(logFailure(app, "échec de la levée des suspensions arrivées à leur terme")),
      pruneLoginAttempts(app.db, deps.now)
        .then(done)
        .catch(logFailure(app, "échec du nettoyage des compteurs de connexion")),
      pruneRateLimitHits(app.db, deps.now)
        .then(done)
        .catch(logFailure(app, "échec du nettoyage des compteurs de limitation de débit")),
    ]);
    if (parts.every(Boolean)) app.metrics?.jobSucceeded("mail");
  }).catch(logFailure(app, "échec du lancement des e-mails programmés"));
}

/**
 * The daily retention run (modules/retention): server.ts calls this every hour; the first call
 * of each day, on whichever instance, does the work.
 */
export async function runDailyJobs(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "retention", async () => {
    const deps = {
      db: app.db,
      storage: app.storage,
      mailer: app.mailer,
      config: app.config,
      log: app.log,
      cancelSubscription: (dentistId: string) => app.billing.cancelForErasure(dentistId, app.log),
    };
    await runRetention(deps, app.clock());
    app.metrics?.jobSucceeded("retention");
  }).catch(logFailure(app, "échec de l'application des durées de conservation"));
}

/**
 * The daily reconciliation of the subscriptions (issue 35): every one the payment provider holds is
 * read again. server.ts calls this every hour; the first call of each day, on whichever instance,
 * does the work (job_runs), and the advisory lock keeps two instances from running it at once.
 */
export async function runBillingJobs(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "billing", async () => {
    await runDailyReconciliation({
      db: app.db,
      mailer: app.mailer,
      config: app.config,
      clock: app.clock,
      log: app.log,
      provider: () => app.billing.provider(),
    });
    app.metrics?.jobSucceeded("billing");
  }).catch(logFailure(app, "échec de la relecture des abonnements"));
}

/**
 * Files whose row never came (or went) and unfinished uploads: server.ts runs this at start-up,
 * then every six hours.
 */
export async function runSweeper(app: FastifyInstance): Promise<boolean> {
  return runExclusive(app, "sweeper", async () => {
    const removed = await sweepOrphanFiles(app.db, app.storage);
    if (removed > 0) app.log.info({ removed }, "fichiers orphelins supprimés");
    app.metrics?.jobSucceeded("sweeper");
  }).catch(logFailure(app, "échec du nettoyage des fichiers orphelins"));
}

/**
 * The embedded database's planner statistics and dead rows (ADR 095): PGlite runs no autovacuum, so
 * the tables PostgreSQL's defaults would analyse or vacuum are, one at a time. server.ts runs this at
 * start-up and every five minutes, on PGlite only (a PostgreSQL server has its autovacuum).
 */
export async function runEmbeddedUpkeep(app: FastifyInstance): Promise<boolean> {
  if (app.database.kind !== "pglite") return false;
  return maintainEmbeddedStatistics(app.db)
    .then((done) => {
      if (done.length > 0)
        app.log.info(
          {
            analysed: done.filter((t) => t.analyze).map((t) => t.table),
            vacuumed: done.filter((t) => t.vacuum).map((t) => t.table),
          },
          "base embarquée : statistiques et lignes mortes entretenues",
        );
      return true;
    })
    .catch(logFailure(app, "échec de l'entretien de la base embarquée"));
}
