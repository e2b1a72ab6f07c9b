import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { AppointmentSide } from "../../shared/domain/appointments";
import type { Db } from "../db/index";
import { hasRow } from "../db/queries";
import type { Database } from "../db/types";
import type { Actor } from "./actor";
import { requestVisibleTo } from "./requests";
import { isVerifiedDentist } from "./rules";

/**
 * Who sees which object besides requests and documents (ADR 012): conversations are seen by their
 * two parties (a dentist once verified), appointments by their patient and their verified dentist, offers by the dentist who
 * sent them and the patient of their request.
 */

/** The column that binds a conversation to the actor's side of it. */
export function conversationSide(actor: Actor): "c.patient_id" | "c.dentist_id" {
  return actor.profile.role === "dentist" ? "c.dentist_id" : "c.patient_id";
}

/**
 * Whether the actor may read conversations at all: not a dentist whose verification is pending or
 * was withdrawn (D6: an unverified dentist sees no patient data). His conversations stay, and open
 * again once he is verified.
 */
export function readsConversations(actor: Actor): boolean {
  return actor.profile.role !== "dentist" || isVerifiedDentist(actor.profile);
}

type ConversationsEb = ExpressionBuilder<Database & { c: Database["conversations"] }, "c">;

/** The actor's conversations: his side of them, none for an unverified dentist. */
export function conversationVisibleTo(eb: ConversationsEb, actor: Actor): Expression<SqlBool> {
  if (!readsConversations(actor)) return eb.lit(false);
  return eb(conversationSide(actor), "=", actor.userId);
}

/** The side the actor plays in appointments, or null (admins, unverified dentists: nothing). */
export function appointmentSide(actor: Actor): AppointmentSide | null {
  if (actor.profile.role === "patient") return "patient";
  if (isVerifiedDentist(actor.profile)) return "dentist";
  return null;
}

type AppointmentsEb = ExpressionBuilder<Database & { a: Database["appointments"] }, "a">;

/** Appointments of the actor's side (none for admins and unverified dentists). */
export function appointmentVisibleTo(eb: AppointmentsEb, actor: Actor): Expression<SqlBool> {
  const side = appointmentSide(actor);
  if (side === null) return eb.lit(false);
  return eb(side === "patient" ? "a.patient_id" : "a.dentist_id", "=", actor.userId);
}

const isUuid = (id: unknown): id is string =>
  typeof id === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Whether an object exists and the actor may see it: the checks the route guards run. */
export const visibleObject = {
  request: (db: Db, actor: Actor, id: string) =>
    hasRow(
      db
        .selectFrom("requests as r")
        .select(sql.lit(1).as("one"))
        .where("r.id", "=", id)
        .where((eb) => requestVisibleTo(eb, actor)),
    ),
  /** An offer on one of the actor's own requests (the patient's side of an offer). */
  patientOffer: (db: Db, actor: Actor, id: string) =>
    hasRow(
      db
        .selectFrom("offers as o")
        .innerJoin("requests as r", "r.id", "o.request_id")
        .select(sql.lit(1).as("one"))
        .where("o.id", "=", id)
        .where("r.patient_id", "=", actor.userId),
    ),
  appointment: (db: Db, actor: Actor, id: string) =>
    hasRow(
      db
        .selectFrom("appointments as a")
        .select(sql.lit(1).as("one"))
        .where("a.id", "=", id)
        .where((eb) => appointmentVisibleTo(eb, actor)),
    ),
  conversation: (db: Db, actor: Actor, id: string) =>
    hasRow(
      db
        .selectFrom("conversations as c")
        .select(sql.lit(1).as("one"))
        .where("c.id", "=", id)
        .where((eb) => conversationVisibleTo(eb, actor)),
    ),
  /**
   * A review (issue 36): its author (patient), the dentist it is about once published (verified
   * dentists only), any review for the team.
   */
  review: (db: Db, actor: Actor, id: string) =>
    hasRow(
      db
        .selectFrom("reviews as v")
        .select(sql.lit(1).as("one"))
        .where("v.id", "=", id)
        .where((eb) => {
          if (actor.profile.is_admin) return eb.lit(true);
          if (actor.profile.role === "patient") return eb("v.patient_id", "=", actor.userId);
          if (isVerifiedDentist(actor.profile))
            return eb.and([eb("v.dentist_id", "=", actor.userId), eb("v.status", "=", "published")]);
          return eb.lit(false);
        }),
    ),
} satisfies Record<string, (db: Db, actor: Actor, id: string) => Promise<boolean>>;

export type VisibleKind = keyof typeof visibleObject;

export { isUuid };
