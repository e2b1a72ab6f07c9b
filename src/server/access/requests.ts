import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import type { Database } from "../db/types";
import type { Actor } from "./actor";
import { isVerifiedDentist, OPEN_REQUEST_STATUSES } from "./rules";

/** Any query that names the requests table `r`. */
export type RequestsEb = ExpressionBuilder<Database & { r: Database["requests"] }, "r">;

/**
 * The open statuses as literals, so that the planner matches the partial indexes built on exactly
 * this condition (migration 013).
 */
export function requestIsOpen(eb: RequestsEb): Expression<SqlBool> {
  return eb(
    "r.status",
    "in",
    OPEN_REQUEST_STATUSES.map((status) => sql.lit(status)),
  );
}

/**
 * Who sees a request (ADR 012, issue 13): an open request (new, in review) is open to every verified
 * dentist when sent to all of them, and to the named dentist only when sent by name; to none whose
 * subscription lapsed (`limited`, issue 35: no new requests).
 */
export function requestOpenToDentist(
  eb: RequestsEb,
  dentistId: string,
  limited = false,
): Expression<SqlBool> {
  if (limited) return eb.lit(false);
  return eb.and([
    requestIsOpen(eb),
    eb.or([eb("r.recipient_dentist_id", "is", null), eb("r.recipient_dentist_id", "=", dentistId)]),
  ]);
}

/** The request has an accepted offer of this dentist: he was chosen, and keeps seeing it. */
export function requestChoseDentist(eb: RequestsEb, dentistId: string): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom("offers as chosen")
      .select(sql.lit(1).as("one"))
      .whereRef("chosen.request_id", "=", "r.id")
      .where("chosen.dentist_id", "=", dentistId)
      .where("chosen.status", "=", "accepted"),
  );
}

/**
 * What a verified dentist sees of a request: an open request he is an audience of, or one whose
 * accepted offer is his. A completed or cancelled request, or one whose accepted offer is someone
 * else's, is seen only by its patient, the chosen dentist and the admins. A dentist whose
 * subscription lapsed (`limited`) sees only those whose accepted offer is his.
 */
export function requestVisibleToDentist(
  eb: RequestsEb,
  dentistId: string,
  limited = false,
): Expression<SqlBool> {
  if (limited) return requestChoseDentist(eb, dentistId);
  return eb.or([requestOpenToDentist(eb, dentistId), requestChoseDentist(eb, dentistId)]);
}

/**
 * Whether the actor may read request `r` (and so its documents): its patient, a verified dentist
 * who sees it, an admin (support; every read is recorded). Nobody else.
 */
export function requestVisibleTo(eb: RequestsEb, actor: Actor): Expression<SqlBool> {
  const { profile } = actor;
  if (profile.is_admin) return eb.lit(true);
  if (isVerifiedDentist(profile)) return requestVisibleToDentist(eb, actor.userId, actor.limited);
  return eb("r.patient_id", "=", actor.userId);
}

/**
 * The actor's own request (as its patient), locked until the transaction ends: what a change of the
 * request reads first. Undefined for anyone else's request (→ 404).
 */
export function lockOwnRequest(trx: Kysely<Database>, actor: Actor, requestId: string) {
  return trx
    .selectFrom("requests")
    .select(["id", "status", "quote_amount_cents"])
    .where("id", "=", requestId)
    .where("patient_id", "=", actor.userId)
    .forUpdate()
    .executeTakeFirst();
}
