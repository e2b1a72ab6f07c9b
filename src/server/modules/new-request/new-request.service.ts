import type { z } from "zod";
import { CONSENT_VERSION, consentText } from "../../../shared/domain/consent";
import { DOCUMENT_TYPES, type DocumentType, MAX_FILES_PER_REQUEST } from "../../../shared/domain/requests";
import { parisLocalToDate, parisToday } from "../../../shared/policies/offers";
import { emailPreferencesPath } from "../../../shared/schemas/profile";
import { quoteDateIssue, quoteLineIssues, resolveLine } from "../../../shared/schemas/quotes";
import { type requestFieldsSchema, UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import { holdOwnAccount } from "../../access/own-account";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, validationError } from "../../errors";
import { postalCodesWithin } from "../../geo/communes";
import type { FormRules } from "../../http/multipart";
import { type StoredFile, UPLOAD_CONTENT_TYPES } from "../../http/uploads";
import { groupedBy, type Mailer, sendEach } from "../../mail/mailer";
import { namedRequestsMail, newRequestsMorningMail, recipientAwayMail } from "../../mail/templates";
import { insertQuoteLines, linesTotal } from "../quotes/quotes.repo";
import { enqueueFirstQuote } from "../reading/reading.service";
import {
  newRequestRepo,
  systemNewRequestsToTell,
  systemSettleNamedRequestMails,
  systemSettleRecipientAwayMails,
} from "./new-request.repo";

/*
 * A patient's new request (ADR 031): the request and its documents (modules/requests' tables), the
 * lines of the devis typed with it (quotes) and, when none was typed, its devis queued for reading
 * (reading), in one transaction. It combines those modules, so it stands above them.
 */

/** A new request's fields, validated (requestFieldsSchema). */
export type NewRequest = z.output<typeof requestFieldsSchema>;

/**
 * A retry of a sending the server already saved (ADR 101): the request it created, which the route
 * answers again. Thrown so that the transaction and the files of the retry are undone.
 */
export class AlreadySent extends Error {
  constructor(readonly requestId: string) {
    super("demande déjà enregistrée pour cet envoi");
  }
}

/** The unique index of a patient's sendings (migration 066). */
const ONE_REQUEST_PER_SUBMISSION = "requests_submission_idx";

interface Deps {
  db: Db;
  /** The brand named in the consent's text. */
  brandName: string;
  clock: () => Date;
}

/** The multipart form of a new request: its fields and up to 10 documents (ADR 005). */
export function requestForm(patientId: string): FormRules {
  return {
    notMultipart: "La demande doit être envoyée en multipart/form-data.",
    fields: 20,
    files: {
      field: "files",
      max: MAX_FILES_PER_REQUEST,
      accepted: UPLOAD_CONTENT_TYPES,
      keyPrefix: patientId,
      tooLarge: UPLOAD_MESSAGES.fileTooLarge,
      badContent: UPLOAD_MESSAGES.fileContent,
      tooMany: UPLOAD_MESSAGES.tooManyFiles(MAX_FILES_PER_REQUEST),
      required: UPLOAD_MESSAGES.noFile,
    },
  };
}

/**
 * Creates the request and its documents (files already stored under `{patientId}/…`, see
 * requestForm) in one transaction, dated by the clock; the caller removes the files if this fails
 * (ReadForm.use). `queueReading: false` leaves a devis unread (the demo seed's sample files).
 */
export async function createRequest(
  deps: Deps,
  actor: Actor,
  input: NewRequest,
  stored: readonly StoredFile[],
  { queueReading = true }: { queueReading?: boolean } = {},
): Promise<string> {
  const now = deps.clock();
  // The patient's own devis: lines above a ceiling are flagged on screen, not refused.
  const day = input.quote_date ?? parisToday(now);
  const dateIssue = quoteDateIssue(day, parisToday(now));
  if (dateIssue) throw validationError([{ path: ["quote_date"], message: dateIssue }]);
  const quoteLines = input.quote_lines.map((line) => resolveLine(line, day));
  const lineIssues = quoteLineIssues(quoteLines, { refuseAboveCeiling: false, prefix: ["quote_lines"] });
  if (lineIssues.length > 0) throw validationError(lineIssues);
  const types = stored.map((_, i) => {
    const t = input.document_types[i];
    return (DOCUMENT_TYPES as readonly string[]).includes(t ?? "") ? (t as DocumentType) : "other";
  });

  const submissionId = input.submission_id;
  try {
    return await insertRequest(deps, actor, input, { stored, types, quoteLines, day, now, queueReading });
  } catch (error) {
    // A retry after the answer was lost (ADR 101), or the same sending twice at once: the unique
    // index refuses the second row; the request saved under that sending is the answer.
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (submissionId && code === "23505" && constraint === ONE_REQUEST_PER_SUBMISSION) {
      const sent = await newRequestRepo.submitted(deps.db, actor, submissionId);
      if (sent) throw new AlreadySent(sent);
    }
    throw error;
  }
}

/** What createRequest checked and worked out before writing: the files and their types, the lines. */
interface Prepared {
  stored: readonly StoredFile[];
  types: DocumentType[];
  quoteLines: ReturnType<typeof resolveLine>[];
  /** The devis's tariff day. */
  day: string;
  now: Date;
  queueReading: boolean;
}

/** The request, its documents and lines, and its devis queued for reading, in one transaction. */
async function insertRequest(
  deps: Deps,
  actor: Actor,
  input: NewRequest,
  { stored, types, quoteLines, day, now, queueReading }: Prepared,
): Promise<string> {
  return await deps.db.transaction().execute(async (trx) => {
    // Erased while the files were streaming (another tab, an administrator): signed out.
    await holdOwnAccount(trx, actor);
    let dentistName: string | null = null;
    if (input.recipient) {
      const name = await newRequestRepo.verifiedDentistName(trx, input.recipient, now);
      if (name === undefined) {
        throw new AppError(400, "VALIDATION_ERROR", UPLOAD_MESSAGES.recipientUnavailable, {
          recipient: UPLOAD_MESSAGES.recipientUnavailable,
        });
      }
      dentistName = name;
    }
    const id = await newRequestRepo.insert(trx, actor, {
      treatment_type: input.treatment_type,
      description: input.description,
      budget: input.budget,
      quote_amount_cents: quoteLines.length > 0 ? linesTotal(quoteLines) : input.quote_amount,
      quote_date: quoteLines.length > 0 ? day : null,
      urgency: input.urgency,
      recipient_dentist_id: input.recipient,
      // The consent as the form showed it (the same words, from the same function).
      consent_version: CONSENT_VERSION,
      consent_text: consentText({ brand: deps.brandName, dentistName }),
      submission_id: input.submission_id,
      created_at: now,
    });
    const documents = await newRequestRepo.insertDocuments(trx, actor, id, stored, types, now);
    await insertQuoteLines(trx, id, quoteLines);
    // No line typed: the devis is read in the background (issue 17), queued with the request's rows.
    if (queueReading) await enqueueFirstQuote(trx, id, documents, quoteLines.length);
    return id;
  });
}

/**
 * How long a request addressed by name waits before its dentist is e-mailed: one who has the product
 * open sees it arrive and opens it, and gets no e-mail (as for an unread message).
 */
export const NAMED_REQUEST_MAIL_DELAY_MS = 15 * 60 * 1000;

/** What the mail job gives: the database, the mailer, the settings, the run's time, a log. */
export interface NamedRequestMailDeps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * The mail job's e-mails about requests addressed by name (ADR 074): each dentist to tell gets one
 * e-mail for the requests settled in this run, which says how many and links to the request (or to
 * his list when there are several), never what they are about. A failed e-mail is logged (its error
 * only, never the address) and not sent again. Resolves to the number of e-mails sent.
 */
export async function sendNamedRequestEmails(deps: NamedRequestMailDeps): Promise<number> {
  const olderThan = new Date(deps.now.getTime() - NAMED_REQUEST_MAIL_DELAY_MS);
  const settled = await systemSettleNamedRequestMails(deps.db, deps.now, olderThan);
  return sendEach(
    deps,
    groupedBy(
      settled.filter((row) => row.tell),
      (row) => row.dentist_id,
    ),
    (requests) => {
      const [first] = requests;
      const path = requests.length === 1 ? `/dentist/quote-request/${first.id}` : "/dentist/quote-requests";
      return {
        to: first.email,
        ...namedRequestsMail({
          brandName: deps.config.brandName,
          firstName: first.first_name,
          count: requests.length,
          link: `${deps.config.publicUrl}${path}`,
        }),
      };
    },
    "e-mail de demande adressée au dentiste non envoyé",
  );
}

/**
 * The mail job's e-mails to patients whose chosen dentist no longer receives requests (ADR 080): one
 * e-mail per patient and dentist for the requests settled in this run, linking to the request (or to
 * the patient's list when there are several), never what it is about. A failed e-mail is logged (its
 * error only) and not sent again. Resolves to the number of e-mails sent.
 */
export async function sendRecipientAwayEmails(deps: NamedRequestMailDeps): Promise<number> {
  const settled = await systemSettleRecipientAwayMails(deps.db, deps.now);
  return sendEach(
    deps,
    groupedBy(settled, (row) => `${row.patient_id}:${row.dentist_id}`),
    (requests) => {
      const [first] = requests;
      const path = requests.length === 1 ? `/patient/request/${first.id}` : "/patient/requests";
      return {
        to: first.patient_email,
        ...recipientAwayMail({
          brandName: deps.config.brandName,
          firstName: first.patient_first_name,
          dentistName: first.dentist_name,
          count: requests.length,
          link: `${deps.config.publicUrl}${path}`,
        }),
      };
    },
    "e-mail au patient sur l'absence de son dentiste non envoyé",
  );
}

export const MORNING_MAIL_JOB = "new-requests-morning";
/** The morning e-mail goes from this time of day, Paris time (ADR 086). */
export const MORNING_MAIL_TIME = "08:00";

/**
 * The morning e-mail says how many of the requests come from patients within this distance of the
 * dentist's practice (ADR 086's addendum): one of the list's distance filters (ADR 094), the one a
 * patient would still travel for a crown or an implant.
 */
export const MORNING_MAIL_NEARBY_KM = 25;

/**
 * How many of these patients' postal codes are within `MORNING_MAIL_NEARBY_KM` of the practice, as
 * the list's filter keeps them (whole km, ADR 094); null when the practice has no point (nothing said).
 */
function nearbyCount(
  practicePostcode: string | null,
  patientCodes: readonly (string | null)[],
): number | null {
  const within = postalCodesWithin(practicePostcode, MORNING_MAIL_NEARBY_KM);
  if (!within) return null;
  const near = new Set(within);
  return patientCodes.filter((code) => code !== null && near.has(code)).length;
}

/**
 * The dentists' morning e-mail (ADR 086): the first mail-job run of the day at or after 8:00 Paris
 * time, on whichever instance, claims the day in job_runs; each dentist who receives requests and has
 * not stopped it is told how many requests sent to all dentists since the previous morning run (the
 * last 24 hours when there was none in the last 36) are still open and unopened by him, and how many
 * of them come from patients near his practice (`nearbyCount`) — nothing when there are none, never
 * what they are about. A failed e-mail is logged (its error only) and not sent again. Resolves
 * to the number of e-mails sent.
 */
export async function sendNewRequestsMorningEmails(deps: NamedRequestMailDeps): Promise<number> {
  const day = parisToday(deps.now);
  if (deps.now < parisLocalToDate(`${day}T${MORNING_MAIL_TIME}`)) return 0;
  const claimed = await deps.db
    .insertInto("job_runs")
    .values({ job: MORNING_MAIL_JOB, run_on: day, started_at: deps.now, details: "{}" })
    .onConflict((oc) => oc.doNothing())
    .returning("job")
    .executeTakeFirst();
  if (!claimed) return 0;
  const previous = await deps.db
    .selectFrom("job_runs")
    .select("started_at")
    .where("job", "=", MORNING_MAIL_JOB)
    .where("run_on", "<", day)
    .orderBy("run_on", "desc")
    .limit(1)
    .executeTakeFirst();
  // Since the previous morning's run; the last 24 hours when there was none in the last 36 (the first
  // run, or the service stopped for a day): the e-mail says « depuis hier ».
  const hour = 60 * 60 * 1000;
  const previousAt = previous ? new Date(previous.started_at) : null;
  const since =
    previousAt && previousAt.getTime() >= deps.now.getTime() - 36 * hour
      ? previousAt
      : new Date(deps.now.getTime() - 24 * hour);
  const dentists = await systemNewRequestsToTell(deps.db, since, deps.now);
  const base = deps.config.publicUrl;
  const sent = await sendEach(
    deps,
    dentists,
    (dentist) => ({
      to: dentist.email,
      ...newRequestsMorningMail({
        brandName: deps.config.brandName,
        firstName: dentist.firstName,
        count: dentist.patientPostalCodes.length,
        nearby: nearbyCount(dentist.practicePostcode, dentist.patientPostalCodes),
        nearbyKm: MORNING_MAIL_NEARBY_KM,
        link: `${base}/dentist/quote-requests?status=pending`,
        preferencesLink: `${base}${emailPreferencesPath("dentist")}`,
      }),
    }),
    "e-mail du matin des nouvelles demandes non envoyé",
  );
  await deps.db
    .updateTable("job_runs")
    .set({ finished_at: deps.now, details: JSON.stringify({ dentists: dentists.length, sent }) })
    .where("job", "=", MORNING_MAIL_JOB)
    .where("run_on", "=", day)
    .execute();
  return sent;
}
