import { sql, type Transaction } from "kysely";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { mayReply, REPLY_REFUSED } from "../../../shared/policies/replies";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import type { Actor } from "../../access/actor";
import { requestVisibleToDentist } from "../../access/requests";
import { isVerifiedDentist } from "../../access/rules";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import { AppError, notFound } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import { dentistReplyMail } from "../../mail/templates";

interface Deps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  log: { error(obj: object, msg: string): void };
}

/**
 * A dentist's reply (spec §4, D7, D13), in one transaction: this dentist's status becomes
 * 'Répondu' (refused with 409 unless it was pending), the request 'En cours' for the patient, and
 * the reply becomes a message of the conversation between them about this request. The patient is
 * told by e-mail once it is saved.
 */
export async function replyToRequest(deps: Deps, actor: Actor, requestId: string, message: string) {
  const me = actor.userId;
  if (!isVerifiedDentist(actor.profile)) throw notFound(DENTIST_MESSAGES.notFound);
  const result = await deps.db.transaction().execute(async (trx) => {
    const { request, mine } = await lockRequestForDentist(trx, requestId, me);
    if (!mayReply(mine.status)) throw new AppError(409, "CONFLICT", REPLY_REFUSED);

    const conversationId = await recordReply(trx, {
      requestId,
      dentistId: me,
      patientId: request.patient_id,
      message,
      now: new Date(),
    });
    return { conversationId, request };
  });

  // After the commit, and never failing the reply: the patient is told (D15).
  const link = `${deps.config.publicUrl}/patient/request/${requestId}`;
  deps.mailer
    .send({
      to: result.request.patient_email,
      ...dentistReplyMail({
        brandName: deps.config.brandName,
        firstName: result.request.patient_first_name,
        dentistName: actor.profile.full_name,
        link,
      }),
    })
    .catch((error) =>
      deps.log.error({ err: { message: (error as Error).message } }, "e-mail de réponse non envoyé"),
    );
  return { conversationId: result.conversationId };
}

/**
 * Finds a request this dentist may see (D6) and locks this dentist's own row on it, creating it if
 * needed: concurrent replies or offers by the same dentist (a double click) run one after the
 * other; different dentists never wait for each other. 404 when the request is not visible.
 */
export async function lockRequestForDentist(
  trx: Transaction<Database>,
  requestId: string,
  dentistId: string,
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
    .where((eb) => requestVisibleToDentist(eb, dentistId))
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
 * What a reply and an offer both do (D7, D8, D13), inside the caller's transaction, after it has
 * locked this dentist's row: this dentist's status becomes 'Répondu' (a confirmed one stays
 * confirmed), the request 'En cours' for the patient, and the message opens (or continues) the
 * conversation between them about this request. Returns the conversation's id.
 */
export async function recordReply(
  trx: Transaction<Database>,
  p: { requestId: string; dentistId: string; patientId: string; message: string; now: Date },
): Promise<string> {
  await trx
    .updateTable("request_dentists")
    .set({
      status: sql`case when status = 'pending' then 'responded' else status end`,
      replied_at: sql`coalesce(replied_at, ${p.now})`,
      opened_at: sql`coalesce(opened_at, ${p.now})`,
      // Spec §4: replying to a request not yet taken on assigns it first.
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
    })
    .onConflict((oc) => oc.columns(["request_id", "dentist_id"]).doUpdateSet({ last_message_at: p.now }))
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("messages")
    .values({ conversation_id: conversation.id, sender_id: p.dentistId, body: p.message, created_at: p.now })
    .execute();
  return conversation.id;
}
