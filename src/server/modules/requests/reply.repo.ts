import { sql, type Transaction } from "kysely";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import { requestVisibleToDentist } from "../../access/requests";
import type { Database } from "../../db/types";
import { notFound } from "../../errors";
import type { RecordedReply } from "./request.events";

/**
 * The writes of a dentist's reply, shared by a reply and an offer, inside the caller's
 * transaction (the services, reply.service and offers.service, own the transaction and the e-mail).
 */

/**
 * Finds a request this dentist may see (ADR 012) and locks this dentist's own row on it, creating it if
 * needed: concurrent replies or offers by the same dentist (a double click) run one after the
 * other; different dentists never wait for each other. 404 when the request is not visible.
 */
export async function lockRequestForDentist(
  trx: Transaction<Database>,
  requestId: string,
  dentistId: string,
  limited = false,
) {
  const request = await trx
    .selectFrom("requests as r")
    .innerJoin("profiles as p", "p.id", "r.patient_id")
    .select([
      "r.id",
      "r.patient_id",
      "r.status",
      "r.treatment_type",
      "p.email as patient_email",
      "p.first_name as patient_first_name",
    ])
    .where("r.id", "=", requestId)
    .where((eb) => requestVisibleToDentist(eb, dentistId, limited))
    .executeTakeFirst();
  if (!request) throw notFound(DENTIST_MESSAGES.notFound);
  await trx
    .insertInto("request_dentists")
    .values({ request_id: requestId, dentist_id: dentistId })
    .onConflict((oc) => oc.columns(["request_id", "dentist_id"]).doNothing())
    .execute();
  const mine = await trx
    .selectFrom("request_dentists")
    .select("status")
    .where("request_id", "=", requestId)
    .where("dentist_id", "=", dentistId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { request, mine: { status: mine.status as DentistStatus } };
}

/**
 * What a reply and an offer both do (ADR 007), inside the caller's transaction, after it has
 * locked this dentist's row: this dentist's status becomes 'Répondu' (a confirmed one stays
 * confirmed), the request 'En cours' for the patient, and the message opens (or continues) the
 * conversation between them about this request. Returns the conversation and the message, for
 * their live announcement after the commit (request.events.ts). Each caller e-mails the patient about
 * this message, so it counts as her last e-mail about the conversation: the unread-messages e-mail
 * (conversations.service) does not tell of it again, and waits its hour for newer ones.
 */
export async function recordReply(
  trx: Transaction<Database>,
  p: { requestId: string; dentistId: string; patientId: string; message: string; now: Date },
): Promise<RecordedReply> {
  await trx
    .updateTable("request_dentists")
    .set({
      status: sql`case when status = 'pending' then 'responded' else status end`,
      replied_at: sql`coalesce(replied_at, ${p.now})`,
      opened_at: sql`coalesce(opened_at, ${p.now})`,
      // Replying to a request not yet taken on assigns it first.
      assigned_at: sql`coalesce(assigned_at, ${p.now})`,
      updated_at: p.now,
    })
    .where("request_id", "=", p.requestId)
    .where("dentist_id", "=", p.dentistId)
    .execute();
  await trx
    .updateTable("requests")
    .set({ status: "in_review", updated_at: p.now })
    .where("id", "=", p.requestId)
    .where("status", "=", "new")
    .execute();
  const conversation = await trx
    .insertInto("conversations")
    .values({
      request_id: p.requestId,
      patient_id: p.patientId,
      dentist_id: p.dentistId,
      last_message_at: p.now,
      patient_notified_at: p.now,
    })
    .onConflict((oc) =>
      oc
        .columns(["request_id", "dentist_id"])
        .doUpdateSet({ last_message_at: p.now, patient_notified_at: p.now }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  const message = await trx
    .insertInto("messages")
    .values({ conversation_id: conversation.id, sender_id: p.dentistId, body: p.message, created_at: p.now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return {
    requestId: p.requestId,
    conversationId: conversation.id,
    messageId: message.id,
    patientId: p.patientId,
    dentistId: p.dentistId,
  };
}
