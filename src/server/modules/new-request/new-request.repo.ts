import type { Transaction } from "kysely";
import type { DocumentType, Urgency } from "../../../shared/domain/requests";
import type { TreatmentType } from "../../../shared/domain/treatments";
import type { Actor } from "../../access/actor";
import { addressableDentist } from "../../access/subscription";
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
