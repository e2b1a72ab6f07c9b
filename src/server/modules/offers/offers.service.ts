import { formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { mayOffer, parisLocalToDate } from "../../../shared/policies/offers";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import { OFFER_MESSAGES, type OfferValues, offerTimingIssues } from "../../../shared/schemas/offers";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, notFound, validationError } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import { offerReceivedMail } from "../../mail/templates";
import type { Actor } from "../../session";
import { lockRequestForDentist, recordReply } from "../dentists/reply.service";
import { dentistOffersRepo } from "./offers.repo";

interface Deps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  clock: () => Date;
  log: { error(obj: object, msg: string): void };
}

/** The message the offer leaves in the conversation with the patient (D13). */
function offerMessage(offer: OfferValues): string {
  const lines = [`Proposition de devis : ${formatEuros(offer.amount_cents)}`];
  if (offer.valid_until) lines.push(`Valable jusqu'au ${formatDetailDate(`${offer.valid_until}T12:00:00Z`)}`);
  if (offer.comment) lines.push("", offer.comment);
  return lines.join("\n");
}

/**
 * A dentist's offer (D14), in one transaction: the offer with its lines and slots, then what a
 * reply does (this dentist 'Répondu', the request 'En cours', the conversation). One live offer
 * per dentist and request: a double click makes one (the row lock, then the unique index).
 */
export async function submitOffer(deps: Deps, actor: Actor, requestId: string, input: OfferValues) {
  const me = actor.userId;
  if (!(actor.profile.role === "dentist" && actor.profile.is_verified))
    throw notFound(DENTIST_MESSAGES.notFound);
  const now = deps.clock();
  const timing = offerTimingIssues(input, now);
  if (timing.length > 0) throw validationError(timing);

  const result = await deps.db.transaction().execute(async (trx) => {
    const { request, mine } = await lockRequestForDentist(trx, requestId, me);
    if (!mayOffer(request.status, mine.status)) throw new AppError(409, "CONFLICT", OFFER_MESSAGES.closed);
    const live = await trx
      .selectFrom("offers")
      .select("id")
      .where("request_id", "=", requestId)
      .where("dentist_id", "=", me)
      .where("status", "in", ["sent", "accepted"])
      .executeTakeFirst();
    if (live) throw new AppError(409, "CONFLICT", OFFER_MESSAGES.alreadySent);

    const offer = await trx
      .insertInto("offers")
      .values({
        request_id: requestId,
        dentist_id: me,
        amount_cents: input.amount_cents,
        comment: input.comment,
        valid_until: input.valid_until,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.lines.length > 0)
      await trx
        .insertInto("offer_lines")
        .values(
          input.lines.map((line, position) => ({
            offer_id: offer.id,
            position,
            act: line.act,
            tooth: line.tooth,
            fee_cents: line.fee_cents,
          })),
        )
        .execute();
    if (input.slots.length > 0)
      await trx
        .insertInto("offer_slots")
        .values(input.slots.map((slot) => ({ offer_id: offer.id, starts_at: parisLocalToDate(slot) })))
        .execute();
    const conversationId = await recordReply(trx, {
      requestId,
      dentistId: me,
      patientId: request.patient_id,
      message: offerMessage(input),
      now,
    });
    return { conversationId, request };
  });

  // After the commit, and never failing the offer: the patient is told (D15).
  deps.mailer
    .send({
      to: result.request.patient_email,
      ...offerReceivedMail({
        brandName: deps.config.brandName,
        firstName: result.request.patient_first_name,
        dentistName: actor.profile.full_name,
        amount: formatEuros(input.amount_cents),
        link: `${deps.config.publicUrl}/patient/request/${requestId}`,
      }),
    })
    .catch((error) =>
      deps.log.error({ err: { message: (error as Error).message } }, "e-mail de proposition non envoyé"),
    );
  const offer = await dentistOffersRepo(deps.db, actor).onRequest(requestId, now);
  if (!offer) throw new Error("offre enregistrée introuvable");
  return { offer, conversationId: result.conversationId };
}
