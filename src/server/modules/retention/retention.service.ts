import { sql } from "kysely";
import { RETENTION, retentionCutoffs } from "../../../shared/domain/retention";
import { formatDetailDate } from "../../../shared/format/dates";
import type { RetentionPreview } from "../../../shared/schemas/admin";
import { writeAudit } from "../../access/audit";
import type { AppConfig } from "../../config";
import { readingTextKeys } from "../../db/file-keys";
import type { Db } from "../../db/index";
import type { Mailer } from "../../mail/mailer";
import { inactivityWarningMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import type { Storage } from "../../storage/storage";
import { eraseAccount } from "../security/erasure.service";

/*
 * Retention, enforced (issue 14): the periods are in shared/domain/retention.ts, which the privacy
 * page states. Once a day the job erases what is due — contact messages and their files, the
 * documents of long-cancelled requests, access-history and audit rows past their period — and
 * warns by e-mail the owners of accounts about to become due for inactivity. The database work is
 * one transaction; files are removed after the commit (a removal that fails leaves an orphan file
 * that the storage sweeper removes, since no row names it any more).
 */

export interface RetentionDeps {
  db: Db;
  storage: Storage;
  mailer: Mailer;
  config: AppConfig;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** An inactive dentist's live subscription is cancelled at the provider before his erasure (ErasureDeps). */
  cancelSubscription?: (dentistId: string) => Promise<boolean>;
}

export const RETENTION_JOB = "retention";

const LABELS: Record<RetentionPreview["items"][number]["kind"], string> = {
  contact: "Messages du formulaire de contact (et leurs fichiers)",
  cancelled_documents: "Documents de demandes annulées",
  access_log: "Lignes du journal des accès aux données de santé",
  audit_log: "Lignes du journal d'administration",
  inactivity_warning: "Comptes inactifs à prévenir par e-mail",
  inactive_erasure: "Comptes inactifs prévenus, à supprimer",
  reviews: "Avis dont le rendez-vous a plus de 3 ans",
  refused_reviews: "Avis refusés depuis plus de 90 jours",
};

/** Reviews due (issue 36): past their years online, or refused long enough ago. */
function dueReviews(db: Db, due: ReturnType<typeof retentionCutoffs>) {
  return {
    old: db.selectFrom("reviews").where("appointment_starts_at", "<", due.reviews),
    refused: db
      .selectFrom("reviews")
      .where("status", "=", "refused")
      .where("decided_at", "<", due.refusedReviews),
  };
}

/** Accounts not signed in since `before`: never an administrator, never one already erased. */
function inactiveSince(db: Db, before: Date) {
  return db
    .selectFrom("profiles")
    .where("last_seen_at", "<", before)
    .where("is_admin", "=", false)
    .where("erased_at", "is", null);
}

/** Accounts due for the inactivity e-mail: not warned since their last sign-in. */
function inactiveToWarn(db: Db, before: Date) {
  return inactiveSince(db, before).where("inactivity_warned_at", "is", null);
}

/**
 * Accounts due for erasure: inactive for the whole period and warned at least the notice period ago
 * (a sign-in since then clears the warning).
 */
function inactiveToErase(db: Db, now: Date, before: Date) {
  const warnedBefore = new Date(now.getTime() - RETENTION.inactivityWarningDays * 86_400_000);
  return inactiveSince(db, before).where("inactivity_warned_at", "<=", warnedBefore);
}

/** What a run at `now` would erase or send, counted (the admin page). */
export async function retentionPreview(db: Db, now: Date): Promise<RetentionPreview> {
  const due = retentionCutoffs(now);
  const count = sql<number>`count(*)::int`.as("n");
  const reviewsDue = dueReviews(db, due);
  const [contact, documents, access, audit, warn, erase, last, oldReviews, refusedReviews] =
    await Promise.all([
      db
        .selectFrom("contact_submissions")
        .select(count)
        .where(sql<boolean>`coalesce(handled_at, created_at) < ${due.contact}`)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("documents as d")
        .innerJoin("requests as r", "r.id", "d.request_id")
        .select(count)
        .where("r.status", "=", "cancelled")
        .where("r.cancelled_at", "<", due.cancelledDocuments)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("document_access")
        .select(count)
        .where("created_at", "<", due.logs)
        .executeTakeFirstOrThrow(),
      db.selectFrom("audit_log").select(count).where("created_at", "<", due.logs).executeTakeFirstOrThrow(),
      inactiveToWarn(db, due.inactiveWarn).select(count).executeTakeFirstOrThrow(),
      inactiveToErase(db, now, due.inactiveErase).select(count).executeTakeFirstOrThrow(),
      db
        .selectFrom("job_runs")
        .select("started_at")
        .where("job", "=", RETENTION_JOB)
        .orderBy("run_on", "desc")
        .limit(1)
        .executeTakeFirst(),
      reviewsDue.old.select(count).executeTakeFirstOrThrow(),
      reviewsDue.refused.select(count).executeTakeFirstOrThrow(),
    ]);
  const ranToday = last !== undefined && dayOf(new Date(last.started_at)) === dayOf(now);
  const nextRun = ranToday ? new Date(now.getTime() + 86_400_000) : now;
  const item = (kind: keyof typeof LABELS, n: number, before: Date) => ({
    kind,
    label: LABELS[kind],
    count: Number(n),
    before: before.toISOString(),
  });
  return {
    next_run_on: dayOf(nextRun),
    last_run_at: last ? new Date(last.started_at).toISOString() : null,
    items: [
      item("contact", contact.n, due.contact),
      item("cancelled_documents", documents.n, due.cancelledDocuments),
      item("access_log", access.n, due.logs),
      item("audit_log", audit.n, due.logs),
      item("inactivity_warning", warn.n, due.inactiveWarn),
      item("inactive_erasure", erase.n, due.inactiveErase),
      item("reviews", oldReviews.n, due.reviews),
      item("refused_reviews", refusedReviews.n, due.refusedReviews),
    ],
  };
}

/** The UTC day of a date, 'YYYY-MM-DD': the unit of the daily job. */
function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface RetentionRun {
  ran: boolean;
  contact: number;
  documents: number;
  accessRows: number;
  auditRows: number;
  warned: number;
  erasedAccounts: number;
  reviews: number;
}

/**
 * The daily run. Several instances may call it at once: the one that inserts (job, day) runs, the
 * others return `ran: false`. Returns what it erased (counts only: the log keeps no personal data).
 */
export async function runRetention(deps: RetentionDeps, now: Date): Promise<RetentionRun> {
  const { db } = deps;
  const claimed = await db
    .insertInto("job_runs")
    .values({ job: RETENTION_JOB, run_on: dayOf(now), started_at: now, details: "{}" })
    .onConflict((oc) => oc.doNothing())
    .returning("job")
    .executeTakeFirst();
  if (!claimed)
    return {
      ran: false,
      contact: 0,
      documents: 0,
      accessRows: 0,
      auditRows: 0,
      warned: 0,
      erasedAccounts: 0,
      reviews: 0,
    };

  const due = retentionCutoffs(now);
  const { keys, ...erased } = await db.transaction().execute(async (trx) => {
    const contacts = await trx
      .deleteFrom("contact_submissions")
      .where(sql<boolean>`coalesce(handled_at, created_at) < ${due.contact}`)
      .returning("file_key")
      .execute();
    const expired = trx
      .selectFrom("requests")
      .select("id")
      .where("status", "=", "cancelled")
      .where("cancelled_at", "<", due.cancelledDocuments);
    // The texts read from their devis (issue 17): the rows go with the documents.
    const readingTexts = await readingTextKeys(trx, "request_id", expired);
    const documents = await trx
      .deleteFrom("documents")
      .where("request_id", "in", expired)
      .returning("storage_key")
      .execute();
    const access = await trx
      .deleteFrom("document_access")
      .where("created_at", "<", due.logs)
      .executeTakeFirst();
    const audit = await trx.deleteFrom("audit_log").where("created_at", "<", due.logs).executeTakeFirst();
    const reviews = await trx
      .deleteFrom("reviews")
      .where((eb) =>
        eb.or([
          eb("appointment_starts_at", "<", due.reviews),
          eb.and([eb("status", "=", "refused"), eb("decided_at", "<", due.refusedReviews)]),
        ]),
      )
      .executeTakeFirst();
    const result = {
      reviews: Number(reviews.numDeletedRows),
      contact: contacts.length,
      documents: documents.length,
      accessRows: Number(access.numDeletedRows),
      auditRows: Number(audit.numDeletedRows),
    };
    await writeAudit(trx, {
      actorId: null,
      action: "retention.run",
      subjectType: RETENTION_JOB,
      subjectId: null,
      details: result,
      at: now,
    });
    return {
      ...result,
      keys: [
        ...contacts.map((c) => c.file_key),
        ...documents.map((d) => d.storage_key),
        ...readingTexts,
      ].filter((key): key is string => key !== null),
    };
  });
  for (const key of keys)
    await deps.storage.remove(key).catch((error) => {
      deps.log.error({ err: loggableError(error) }, "fichier expiré non supprimé (le balayage le reprendra)");
    });

  const erasedAccounts = await eraseInactiveAccounts(deps, now, due.inactiveErase);
  const warned = await warnInactiveAccounts(deps, now, due.inactiveWarn);
  const run = { ran: true, ...erased, warned, erasedAccounts };
  await db
    .updateTable("job_runs")
    .set({ finished_at: new Date(), details: JSON.stringify(run) })
    .where("job", "=", RETENTION_JOB)
    .where("run_on", "=", dayOf(now))
    .execute();
  deps.log.info({ retention: run }, "conservation des données appliquée");
  return run;
}

/** Erases the accounts warned and still inactive at the end of the period (modules/security/erasure.service.ts). */
async function eraseInactiveAccounts(deps: RetentionDeps, now: Date, before: Date): Promise<number> {
  const people = await inactiveToErase(deps.db, now, before).select("id").limit(200).execute();
  let erased = 0;
  for (const person of people) {
    try {
      await eraseAccount(
        {
          db: deps.db,
          storage: deps.storage,
          mailer: deps.mailer,
          brandName: deps.config.brandName,
          now,
          log: deps.log,
          ...(deps.cancelSubscription ? { cancelSubscription: deps.cancelSubscription } : {}),
        },
        person.id,
        "retention",
      );
      erased += 1;
    } catch (error) {
      // A confirmed appointment to come (409): the account waits for the next run.
      deps.log.error({ err: loggableError(error) }, "compte inactif non supprimé (nouvel essai demain)");
    }
  }
  return erased;
}

/** E-mails the owners of accounts that become due for inactivity, once per absence. */
async function warnInactiveAccounts(deps: RetentionDeps, now: Date, before: Date): Promise<number> {
  const people = await inactiveToWarn(deps.db, before)
    .select(["id", "email", "first_name", "role", "last_seen_at", "suspended_at"])
    .orderBy("last_seen_at")
    .limit(500)
    .execute();
  let warned = 0;
  for (const person of people) {
    const erasedOn = new Date(new Date(person.last_seen_at).getTime());
    erasedOn.setUTCFullYear(erasedOn.getUTCFullYear() + RETENTION.inactiveAccountYears);
    const loginPath = person.role === "dentist" ? "/dentist/login" : "/login";
    // Marked first, so two runs never send it twice; unmarked again if the e-mail could not go.
    const marked = await deps.db
      .updateTable("profiles")
      .set({ inactivity_warned_at: now })
      .where("id", "=", person.id)
      .where("inactivity_warned_at", "is", null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) continue;
    try {
      await deps.mailer.send({
        to: person.email,
        ...inactivityWarningMail({
          brandName: deps.config.brandName,
          firstName: person.first_name,
          erasedOn: formatDetailDate(erasedOn < now ? now : erasedOn),
          loginLink: new URL(loginPath, deps.config.publicUrl).href,
          // Suspended (ADR 092): signing in would not keep it; the team can be written to.
          ...(person.suspended_at === null
            ? {}
            : { suspended: { contactLink: new URL("/contact", deps.config.publicUrl).href } }),
        }),
      });
      warned += 1;
    } catch (error) {
      deps.log.error({ err: loggableError(error) }, "e-mail d'inactivité non envoyé (nouvel essai demain)");
      await deps.db
        .updateTable("profiles")
        .set({ inactivity_warned_at: null })
        .where("id", "=", person.id)
        .execute();
    }
  }
  return warned;
}
