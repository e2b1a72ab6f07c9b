import type { Transaction } from "kysely";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatAppointmentTime, formatDetailDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { drName } from "../../../shared/format/names";
import {
  mayUnacceptOffer,
  mayWithdrawOffer,
  offerAcceptBlocker,
} from "../../../shared/policies/appointments";
import {
  addDays,
  mayOffer,
  offerStateOf,
  parisLocalNow,
  parisLocalToDate,
  parisToday,
} from "../../../shared/policies/offers";
import { BILLING_MESSAGES } from "../../../shared/schemas/billing";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import { OFFER_MESSAGES, type OfferValues, offerTimingIssues } from "../../../shared/schemas/offers";
import { emailPreferencesPath } from "../../../shared/schemas/profile";
import { quoteLineIssues, resolveOfferLine } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import { isVerifiedDentist, mayTakeNewWork } from "../../access/rules";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import { AppError, forbidden, notFound, validationError } from "../../errors";
import { groupedBy, type MailAfterCommit, type Mailer, mailAfterCommit, sendEach } from "../../mail/mailer";
import {
  acceptanceWithdrawnMail,
  offerAcceptedMail,
  offerClosedMail,
  offerReceivedMail,
  offerReopenedMail,
  offersExpiringMail,
  offerWithdrawnMail,
} from "../../mail/templates";
import type { AnnounceDeps } from "../../realtime/bus";
import { announceAppointment } from "../appointments/appointments.events";
import { scheduleRepo } from "../appointments/schedule.repo";
import { lockRequestForDentist, recordReply } from "../requests/reply.repo";
import { announceOpenRequests, announceReply, announceRequestChange } from "../requests/request.events";
import { decisionsRepo } from "./decisions.repo";
import { dentistOffersRepo, patientOffersRepo, systemClaimOfferExpiryReminders } from "./offers.repo";

interface Deps extends MailAfterCommit, AnnounceDeps {
  db: Db;
  config: AppConfig;
  clock: () => Date;
}

/** The message the offer leaves in the conversation with the patient (ADR 007). */
function offerMessage(offer: OfferValues): string {
  const lines = [`Proposition de devis : ${formatEuros(offer.amount_cents)}`];
  if (offer.valid_until) lines.push(`Valable jusqu'au ${formatDetailDate(`${offer.valid_until}T12:00:00Z`)}`);
  if (offer.comment) lines.push("", offer.comment);
  return lines.join("\n");
}

/**
 * A dentist's offer (ADR 008), in one transaction: the offer with its lines and slots, then what a
 * reply does (this dentist 'Répondu', the request 'En cours', the conversation). One live offer
 * per dentist and request: a double click makes one (the row lock, then the unique index).
 */
export async function submitOffer(deps: Deps, actor: Actor, requestId: string, input: OfferValues) {
  const me = actor.userId;
  if (!isVerifiedDentist(actor.profile)) throw notFound(DENTIST_MESSAGES.notFound);
  // A lapsed subscription (issue 35): no offer is sent; the way back is said.
  if (!mayTakeNewWork(actor)) throw forbidden(BILLING_MESSAGES.lapsed);
  const now = deps.clock();
  // Basket, BR and ceiling from the reference table (a BR sent for any line is ignored: 0 outside the
  // table, ADR 038); a fee above a 100 % Santé or maîtrisé ceiling is refused.
  const lines = input.lines.map((line) => resolveOfferLine(line, parisToday(now)));
  const issues = [
    ...quoteLineIssues(lines, { refuseAboveCeiling: true, prefix: ["lines"] }),
    ...offerTimingIssues(input, now),
  ];
  if (issues.length > 0) throw validationError(issues);

  const result = await deps.db.transaction().execute(async (trx) => {
    const { request, mine } = await lockRequestForDentist(trx, requestId, me, actor.limited);
    if (!mayOffer(request.status, mine.status)) throw new AppError(409, "CONFLICT", OFFER_MESSAGES.closed);
    if (await decisionsRepo.hasLiveOffer(trx, requestId, me))
      throw new AppError(409, "CONFLICT", OFFER_MESSAGES.alreadySent);
    await refuseTakenSlots(trx, me, input.slots);
    await decisionsRepo.insert(trx, { requestId, dentistId: me, input, lines, now });
    const reply = await recordReply(trx, {
      requestId,
      dentistId: me,
      patientId: request.patient_id,
      message: offerMessage(input),
      now,
    });
    return { reply, request };
  });

  // After the commit, and never failing the offer: the patient's open screens, then an e-mail.
  announceReply(deps, result.reply);
  mailAfterCommit(
    deps,
    {
      to: result.request.patient_email,
      ...offerReceivedMail({
        brandName: deps.config.brandName,
        firstName: result.request.patient_first_name,
        dentistName: actor.profile.full_name,
        amount: formatEuros(input.amount_cents),
        link: `${deps.config.publicUrl}/patient/request/${requestId}`,
      }),
    },
    "e-mail de proposition non envoyé",
  );
  const offer = await dentistOffersRepo(deps.db, actor).onRequest(requestId, now);
  if (!offer) throw new Error("offre enregistrée introuvable");
  return { offer, conversationId: result.reply.conversationId };
}

/**
 * A 400 under each proposed slot at which the dentist already has a confirmed appointment: the
 * patient could not pick it (ADR 038 refuses it at booking), so he is told now, not her later.
 */
async function refuseTakenSlots(trx: Transaction<Database>, dentistId: string, slots: readonly string[]) {
  const times = slots.map(parisLocalToDate);
  const taken = new Set((await scheduleRepo.takenTimes(trx, dentistId, times)).map((t) => t.getTime()));
  const issues = times.flatMap((time, i) =>
    taken.has(time.getTime())
      ? [{ path: ["slots", i], message: OFFER_MESSAGES.slotTaken(formatAppointmentTime(time)) }]
      : [],
  );
  if (issues.length > 0) throw validationError(issues);
}

const ACCEPT_REFUSED = {
  already_decided: OFFER_MESSAGES.alreadyDecided,
  cancelled: OFFER_MESSAGES.requestCancelled,
  expired: OFFER_MESSAGES.expired,
  withdrawn: OFFER_MESSAGES.withdrawn,
  dentist_unverified: OFFER_MESSAGES.dentistNotVerified,
} as const;

/** PostgreSQL's unique_violation: the last guard of one accepted offer per request. */
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

/**
 * The patient accepts an offer (ADR 011, ADR 016), in one transaction: the offer 'accepted', the
 * request 'accepted' (closed to the other dentists; 'Terminée' only once the appointment has taken
 * place), the dentist 'Confirmé', every other sent offer 'closed' at the same instant (so that a
 * withdrawal of the acceptance knows which to reopen). The request row is locked
 * first, so two accepts at the same moment run one after the other and the second is refused;
 * the partial unique index is the last guard. The dentists are told once it is saved.
 */
export async function acceptOffer(deps: Deps, actor: Actor, offerId: string) {
  const now = deps.clock();
  const result = await deps.db
    .transaction()
    .execute(async (trx) => {
      const locked = await decisionsRepo.lockForPatient(trx, actor, offerId);
      if (!locked) throw notFound(OFFER_MESSAGES.notFound);
      const { request, offer } = locked;
      const blocker = offerAcceptBlocker(offerStateOf(offer, now), request.status);
      if (blocker) throw new AppError(409, "CONFLICT", ACCEPT_REFUSED[blocker]);
      // A dentist whose verification was withdrawn sees no patient data (D6): no acceptance (it would
      // tell him the patient's name), as no appointment is booked with him (appointments.service).
      if ((await scheduleRepo.dentistStanding(trx, offer.dentist_id)) !== "active")
        throw new AppError(409, "CONFLICT", OFFER_MESSAGES.dentistNotVerified);
      const closed = await decisionsRepo.accept(trx, {
        requestId: request.id,
        offerId,
        dentistId: offer.dentist_id,
        now,
      });
      const dentists = await decisionsRepo.dentistContacts(trx, [offer.dentist_id, ...closed]);
      return { request, offer, dentists };
    })
    .catch((error) => {
      if (isUniqueViolation(error)) throw new AppError(409, "CONFLICT", OFFER_MESSAGES.alreadyDecided);
      throw error;
    });

  // After the commit, and never failing the decision: the open screens of the patient and of the
  // dentists whose offer it accepted or closed; then the chosen dentist, then the others, kindly, by e-mail.
  announceRequestChange(deps, result.request.id, [actor.userId, ...result.dentists.map((d) => d.id)]);
  announceOpenRequests(deps);
  const link = (path: string) => `${deps.config.publicUrl}${path}`;
  for (const dentist of result.dentists) {
    const chosen = dentist.id === result.offer.dentist_id;
    const mail = chosen
      ? offerAcceptedMail({
          brandName: deps.config.brandName,
          firstName: dentist.first_name,
          patientName: actor.profile.full_name,
          amount: formatEuros(result.offer.amount_cents),
          link: link("/dentist/appointments"),
        })
      : offerClosedMail({
          brandName: deps.config.brandName,
          firstName: dentist.first_name,
          treatment: treatmentLabel(result.request.treatment_type).toLowerCase(),
          link: link("/dentist/offers"),
        });
    mailAfterCommit(deps, { to: dentist.email, ...mail }, "e-mail de décision non envoyé");
  }
  const offers = await patientOffersRepo(deps.db, actor).onRequest(result.request.id, now);
  const offer = offers.find((o) => o.id === offerId);
  if (!offer) throw new Error("offre acceptée introuvable");
  return offer;
}

/**
 * The dentist withdraws one of their offers not yet accepted or closed (ADR 008); 404 for anyone
 * else's. When the patient could still accept it (not past its last valid day), she is told: a
 * message in their conversation, where the offer was announced, and an e-mail, as for the offer;
 * the offer leaves her request page.
 */
export async function withdrawOffer(deps: Deps, actor: Actor, offerId: string) {
  if (!isVerifiedDentist(actor.profile)) throw notFound(OFFER_MESSAGES.notFound);
  const now = deps.clock();
  const { offer, patient, reply } = await deps.db.transaction().execute(async (trx) => {
    const row = await decisionsRepo.lockForDentist(trx, actor, offerId);
    if (!row) throw notFound(OFFER_MESSAGES.notFound);
    const state = offerStateOf(row, now);
    if (!mayWithdrawOffer(state)) throw new AppError(409, "CONFLICT", OFFER_MESSAGES.notWithdrawable);
    await decisionsRepo.withdraw(trx, offerId, now);
    if (state !== "sent") return { offer: row, patient: null, reply: null };
    const patient = await decisionsRepo.patientContact(trx, row.request_id);
    const reply = await recordReply(trx, {
      requestId: row.request_id,
      dentistId: actor.userId,
      patientId: patient.patient_id,
      message: `Proposition de devis retirée : ${formatEuros(row.amount_cents)}`,
      now,
    });
    return { offer: row, patient, reply };
  });
  // After the commit: the patient's open screens drop the offer (and show the message); the
  // dentist's other tabs, for an offer past its last valid day.
  if (reply) announceReply(deps, reply);
  else announceRequestChange(deps, offer.request_id, [actor.userId]);
  if (patient)
    mailAfterCommit(
      deps,
      {
        to: patient.email,
        ...offerWithdrawnMail({
          brandName: deps.config.brandName,
          firstName: patient.first_name,
          dentistName: actor.profile.full_name,
          amount: formatEuros(offer.amount_cents),
          link: `${deps.config.publicUrl}/patient/request/${offer.request_id}`,
        }),
      },
      "e-mail de proposition retirée non envoyé",
    );
  const dto = await dentistOffersRepo(deps.db, actor).onRequest(offer.request_id, now);
  if (!dto) throw new Error("offre retirée introuvable");
  return dto;
}

/**
 * The patient withdraws their acceptance (issue 16 item 8, ADR 016), in one transaction, until an
 * appointment on it is confirmed: the offer back to 'sent', the offers closed by that acceptance
 * (the same instant) reopened when still valid, a pending appointment on it cancelled, the chosen
 * dentist back to 'Répondu', the request 'En cours'. The dentists concerned are told once saved
 * (e-mails; both parties' open screens for a cancelled appointment).
 * Someone else's offer, or an unknown one, answers 404.
 */
export async function unacceptOffer(deps: Deps, actor: Actor, offerId: string) {
  const now = deps.clock();
  const result = await deps.db.transaction().execute(async (trx) => {
    const locked = await decisionsRepo.lockForPatient(trx, actor, offerId);
    if (!locked) throw notFound(OFFER_MESSAGES.notFound);
    const { request, offer } = locked;
    const live = await decisionsRepo.liveAppointment(trx, offerId);
    if (offer.status !== "accepted" || request.status !== "accepted")
      throw new AppError(409, "CONFLICT", OFFER_MESSAGES.notAccepted);
    if (!mayUnacceptOffer("accepted", live?.status ?? null))
      throw new AppError(409, "CONFLICT", OFFER_MESSAGES.appointmentConfirmed);
    const reopened = await decisionsRepo.unaccept(trx, {
      requestId: request.id,
      offerId,
      dentistId: offer.dentist_id,
      decidedAt: offer.decided_at,
      appointmentId: live?.id ?? null,
      now,
    });
    const dentists = await decisionsRepo.dentistContacts(trx, [offer.dentist_id, ...reopened]);
    return { request, offer, dentists, reopened: reopened.length, cancelledAppointment: live?.id ?? null };
  });

  // After the commit: both parties' open screens drop the pending appointment it cancelled.
  if (result.cancelledAppointment)
    announceAppointment(deps, {
      id: result.cancelledAppointment,
      request_id: result.request.id,
      patient: { id: actor.userId },
      dentist: { id: result.offer.dentist_id },
    });
  // After the commit, and never failing the decision: the open screens of the patient and of the
  // dentists whose offer it gave back or reopened; then the dentist first chosen, then the others, by e-mail.
  announceRequestChange(deps, result.request.id, [actor.userId, ...result.dentists.map((d) => d.id)]);
  announceOpenRequests(deps);
  const link = (path: string) => `${deps.config.publicUrl}${path}`;
  const treatment = treatmentLabel(result.request.treatment_type).toLowerCase();
  for (const dentist of result.dentists) {
    const mail =
      dentist.id === result.offer.dentist_id
        ? acceptanceWithdrawnMail({
            brandName: deps.config.brandName,
            firstName: dentist.first_name,
            patientName: actor.profile.full_name,
            treatment,
            appointmentCancelled: result.cancelledAppointment !== null,
            link: link("/dentist/offers"),
          })
        : offerReopenedMail({
            brandName: deps.config.brandName,
            firstName: dentist.first_name,
            treatment,
            link: link("/dentist/offers"),
          });
    mailAfterCommit(deps, { to: dentist.email, ...mail }, "e-mail de changement d'avis non envoyé");
  }
  const offers = await patientOffersRepo(deps.db, actor).onRequest(result.request.id, now);
  const offer = offers.find((o) => o.id === offerId);
  if (!offer) throw new Error("offre introuvable après le changement d'avis");
  return { offer, reopened: result.reopened };
}

/** How many days before an offer's last valid day its patient is reminded (ADR 087), from 9:00 Paris time. */
export const OFFER_EXPIRY_REMINDER_DAYS = 3;
export const OFFER_EXPIRY_REMINDER_TIME = "09:00";

/**
 * The mail job's reminders of offers about to expire (ADR 087): from 9:00 Paris time, the offers still
 * open to the patient's choice whose last valid day is within three days, sent a day ago or more, are
 * claimed once each; their patient gets one e-mail per request — unless she stopped reminders (ADR
 * 081): claimed, and not sent later. A failed e-mail is logged (its error only) and not sent again.
 * Resolves to the number of e-mails sent.
 */
export async function sendOfferExpiryReminders(deps: {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}): Promise<number> {
  const local = parisLocalNow(deps.now);
  if (local.slice(11) < OFFER_EXPIRY_REMINDER_TIME) return 0;
  const today = local.slice(0, 10);
  const claimed = await systemClaimOfferExpiryReminders(deps.db, {
    now: deps.now,
    today,
    lastDay: addDays(today, OFFER_EXPIRY_REMINDER_DAYS),
    sentBefore: new Date(deps.now.getTime() - 24 * 60 * 60 * 1000),
  });
  return sendEach(
    deps,
    groupedBy(
      claimed.filter((offer) => offer.email_reminders),
      (offer) => offer.request_id,
    ),
    (offers) => {
      const [first] = offers;
      return {
        to: first.patient_email,
        ...offersExpiringMail({
          brandName: deps.config.brandName,
          firstName: first.patient_first_name,
          offers: [...offers]
            .sort((a, b) => a.valid_until.localeCompare(b.valid_until))
            .map((offer) => ({
              dentistName: drName(offer.dentist_name),
              until: formatDetailDate(`${offer.valid_until}T12:00:00Z`),
            })),
          link: `${deps.config.publicUrl}/patient/request/${first.request_id}`,
          preferencesLink: `${deps.config.publicUrl}${emailPreferencesPath("patient")}`,
        }),
      };
    },
    "rappel de fin de validité d'une proposition non envoyé",
  );
}
