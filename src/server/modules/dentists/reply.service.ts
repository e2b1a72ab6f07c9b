import { sql } from "kysely";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { mayReply, REPLY_REFUSED } from "../../../shared/policies/replies";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, notFound } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import { dentistReplyMail } from "../../mail/templates";
import type { Actor } from "../../session";
import { visibleToDentist } from "../requests/requests.repo";

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
  if (!(actor.profile.role === "dentist" && actor.profile.is_verified))
    throw notFound(DENTIST_MESSAGES.notFound);
  const result = await deps.db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .select([
        "r.id",
        "r.patient_id",
        "r.treatment_type",
        "p.email as patient_email",
        "p.first_name as patient_first_name",
      ])
      .where("r.id", "=", requestId)
      .where((eb) => visibleToDentist(eb, me))
      .executeTakeFirst();
    if (!request) throw notFound(DENTIST_MESSAGES.notFound);

    await trx
      .insertInto("request_dentists")
      .values({ request_id: requestId, dentist_id: me })
      .onConflict((oc) => oc.columns(["request_id", "dentist_id"]).doNothing())
      .execute();
    // Locks this dentist's row: a double click waits here, then finds 'responded'.
    const mine = await trx
      .selectFrom("request_dentists")
      .select("status")
      .where("request_id", "=", requestId)
      .where("dentist_id", "=", me)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!mayReply(mine.status as DentistStatus)) throw new AppError(409, "CONFLICT", REPLY_REFUSED);

    const now = new Date();
    await trx
      .updateTable("request_dentists")
      .set({
        status: "responded",
        replied_at: now,
        opened_at: sql`coalesce(opened_at, now())`,
        // Spec §4: replying to a request not yet taken on assigns it first.
        assigned_at: sql`coalesce(assigned_at, now())`,
        updated_at: now,
      })
      .where("request_id", "=", requestId)
      .where("dentist_id", "=", me)
      .execute();
    await trx
      .updateTable("requests")
      .set({ status: "in_review", updated_at: now })
      .where("id", "=", requestId)
      .where("status", "=", "new")
      .execute();
    const conversation = await trx
      .insertInto("conversations")
      .values({ request_id: requestId, patient_id: request.patient_id, dentist_id: me, last_message_at: now })
      .onConflict((oc) => oc.columns(["request_id", "dentist_id"]).doUpdateSet({ last_message_at: now }))
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("messages")
      .values({ conversation_id: conversation.id, sender_id: me, body: message, created_at: now })
      .execute();
    return { conversationId: conversation.id, request };
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
