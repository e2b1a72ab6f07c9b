import { REPLIES_ANCHOR } from "../../../shared/domain/journey";
import { mayReply, REPLY_REFUSED } from "../../../shared/policies/replies";
import { BILLING_MESSAGES } from "../../../shared/schemas/billing";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import type { Actor } from "../../access/actor";
import { isVerifiedDentist, mayTakeNewWork } from "../../access/rules";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, forbidden, notFound } from "../../errors";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import { dentistReplyMail } from "../../mail/templates";
import type { AnnounceDeps } from "../../realtime/bus";
import { lockRequestForDentist, recordReply } from "./reply.repo";
import { announceReply } from "./request.events";

interface Deps extends MailAfterCommit, AnnounceDeps {
  db: Db;
  config: AppConfig;
  clock: () => Date;
}

/**
 * A dentist's reply (ADR 007), in one transaction: this dentist's status becomes
 * 'Répondu' (refused with 409 unless it was pending), the request 'En cours' for the patient, and
 * the reply becomes a message of the conversation between them about this request. The patient is
 * told by e-mail once it is saved, and her open screens at once.
 */
export async function replyToRequest(deps: Deps, actor: Actor, requestId: string, message: string) {
  const me = actor.userId;
  if (!isVerifiedDentist(actor.profile)) throw notFound(DENTIST_MESSAGES.notFound);
  // A lapsed subscription (issue 35): no new request is answered; the way back is said.
  if (!mayTakeNewWork(actor)) throw forbidden(BILLING_MESSAGES.lapsed);
  const result = await deps.db.transaction().execute(async (trx) => {
    const { request, mine } = await lockRequestForDentist(trx, requestId, me, actor.limited);
    if (!mayReply(mine.status)) throw new AppError(409, "CONFLICT", REPLY_REFUSED);

    const reply = await recordReply(trx, {
      requestId,
      dentistId: me,
      patientId: request.patient_id,
      message,
      now: deps.clock(),
    });
    return { reply, request };
  });

  announceReply(deps, result.reply);
  // After the commit, and never failing the reply: the patient is told by e-mail.
  // Straight to the replies on her request's page.
  const link = `${deps.config.publicUrl}/patient/request/${requestId}#${REPLIES_ANCHOR}`;
  mailAfterCommit(
    deps,
    {
      to: result.request.patient_email,
      ...dentistReplyMail({
        brandName: deps.config.brandName,
        firstName: result.request.patient_first_name,
        dentistName: actor.profile.full_name,
        link,
      }),
    },
    "e-mail de réponse non envoyé",
  );
  return { conversationId: result.reply.conversationId };
}
