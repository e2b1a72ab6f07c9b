import type { FastifyInstance } from "fastify";
import { loggableError } from "./errors";
import { pruneLoginAttempts } from "./modules/account/login-throttle";
import { sendAppointmentReminders } from "./modules/appointments/appointments.service";
import { sendUnreadEmails } from "./modules/conversations/conversations.service";
import { runRetention } from "./modules/retention/retention.service";
import { sendSupportUnreadEmails } from "./modules/support/support.service";

/**
 * The e-mails due at the app's clock: unread messages (conversations and support) and
 * appointment reminders. Their state is in the database, so the one-minute timer of server.ts
 * can stop, restart or run on several instances without repeating or forgetting one. The same
 * timer removes the login counters whose window has ended (one indexed delete).
 */
export async function runMailJobs(app: FastifyInstance): Promise<void> {
  const deps = { db: app.db, mailer: app.mailer, config: app.config, now: app.clock(), log: app.log };
  await Promise.all([
    Promise.all([
      sendUnreadEmails(deps),
      sendSupportUnreadEmails(deps),
      sendAppointmentReminders(deps),
    ]).catch((error) =>
      app.log.error({ err: loggableError(error) }, "échec de l'envoi des e-mails programmés"),
    ),
    pruneLoginAttempts(app.db, deps.now).catch((error) =>
      app.log.error({ err: loggableError(error) }, "échec du nettoyage des compteurs de connexion"),
    ),
  ]);
}

/**
 * The daily retention run (modules/retention): server.ts calls this every hour; the first call
 * of each day, on whichever instance, does the work.
 */
export async function runDailyJobs(app: FastifyInstance): Promise<void> {
  const deps = { db: app.db, storage: app.storage, mailer: app.mailer, config: app.config, log: app.log };
  await runRetention(deps, app.clock()).catch((error) =>
    app.log.error({ err: loggableError(error) }, "échec de l'application des durées de conservation"),
  );
}
