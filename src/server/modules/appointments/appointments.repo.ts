import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import {
  appointmentViewOf,
  mayChangeAppointment,
  mayConfirmAppointment,
} from "../../../shared/policies/appointments";
import { APPOINTMENT_PAGE_SIZE, type Appointment } from "../../../shared/schemas/appointments";
import type { Actor } from "../../access/actor";
import { appointmentSide, appointmentVisibleTo } from "../../access/objects";
import { isoOf } from "../../db/iso";
import { fetchPage } from "../../db/paging";
import { GENERIC_PLAN } from "../../db/prepared";
import type { Database } from "../../db/types";
import { dentistStandingOf } from "./schedule.repo";

/** The times proposed for these appointments (already filtered by the caller), soonest first. */
export async function proposedTimes(db: Kysely<Database>, appointmentIds: string[]) {
  if (appointmentIds.length === 0) return [];
  return db
    .selectFrom("appointment_options")
    .select(["appointment_id", "starts_at"])
    .where("appointment_id", "in", appointmentIds)
    .orderBy("starts_at")
    .execute();
}

/** An appointment's own columns, as both its parties' lists and the data export read them. */
export const APPOINTMENT_COLUMNS = [
  "a.id",
  "a.request_id",
  "a.offer_id",
  "a.patient_id",
  "a.dentist_id",
  "a.status",
  "a.awaiting",
  "a.starts_at",
  "a.cancelled_by",
  "a.created_at",
  "a.updated_at",
] as const;

type AppointmentScope = ExpressionBuilder<Database & { a: Database["appointments"] }, "a">;

/** Appointments as one party sees them: every query is bound to the actor's side and id. */
export function appointmentsRepo(db: Kysely<Database>, actor: Actor) {
  const side = appointmentSide(actor);
  const mine = (eb: AppointmentScope) => appointmentVisibleTo(eb, actor);

  const base = (q: Kysely<Database>) =>
    q
      .selectFrom("appointments as a")
      .innerJoin("requests as r", "r.id", "a.request_id")
      .innerJoin("offers as o", "o.id", "a.offer_id")
      .innerJoin("profiles as pp", "pp.id", "a.patient_id")
      .innerJoin("profiles as dp", "dp.id", "a.dentist_id")
      .select(APPOINTMENT_COLUMNS)
      .select([
        "r.treatment_type",
        "o.amount_cents",
        "pp.full_name as patient_name",
        "pp.email as patient_email",
        "pp.first_name as patient_first_name",
        "dp.full_name as dentist_name",
        "dp.email as dentist_email",
        "dp.first_name as dentist_first_name",
        "dp.city as dentist_city",
        "dp.practice_address as dentist_address",
        "dp.practice_postcode as dentist_postcode",
        // Whether the other party can still answer (other_standing).
        "dp.role as dentist_role",
        "dp.is_verified as dentist_is_verified",
        "dp.is_admin as dentist_is_admin",
        "dp.erased_at as dentist_erased_at",
        "pp.erased_at as patient_erased_at",
        "pp.suspended_at as patient_suspended_at",
      ])
      // A pending appointment's proposed times, soonest first, and those of them at which its
      // dentist has since confirmed another appointment (issue 32: shown as taken), as JSON arrays
      // of the row (issue 38: they were two more queries). None for the others.
      .select((eb) => [
        jsonArrayFrom(
          eb
            .selectFrom("appointment_options as ao")
            .select("ao.starts_at")
            .whereRef("ao.appointment_id", "=", "a.id")
            .where("a.status", "=", "pending")
            .orderBy("ao.starts_at"),
        ).as("option_times"),
        jsonArrayFrom(
          eb
            .selectFrom("appointment_options as ao")
            .innerJoin("appointments as other", (join) =>
              join
                .onRef("other.dentist_id", "=", "a.dentist_id")
                .onRef("other.starts_at", "=", "ao.starts_at")
                .onRef("other.id", "<>", "a.id")
                .on("other.status", "=", "confirmed"),
            )
            .select("ao.starts_at")
            .whereRef("ao.appointment_id", "=", "a.id")
            .where("a.status", "=", "pending")
            .orderBy("ao.starts_at"),
        ).as("taken_times"),
      ])
      .where(mine);
  type Row = Awaited<ReturnType<ReturnType<typeof base>["executeTakeFirstOrThrow"]>>;

  /** Whether the other party can still answer (ADR 092): the card offers no new times otherwise. */
  function otherStanding(row: Row): Appointment["other_standing"] {
    if (side === "patient")
      return dentistStandingOf({
        erased_at: row.dentist_erased_at,
        role: row.dentist_role,
        is_admin: row.dentist_is_admin,
        is_verified: row.dentist_is_verified,
      });
    if (row.patient_erased_at !== null) return "erased";
    return row.patient_suspended_at !== null ? "suspended" : "active";
  }

  function toDto(row: Row, now: Date): Appointment & { row: Row } {
    if (side === null) throw new Error("rendez-vous : aucun côté");
    const standing = otherStanding(row);
    const times = (list: { starts_at: Date | string }[]) => list.map((t) => isoOf(t.starts_at));
    return {
      id: row.id,
      request_id: row.request_id,
      offer_id: row.offer_id,
      treatment_type: row.treatment_type,
      amount_cents: row.amount_cents,
      status: row.status,
      awaiting: row.awaiting,
      my_side: side,
      view: appointmentViewOf(row, side, now),
      starts_at: row.starts_at ? isoOf(row.starts_at) : null,
      options: times(row.option_times),
      taken_options: times(row.taken_times),
      cancelled_by: row.cancelled_by,
      // A patient confirms no time of a dentist who can no longer be booked (refuseGoneDentist); a
      // dentist confirms the time a suspended patient chose.
      may_confirm: mayConfirmAppointment(row, side, now) && (side === "dentist" || standing === "active"),
      may_change: mayChangeAppointment(row, side, now),
      other_standing: standing,
      patient: { id: row.patient_id, full_name: row.patient_name || "Patient" },
      dentist: {
        id: row.dentist_id,
        full_name: row.dentist_name || "Dentiste",
        city: row.dentist_city,
        address: row.dentist_address,
        postcode: row.dentist_postcode,
      },
      created_at: isoOf(row.created_at),
      updated_at: isoOf(row.updated_at),
      row,
    };
  }

  const strip = ({ row: _row, ...dto }: Appointment & { row: Row }): Appointment => dto;

  return {
    side,

    /** Pending ones, and confirmed ones still ahead: soonest first (a pending one by its first option). */
    async upcoming(page: number, now: Date) {
      const { rows, hasMore } = await fetchPage(
        base(db)
          .where((eb) =>
            eb.or([
              eb("a.status", "=", "pending"),
              eb.and([eb("a.status", "=", "confirmed"), eb("a.starts_at", ">", now)]),
            ]),
          )
          .orderBy(
            sql`coalesce(a.starts_at, (select min(ao.starts_at) from appointment_options ao where ao.appointment_id = a.id))`,
          )
          .orderBy("a.id")
          // Its generic plan (db/prepared.ts): a handful of rows, planned again on every call
          // before (issue 38: 9 rows, ~14 ms of planning for 10 ms of execution at 100 000 requests).
          .modifyEnd(sql.raw(GENERIC_PLAN)),
        { page, pageSize: APPOINTMENT_PAGE_SIZE },
      );
      return { items: side === null ? [] : rows.map((row) => strip(toDto(row, now))), hasMore };
    },

    /** Confirmed ones whose time has come: the latest first. */
    async past(page: number, now: Date) {
      const { rows, hasMore } = await fetchPage(
        base(db)
          .where("a.status", "=", "confirmed")
          .where("a.starts_at", "<=", now)
          .orderBy("a.starts_at", "desc")
          .orderBy("a.id"),
        { page, pageSize: APPOINTMENT_PAGE_SIZE },
      );
      return { items: side === null ? [] : rows.map((row) => strip(toDto(row, now))), hasMore };
    },

    /** Every appointment of one request: the live one first, then the newest. */
    async onRequest(requestId: string, page: number, now: Date) {
      const { rows, hasMore } = await fetchPage(
        base(db)
          .where("a.request_id", "=", requestId)
          .orderBy(sql`a.status in ('pending', 'confirmed')`, "desc")
          .orderBy("a.created_at", "desc")
          .orderBy("a.id"),
        { page, pageSize: APPOINTMENT_PAGE_SIZE },
      );
      return { items: side === null ? [] : rows.map((row) => strip(toDto(row, now))), hasMore };
    },

    /** One appointment, with its parties' contacts (for e-mails); undefined when not the actor's. */
    async find(id: string, now: Date, trx: Kysely<Database> = db) {
      const row = await base(trx).where("a.id", "=", id).executeTakeFirst();
      if (!row || side === null) return undefined;
      return toDto(row, now);
    },

    /** Locks the actor's appointment for a change (inside a transaction); undefined when not theirs. */
    async lock(trx: Kysely<Database>, id: string) {
      return trx
        .selectFrom("appointments as a")
        .select([
          "a.id",
          "a.status",
          "a.awaiting",
          "a.starts_at",
          "a.offer_id",
          "a.dentist_id",
          "a.patient_id",
        ])
        .where("a.id", "=", id)
        .where(mine)
        .forUpdate()
        .executeTakeFirst();
    },
  };
}

export type AppointmentWithContacts = NonNullable<
  Awaited<ReturnType<ReturnType<typeof appointmentsRepo>["find"]>>
>;
