import { sql } from "kysely";
import type { AppConfig } from "../config";
import type { Db } from "../db/index";
import type { Mailer } from "../mail/mailer";
import { unreadMessagesMail } from "../mail/templates";
import type { EventBus } from "../realtime/bus";
import { loggableError } from "../redact";
import type { Storage } from "../storage/storage";

/*
 * What the two chats (patient ↔ dentist conversations, the support thread with the team) share to
 * tell people about a message: live events, best effort, and the e-mail about messages left unread.
 */

/** What a chat's writes take (a message and its files, then its live event): both chats' services. */
export interface ChatDeps {
  db: Db;
  storage: Storage;
  bus: EventBus;
  clock: () => Date;
}

/** Live delivery is best effort: the message is saved, and clients resynchronise on reconnect. */
export async function publishQuietly(bus: EventBus, event: Parameters<EventBus["publish"]>[0]) {
  try {
    await bus.publish(event);
  } catch {
    // Logged by the bus; the write already succeeded.
  }
}

export const UNREAD_EMAIL_DELAY_MS = 15 * 60 * 1000;
export const UNREAD_EMAIL_INTERVAL_MS = 60 * 60 * 1000;

/** What an unread-messages job needs: the database, the mailer, the settings, the run's time, a log. */
export interface UnreadMailDeps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * The run's two limits: messages unread for 15 minutes (`olderThan`) are e-mailed about, at most
 * once an hour (the last e-mail sent before `lastMailBefore`).
 */
export function unreadMailWindow(now: Date) {
  return {
    olderThan: new Date(now.getTime() - UNREAD_EMAIL_DELAY_MS),
    lastMailBefore: new Date(now.getTime() - UNREAD_EMAIL_INTERVAL_MS),
  };
}

/**
 * A claim's two conditions on the column holding the last e-mail sent about a thread (`notified`,
 * e.g. "c.patient_notified_at"): the recipient may be e-mailed again (never yet, or not within the
 * hour), and the message `m` came after that e-mail (any message when none was sent).
 */
export function mailClaim(notified: string, lastMailBefore: Date) {
  const last = sql.ref(notified);
  return {
    due: sql<boolean>`(${last} is null or ${last} <= ${lastMailBefore})`,
    newerThanMail: sql<boolean>`(${last} is null or m.created_at > ${last})`,
  };
}

/**
 * Sends one "unread messages" e-mail; a failure is logged (its message only, never the address)
 * and reported as false, so that the job goes on with the next person.
 */
export async function sendUnreadMail(
  deps: UnreadMailDeps,
  to: { email: string; first_name: string },
  mail: { fromName: string; path: string; preferencesPath?: string },
  failure: string,
): Promise<boolean> {
  try {
    await deps.mailer.send({
      to: to.email,
      ...unreadMessagesMail({
        brandName: deps.config.brandName,
        firstName: to.first_name,
        fromName: mail.fromName,
        link: `${deps.config.publicUrl}/${mail.path}`,
        preferencesLink: mail.preferencesPath && `${deps.config.publicUrl}${mail.preferencesPath}`,
      }),
    });
    return true;
  } catch (error) {
    deps.log.error({ err: loggableError(error) }, failure);
    return false;
  }
}
