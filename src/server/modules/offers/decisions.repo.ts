import type { Transaction } from "kysely";
import { parisLocalToDate, parisToday } from "../../../shared/policies/offers";
import type { OfferValues } from "../../../shared/schemas/offers";
import { comparedQuoteCents, QUOTE_LINE_FIELDS, type resolveLine } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import { hasRow } from "../../db/queries";
import type { Database } from "../../db/types";

type Trx = Transaction<Database>;

/**
 * The decided offer itself: accepted (with the devis's price it is compared with), or sent again
 * (`decided_at` and that price null).
 */
function setOffer(
  trx: Trx,
  offerId: string,
  decision: { status: "accepted" | "sent"; decided_at: Date | null; compared_quote_cents: number | null },
  now: Date,
) {
  return trx
    .updateTable("offers")
    .set({ ...decision, updated_at: now })
    .where("id", "=", offerId)
    .execute();
}

/** The request's status after a decision on one of its offers. */
function setRequestStatus(trx: Trx, requestId: string, status: "accepted" | "in_review", now: Date) {
  return trx.updateTable("requests").set({ status, updated_at: now }).where("id", "=", requestId).execute();
}

/**
 * The offers' writes, inside the caller's transaction (offers.service owns it, and the e-mails
 * that follow the commit). Each lookup is bound to the actor: the dentist's own offers, or the
 * offers on the patient's own requests.
 */
export const decisionsRepo = {
  /** This dentist's sent or accepted offer on the request, if any (one live offer per dentist). */
  async hasLiveOffer(trx: Trx, requestId: string, dentistId: string) {
    return hasRow(
      trx
        .selectFrom("offers")
        .select("id")
        .where("request_id", "=", requestId)
        .where("dentist_id", "=", dentistId)
        .where("status", "in", ["sent", "accepted"]),
    );
  },

  /** A new offer with its lines and proposed slots; its id. */
  async insert(
    trx: Trx,
    p: {
      requestId: string;
      dentistId: string;
      input: OfferValues;
      lines: ReturnType<typeof resolveLine>[];
      now: Date;
    },
  ) {
    const offer = await trx
      .insertInto("offers")
      .values({
        request_id: p.requestId,
        dentist_id: p.dentistId,
        amount_cents: p.input.amount_cents,
        comment: p.input.comment,
        valid_until: p.input.valid_until,
        created_at: p.now,
        updated_at: p.now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (p.lines.length > 0)
      await trx
        .insertInto("offer_lines")
        .values(p.lines.map((line, position) => ({ offer_id: offer.id, position, ...line })))
        .execute();
    if (p.input.slots.length > 0)
      await trx
        .insertInto("offer_slots")
        .values(p.input.slots.map((slot) => ({ offer_id: offer.id, starts_at: parisLocalToDate(slot) })))
        .execute();
    return offer.id;
  },

  /**
   * An offer on one of the patient's own requests, the request locked first and then the offer:
   * two decisions at the same moment run one after the other. Undefined when not theirs.
   */
  async lockForPatient(trx: Trx, actor: Actor, offerId: string) {
    const found = await trx
      .selectFrom("offers as o")
      .innerJoin("requests as r", "r.id", "o.request_id")
      .select("o.request_id")
      .where("o.id", "=", offerId)
      .where("r.patient_id", "=", actor.userId)
      .executeTakeFirst();
    if (!found) return undefined;
    const request = await trx
      .selectFrom("requests")
      .select(["id", "status", "treatment_type"])
      .where("id", "=", found.request_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const offer = await trx
      .selectFrom("offers")
      .select(["id", "dentist_id", "status", "valid_until", "amount_cents", "decided_at"])
      .where("id", "=", offerId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return { request, offer };
  },

  /**
   * The offer 'accepted', the request's other sent offers 'closed' at the same instant, the request
   * 'accepted', its dentist 'Confirmé'. The dentists whose offers were closed.
   */
  async accept(trx: Trx, p: { requestId: string; offerId: string; dentistId: string; now: Date }) {
    const { now } = p;
    const [devis, offered] = await Promise.all([
      trx
        .selectFrom("request_quote_lines")
        .select(QUOTE_LINE_FIELDS)
        .where("request_id", "=", p.requestId)
        .orderBy("position")
        .execute(),
      trx
        .selectFrom("offer_lines")
        .select(QUOTE_LINE_FIELDS)
        .where("offer_id", "=", p.offerId)
        .orderBy("position")
        .execute(),
    ]);
    const compared = comparedQuoteCents(devis, offered);
    await setOffer(
      trx,
      p.offerId,
      { status: "accepted", decided_at: now, compared_quote_cents: compared },
      now,
    );
    const closed = await trx
      .updateTable("offers")
      .set({ status: "closed", decided_at: now, updated_at: now })
      .where("request_id", "=", p.requestId)
      .where("status", "=", "sent")
      .returning("dentist_id")
      .execute();
    await setRequestStatus(trx, p.requestId, "accepted", now);
    await trx
      .insertInto("request_dentists")
      .values({ request_id: p.requestId, dentist_id: p.dentistId, status: "confirmed", updated_at: now })
      .onConflict((oc) =>
        oc.columns(["request_id", "dentist_id"]).doUpdateSet({ status: "confirmed", updated_at: now }),
      )
      .execute();
    return closed.map((row) => row.dentist_id);
  },

  /** The pending or confirmed appointment on the offer, locked, if any. */
  liveAppointment(trx: Trx, offerId: string) {
    return trx
      .selectFrom("appointments")
      .select(["id", "status"])
      .where("offer_id", "=", offerId)
      .where("status", "in", ["pending", "confirmed"])
      .forUpdate()
      .executeTakeFirst();
  },

  /**
   * An acceptance withdrawn: the offer 'sent' again, the offers that acceptance closed (the same
   * instant) reopened when still valid, a pending appointment cancelled, the dentist 'Répondu',
   * the request 'En cours'. The dentists whose offers were reopened.
   */
  async unaccept(
    trx: Trx,
    p: {
      requestId: string;
      offerId: string;
      dentistId: string;
      decidedAt: Date | null;
      appointmentId: string | null;
      now: Date;
    },
  ) {
    const { now } = p;
    await setOffer(trx, p.offerId, { status: "sent", decided_at: null, compared_quote_cents: null }, now);
    // Closed by this acceptance (same instant), still valid today: open again. Expired ones stay closed.
    const decidedAt = p.decidedAt;
    const reopened = decidedAt
      ? await trx
          .updateTable("offers")
          .set({ status: "sent", decided_at: null, updated_at: now })
          .where("request_id", "=", p.requestId)
          .where("id", "<>", p.offerId)
          .where("status", "=", "closed")
          .where("decided_at", "=", decidedAt)
          .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">=", parisToday(now))]))
          .returning("dentist_id")
          .execute()
      : [];
    if (p.appointmentId)
      await trx
        .updateTable("appointments")
        .set({ status: "cancelled", awaiting: null, cancelled_by: "patient", updated_at: now })
        .where("id", "=", p.appointmentId)
        .execute();
    await trx
      .updateTable("request_dentists")
      .set({ status: "responded", updated_at: now })
      .where("request_id", "=", p.requestId)
      .where("dentist_id", "=", p.dentistId)
      .where("status", "=", "confirmed")
      .execute();
    await setRequestStatus(trx, p.requestId, "in_review", now);
    return reopened.map((row) => row.dentist_id);
  },

  /** This dentist's own offer, locked; undefined for anyone else's. */
  lockForDentist(trx: Trx, actor: Actor, offerId: string) {
    return trx
      .selectFrom("offers")
      .select(["id", "request_id", "status", "valid_until", "amount_cents"])
      .where("id", "=", offerId)
      .where("dentist_id", "=", actor.userId)
      .forUpdate()
      .executeTakeFirst();
  },

  async withdraw(trx: Trx, offerId: string, now: Date) {
    await trx
      .updateTable("offers")
      .set({ status: "withdrawn", decided_at: now, updated_at: now })
      .where("id", "=", offerId)
      .execute();
  },

  /** The e-mail contact of a request's patient. */
  patientContact(trx: Trx, requestId: string) {
    return trx
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .select(["r.patient_id", "p.email", "p.first_name"])
      .where("r.id", "=", requestId)
      .executeTakeFirstOrThrow();
  },

  /** The e-mail contacts of the dentists a decision concerns. */
  dentistContacts(trx: Trx, ids: string[]) {
    return trx.selectFrom("profiles").select(["id", "email", "first_name"]).where("id", "in", ids).execute();
  },
};
