import { sql, type Transaction } from "kysely";
import type { DocumentType, Urgency } from "../../../shared/domain/requests";
import type { TreatmentType } from "../../../shared/domain/treatments";
import type { Actor } from "../../access/actor";
import { OPEN_REQUEST_STATUSES } from "../../access/rules";
import { addressableDentist } from "../../access/subscription";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import type { StoredFile } from "../../http/uploads";

type Trx = Transaction<Database>;

/**
 * The writes of a new request, inside the caller's transaction (new-request.service owns it): the
 * request and its documents belong to the patient who sends them.
 */
export const newRequestRepo = {
  /**
   * The full name of a dentist a request may be addressed to at `now` — verified, and taking new
   * requests (his trial or subscription not lapsed: a limited dentist never sees it) — or undefined.
   */
  async verifiedDentistName(trx: Trx, id: string, now: Date): Promise<string | undefined> {
    const dentist = await trx
      .selectFrom("profiles")
      .select(["id", "full_name"])
      .where("id", "=", id)
      .where((eb) => addressableDentist(eb, now))
      .executeTakeFirst();
    return dentist?.full_name;
  },

  async insert(
    trx: Trx,
    actor: Actor,
    values: {
      treatment_type: TreatmentType;
      description: string;
      budget: string;
      quote_amount_cents: number | null;
      quote_date: string | null;
      urgency: Urgency;
      recipient_dentist_id: string | null;
      consent_version: string;
      consent_text: string;
      submission_id: string | null;
      created_at: Date;
    },
  ): Promise<string> {
    const row = await trx
      .insertInto("requests")
      // The consent is given as the request is sent: the same instant, not the database's own clock.
      .values({
        ...values,
        updated_at: values.created_at,
        consent_at: values.created_at,
        patient_id: actor.userId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  },

  /** The patient's own request saved under this sending of the form (ADR 101), if any. */
  async submitted(db: Db, actor: Actor, submissionId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom("requests")
      .select("id")
      .where("patient_id", "=", actor.userId)
      .where("submission_id", "=", submissionId)
      .executeTakeFirst();
    return row?.id;
  },

  /** The stored files as the request's documents, in the order sent, each with its type. */
  insertDocuments(
    trx: Trx,
    actor: Actor,
    requestId: string,
    files: readonly StoredFile[],
    types: DocumentType[],
    createdAt: Date,
  ) {
    // A request without a file (the demo's history, issue 36): no insert of no rows.
    if (files.length === 0) return Promise.resolve([]);
    return trx
      .insertInto("documents")
      .values(
        files.map((file, i) => ({
          request_id: requestId,
          owner_id: actor.userId,
          storage_key: file.key,
          file_name: file.name,
          size: file.size,
          mime_type: file.mime,
          document_type: types[i] ?? "other",
          position: i,
          created_at: createdAt,
        })),
      )
      .returning(["id", "document_type", "mime_type", "position"])
      .execute();
  },
};

/** SQL: the request `r` is open (new, or being answered). */
const openRequest = sql<boolean>`r.status in (${sql.join(OPEN_REQUEST_STATUSES.map((status) => sql.lit(status)))})`;

/**
 * The mail job's part (ADR 074): settles the requests addressed by name, sent before `olderThan`, that
 * are still to settle, and returns them with whether their dentist is to be told — the request still
 * open and not yet opened by him. One that is closed, or that he opened, is settled with nothing to
 * tell. One still open and unopened whose dentist is not verified (D6) or no longer taking new
 * requests (issue 35) stays to settle: he is told once he is again. One statement, so that two
 * instances never tell twice.
 */
export async function systemSettleNamedRequestMails(db: Db, now: Date, olderThan: Date) {
  const opened = sql<boolean>`exists (select 1 from request_dentists rd
    where rd.request_id = r.id and rd.dentist_id = r.recipient_dentist_id and rd.opened_at is not null)`;
  return db
    .updateTable("requests as r")
    .from("profiles")
    .set({ recipient_mailed_at: now })
    .whereRef("profiles.id", "=", "r.recipient_dentist_id")
    .where("r.recipient_mailed_at", "is", null)
    .where("r.created_at", "<=", olderThan)
    .where((eb) => eb.or([eb.not(openRequest), opened, addressableDentist(eb, now)]))
    .returning([
      "r.id",
      "profiles.id as dentist_id",
      "profiles.email",
      "profiles.first_name",
      sql<boolean>`(${openRequest} and not ${opened})`.as("tell"),
    ])
    .execute();
}

/**
 * The mail job's part of ADR 080: the open requests addressed by name whose dentist no longer receives
 * requests (verification withdrawn, D6; trial or subscription lapsed, issue 35) and whose patient has
 * not been told, marked as told and returned with whom to tell (the patient's address and name). First, those whose dentist receives
 * requests again lose their mark, so that a later absence is told too. Each is one statement, so that
 * two instances never tell twice.
 */
export async function systemSettleRecipientAwayMails(db: Db, now: Date) {
  await db
    .updateTable("requests as r")
    .from("profiles")
    .set({ recipient_away_mailed_at: null })
    .whereRef("profiles.id", "=", "r.recipient_dentist_id")
    .where("r.recipient_away_mailed_at", "is not", null)
    .where((eb) => addressableDentist(eb, now))
    .execute();
  return db
    .updateTable("requests as r")
    .from(["profiles", "profiles as patient"])
    .set({ recipient_away_mailed_at: now })
    .whereRef("profiles.id", "=", "r.recipient_dentist_id")
    .whereRef("patient.id", "=", "r.patient_id")
    .where("r.recipient_away_mailed_at", "is", null)
    .where(openRequest)
    .where((eb) => eb.not(addressableDentist(eb, now)))
    .returning([
      "r.id",
      "r.patient_id",
      "patient.email as patient_email",
      sql<string>`coalesce(nullif(patient.first_name, ''), patient.full_name)`.as("patient_first_name"),
      "profiles.id as dentist_id",
      sql<string>`coalesce(nullif(profiles.full_name, ''), 'Dentiste')`.as("dentist_name"),
    ])
    .execute();
}

/**
 * The morning e-mail's part (ADR 086): every dentist who receives requests at `now` (verified, taking
 * new requests) and has not stopped the e-mail, with the requests sent to all dentists in `(since,
 * now]` that are still open and that he has neither opened, answered nor set aside — as their patients'
 * postal codes, one per request (null when she gave none), never more of them. Dentists with none are
 * left out. Named requests are told apart (ADR 074), never counted here.
 */
export async function systemNewRequestsToTell(db: Db, since: Date, now: Date) {
  const rows = await db
    .selectFrom("profiles")
    .select((eb) => [
      "profiles.id",
      "profiles.email",
      "profiles.first_name",
      "profiles.practice_postcode",
      // The patients' postal codes, one per request (null: none given), for how many live near him.
      eb
        .selectFrom("requests as r")
        .innerJoin("profiles as patient", "patient.id", "r.patient_id")
        .select(sql<(string | null)[]>`coalesce(json_agg(patient.postal_code), '[]'::json)`.as("codes"))
        .where("r.recipient_dentist_id", "is", null)
        .where(openRequest)
        .where("r.created_at", ">", since)
        .where("r.created_at", "<=", now)
        .where((inner) =>
          inner.not(
            inner.exists(
              inner
                .selectFrom("request_dentists as rd")
                .select(sql.lit(1).as("one"))
                .whereRef("rd.request_id", "=", "r.id")
                .whereRef("rd.dentist_id", "=", "profiles.id")
                // Opened, answered, or set aside without opening it (ADR 091).
                .where((seen) =>
                  seen.or([
                    seen("rd.opened_at", "is not", null),
                    seen("rd.status", "<>", "pending"),
                    seen("rd.set_aside_at", "is not", null),
                  ]),
                ),
            ),
          ),
        )
        .as("patient_postal_codes"),
    ])
    .where("profiles.email_new_requests", "=", true)
    .where((eb) => addressableDentist(eb, now))
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      practicePostcode: row.practice_postcode,
      patientPostalCodes: row.patient_postal_codes ?? [],
    }))
    .filter((row) => row.patientPostalCodes.length > 0);
}
