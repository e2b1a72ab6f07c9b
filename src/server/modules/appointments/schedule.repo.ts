import { type Kysely, sql, type Transaction, type Updateable } from "kysely";
import type { AppointmentSide } from "../../../shared/domain/appointments";
import type { reminderSchedule } from "../../../shared/policies/appointments";
import type { Actor } from "../../access/actor";
import { isVerifiedDentist, type Subject } from "../../access/rules";
import { hasRow } from "../../db/queries";
import type { Database } from "../../db/types";

type Trx = Transaction<Database>;

/** A dentist's profile row as booking sees it: erased, no longer verified, or to be booked. */
export function dentistStandingOf(
  dentist: Subject & { erased_at: Date | null },
): "active" | "erased" | "unverified" {
  if (dentist.erased_at !== null) return "erased";
  return isVerifiedDentist(dentist) ? "active" : "unverified";
}

/**
 * The appointments' writes, inside the caller's transaction (appointments.service owns it, and
 * the e-mails and live events that follow a commit). The caller has checked who acts:
 * offerToBook is bound to the patient; the others run on a row that appointmentsRepo().lock gave.
 */
export const scheduleRepo = {
  /** The patient's own offer, locked for booking; undefined when it is not theirs. */
  offerToBook(trx: Trx, actor: Actor, offerId: string) {
    return trx
      .selectFrom("offers as o")
      .innerJoin("requests as r", "r.id", "o.request_id")
      .select(["o.id", "o.status", "o.request_id", "o.dentist_id"])
      .where("o.id", "=", offerId)
      .where("r.patient_id", "=", actor.userId)
      .forUpdate("o")
      .executeTakeFirst();
  },

  /**
   * Whether the dentist of a row the caller holds (offerToBook's offer, or an appointment that
   * appointmentsRepo().lock gave) may still be booked: "erased" (the accepted offer and the
   * appointments stay under a pseudonym, security/erasure.repo), "unverified" (he sees no
   * appointment, access/objects) or "active". Read after the lock, so an erasure that committed
   * meanwhile is seen.
   */
  async dentistStanding(trx: Trx, dentistId: string): Promise<"active" | "erased" | "unverified"> {
    const dentist = await trx
      .selectFrom("profiles")
      .select(["erased_at", "role", "is_admin", "is_verified"])
      .where("id", "=", dentistId)
      .executeTakeFirst();
    return dentist ? dentistStandingOf(dentist) : "erased";
  },

  /** Whether the team suspended the patient's account (ADR 092): she cannot sign in to answer. */
  async patientSuspended(trx: Trx, patientId: string): Promise<boolean> {
    const patient = await trx
      .selectFrom("profiles")
      .select("suspended_at")
      .where("id", "=", patientId)
      .executeTakeFirst();
    return patient?.suspended_at != null;
  },

  /** Whether the offer already has a pending or confirmed appointment. */
  async hasLiveAppointment(trx: Trx, offerId: string) {
    return hasRow(
      trx
        .selectFrom("appointments")
        .select("id")
        .where("offer_id", "=", offerId)
        .where("status", "in", ["pending", "confirmed"]),
    );
  },

  /** A new appointment asked by the patient, awaiting the dentist, with the times proposed. */
  async create(
    trx: Trx,
    p: { requestId: string; offerId: string; patientId: string; dentistId: string; times: Date[]; now: Date },
  ) {
    const created = await trx
      .insertInto("appointments")
      .values({
        request_id: p.requestId,
        offer_id: p.offerId,
        patient_id: p.patientId,
        dentist_id: p.dentistId,
        status: "pending",
        awaiting: "dentist",
        created_at: p.now,
        updated_at: p.now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await addOptions(trx, created.id, p.times);
    return created.id;
  },

  /**
   * Those of `times` at which the dentist already has a confirmed appointment (other than `except`),
   * soonest first. The unique index appointments_dentist_time_idx holds it under a race (ADR 038).
   */
  async takenTimes(trx: Trx, dentistId: string, times: readonly Date[], except: string | null = null) {
    if (times.length === 0) return [];
    const rows = await trx
      .selectFrom("appointments")
      .select("starts_at")
      .where("dentist_id", "=", dentistId)
      .where("status", "=", "confirmed")
      .where("starts_at", "in", [...times])
      .$if(except !== null, (q) => q.where("id", "<>", except as string))
      .orderBy("starts_at")
      .execute();
    return rows.map((row) => new Date(row.starts_at as Date));
  },

  /** Whether `startsAt` is one of the times proposed for the appointment. */
  async isOption(trx: Trx, id: string, startsAt: Date) {
    return hasRow(
      trx
        .selectFrom("appointment_options")
        .select("starts_at")
        .where("appointment_id", "=", id)
        .where("starts_at", "=", startsAt),
    );
  },

  /** Confirmed at `startsAt`, with its reminders scheduled. */
  async confirm(
    trx: Trx,
    id: string,
    startsAt: Date,
    reminders: ReturnType<typeof reminderSchedule>,
    now: Date,
  ) {
    await changeState(trx, id, { status: "confirmed", awaiting: null, starts_at: startsAt, updated_at: now });
    if (reminders.length > 0)
      await trx
        .insertInto("appointment_reminders")
        .values(reminders.map((r) => ({ appointment_id: id, kind: r.kind, due_at: r.due_at })))
        .execute();
  },

  /** Other times proposed by one side: pending again, awaiting the other side. */
  async propose(trx: Trx, id: string, awaiting: AppointmentSide, times: Date[], now: Date) {
    await changeState(trx, id, { status: "pending", awaiting, starts_at: null, updated_at: now });
    await addOptions(trx, id, times);
  },

  async cancel(trx: Trx, id: string, by: AppointmentSide, now: Date) {
    await changeState(trx, id, { status: "cancelled", awaiting: null, cancelled_by: by, updated_at: now });
  },
};

async function addOptions(trx: Trx, id: string, times: Date[]) {
  await trx
    .insertInto("appointment_options")
    .values(times.map((starts_at) => ({ appointment_id: id, starts_at })))
    .execute();
}

/** A new state of the appointment: the proposed times and the reminders go with the old one. */
async function changeState(trx: Trx, id: string, state: Updateable<Database["appointments"]>) {
  await trx.updateTable("appointments").set(state).where("id", "=", id).execute();
  await trx.deleteFrom("appointment_options").where("appointment_id", "=", id).execute();
  await trx.deleteFrom("appointment_reminders").where("appointment_id", "=", id).execute();
}

/**
 * The mail job's part of ADR 093: appointments still standing (pending, or confirmed and ahead) whose
 * dentist is no longer verified and whose patient has not been told, marked as told and returned with
 * whom to tell. First, those whose dentist is verified again lose their mark, so that a later
 * withdrawal is told too. Each is one statement, so that two instances never tell twice. Erased
 * parties (pseudonyms, never verified) are left out.
 */
export async function systemSettleDentistAwayMails(db: Kysely<Database>, now: Date) {
  await db
    .updateTable("appointments as a")
    .from("profiles as d")
    .set({ dentist_away_mailed_at: null })
    .whereRef("d.id", "=", "a.dentist_id")
    .where("a.dentist_away_mailed_at", "is not", null)
    .where("d.is_verified", "=", true)
    .execute();
  return db
    .updateTable("appointments as a")
    .from(["profiles as d", "profiles as p"])
    .set({ dentist_away_mailed_at: now })
    .whereRef("d.id", "=", "a.dentist_id")
    .whereRef("p.id", "=", "a.patient_id")
    .where("a.dentist_away_mailed_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("a.status", "=", "pending"),
        eb.and([eb("a.status", "=", "confirmed"), eb("a.starts_at", ">", now)]),
      ]),
    )
    .where("d.is_verified", "=", false)
    .where("d.erased_at", "is", null)
    .where("p.erased_at", "is", null)
    .returning([
      "a.id",
      "a.request_id",
      "a.status",
      "a.starts_at",
      "p.email as patient_email",
      sql<string>`coalesce(nullif(p.first_name, ''), p.full_name)`.as("patient_first_name"),
      "d.full_name as dentist_name",
      "d.practice_address",
      "d.practice_postcode",
      "d.city as practice_city",
    ])
    .execute();
}

/**
 * Reminders (system jobs, no actor): each due row is claimed by a conditional update before its
 * e-mail goes, so a restart or a second instance never sends it twice.
 */
export const remindersRepo = {
  claimDue(db: Kysely<Database>, now: Date) {
    return db
      .updateTable("appointment_reminders as ar")
      .from("appointments as a")
      .set({ sent_at: now })
      .whereRef("a.id", "=", "ar.appointment_id")
      .where("ar.sent_at", "is", null)
      .where("ar.due_at", "<=", now)
      .where("a.status", "=", "confirmed")
      .where("a.starts_at", ">", now)
      .returning([
        "ar.appointment_id",
        "ar.kind",
        "a.starts_at",
        "a.patient_id",
        "a.dentist_id",
        "a.request_id",
      ])
      .execute();
  },

  /** A reminder whose e-mail failed goes back to the next run. */
  async release(db: Kysely<Database>, appointmentId: string, kind: "7d" | "1d") {
    await db
      .updateTable("appointment_reminders")
      .set({ sent_at: null })
      .where("appointment_id", "=", appointmentId)
      .where("kind", "=", kind)
      .execute();
  },

  /** The contacts of the parties of claimed reminders. */
  people(db: Kysely<Database>, ids: string[]) {
    return db
      .selectFrom("profiles")
      .select([
        "id",
        "email",
        "first_name",
        "full_name",
        "practice_address",
        "practice_postcode",
        "city",
        "email_reminders",
      ])
      .where("id", "in", ids)
      .execute();
  },
};
