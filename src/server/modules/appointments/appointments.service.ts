import type { Transaction } from "kysely";
import type { AppointmentSide } from "../../../shared/domain/appointments";
import { formatAppointmentTime } from "../../../shared/format/dates";
import {
  mayChangeAppointment,
  mayConfirmAppointment,
  reminderSchedule,
} from "../../../shared/policies/appointments";
import { parisLocalToDate } from "../../../shared/policies/offers";
import { APPOINTMENT_MESSAGES, appointmentTimingIssues } from "../../../shared/schemas/appointments";
import { OFFER_MESSAGES } from "../../../shared/schemas/offers";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import { AppError, notFound, validationError } from "../../errors";
import type { EventBus } from "../../realtime/bus";
import { announceAppointment } from "./appointments.events";
import {
  cancelledMail,
  confirmedMails,
  type MailDeps,
  other,
  party,
  placeOf,
  proposedMail,
} from "./appointments.mail";
import { appointmentsRepo } from "./appointments.repo";
import { appointmentIcs } from "./calendar";
import { scheduleRepo } from "./schedule.repo";

/**
 * Booking on an accepted offer (ADR 011): each use case is one transaction (its writes in
 * schedule.repo); once committed, both parties' screens are told and the e-mails go
 * (appointments.mail). Reminders are sent by reminders.service.
 */

export interface Deps extends MailDeps {
  db: Db;
  clock: () => Date;
  bus: EventBus;
}

function checkTimes(slots: readonly string[], now: Date): Date[] {
  const issues = appointmentTimingIssues(slots, now);
  if (issues.length > 0) throw validationError(issues);
  return slots.map(parisLocalToDate);
}

/** The French 409 of a time the dentist already has a confirmed appointment at (issue 32). */
const slotTaken = (time: Date) =>
  new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.slotTaken(formatAppointmentTime(time)));

/** 409 when the dentist already has another confirmed appointment at one of these times. */
async function refuseTakenTimes(
  trx: Transaction<Database>,
  dentistId: string,
  times: readonly Date[],
  except: string | null,
) {
  const [taken] = await scheduleRepo.takenTimes(trx, dentistId, times, except);
  if (taken) throw slotTaken(taken);
}

/**
 * 409 when the dentist can no longer be booked: his account erased (the accepted offer stays, under
 * a pseudonym) or no longer verified. Checked when the patient asks for, confirms or proposes times.
 */
async function refuseGoneDentist(trx: Transaction<Database>, dentistId: string) {
  const standing = await scheduleRepo.dentistStanding(trx, dentistId);
  if (standing === "erased") throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.dentistErased);
  if (standing === "unverified") throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.dentistNotVerified);
}

/**
 * 409 when the dentist proposes times to a patient whose account the team suspended (ADR 092): she
 * cannot sign in to choose one. Confirming her own choice, or cancelling, stays possible.
 */
async function refuseSuspendedPatient(trx: Transaction<Database>, patientId: string) {
  if (await scheduleRepo.patientSuspended(trx, patientId))
    throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.patientSuspended);
}

/** The partial unique index of one confirmed appointment per dentist and time (migration 029). */
const isDoubleBooking = (error: unknown) => {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === "23505" && (constraint === undefined || constraint === "appointments_dentist_time_idx");
};

async function reload(deps: Deps, actor: Actor, id: string, now: Date) {
  const appointment = await appointmentsRepo(deps.db, actor).find(id, now);
  if (!appointment) throw new Error("rendez-vous enregistré introuvable");
  return appointment;
}

/**
 * The patient asks for an appointment on their accepted offer (ADR 011): one of the dentist's
 * proposed slots or up to three times of their own; the dentist then confirms one.
 */
export async function bookAppointment(deps: Deps, actor: Actor, offerId: string, slots: string[]) {
  const now = deps.clock();
  const times = checkTimes(slots, now);
  const id = await deps.db.transaction().execute(async (trx) => {
    const offer = await scheduleRepo.offerToBook(trx, actor, offerId);
    if (!offer) throw notFound(OFFER_MESSAGES.notFound);
    if (offer.status !== "accepted")
      throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.offerNotAccepted);
    await refuseGoneDentist(trx, offer.dentist_id);
    if (await scheduleRepo.hasLiveAppointment(trx, offerId))
      throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.alreadyBooked);
    await refuseTakenTimes(trx, offer.dentist_id, times, null);
    return scheduleRepo.create(trx, {
      requestId: offer.request_id,
      offerId: offer.id,
      patientId: actor.userId,
      dentistId: offer.dentist_id,
      times,
      now,
    });
  });
  const appointment = await reload(deps, actor, id, now);
  announceAppointment(deps, appointment);
  proposedMail(deps, appointment, "patient", false);
  return appointment;
}

type LockedRow = NonNullable<Awaited<ReturnType<ReturnType<typeof appointmentsRepo>["lock"]>>>;

/** What a change of an appointment is checked against: 409 with the refusal when it says no. */
type ChangeRule = { allowed: (row: LockedRow, side: AppointmentSide, now: Date) => boolean; refusal: string };

/** Moving or cancelling: while the appointment is pending or ahead. */
const WHILE_OPEN: ChangeRule = { allowed: mayChangeAppointment, refusal: APPOINTMENT_MESSAGES.closed };

/**
 * One change of an appointment by one of its parties, in one transaction on its locked row: 404
 * for anyone else, 409 when the rule says no. Once committed, both parties' screens are told.
 * Gives the appointment after the change, the actor's side and the locked row as it was before.
 */
async function changeAppointment(
  deps: Deps,
  actor: Actor,
  id: string,
  rule: ChangeRule,
  work: (trx: Transaction<Database>, side: AppointmentSide, now: Date, row: LockedRow) => Promise<void>,
) {
  const now = deps.clock();
  const repo = appointmentsRepo(deps.db, actor);
  const side = repo.side;
  if (!side) throw notFound(APPOINTMENT_MESSAGES.notFound);
  const before = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.lock(trx, id);
    if (!row) throw notFound(APPOINTMENT_MESSAGES.notFound);
    if (!rule.allowed(row, side, now)) throw new AppError(409, "CONFLICT", rule.refusal);
    await work(trx, side, now, row);
    return row;
  });
  const appointment = await reload(deps, actor, id, now);
  announceAppointment(deps, appointment);
  return { appointment, side, before };
}

/**
 * The awaited side picks one of the proposed times: confirmed, and its reminders scheduled. A time the
 * dentist has confirmed for another appointment is refused (409 naming it), also when two
 * confirmations race: the unique index makes the second fail, and it gets the same answer.
 */
export async function confirmAppointment(deps: Deps, actor: Actor, id: string, startsAt: string) {
  const chosen = new Date(startsAt);
  const { appointment } = await changeAppointment(
    deps,
    actor,
    id,
    { allowed: mayConfirmAppointment, refusal: APPOINTMENT_MESSAGES.notAwaitingYou },
    async (trx, side, now, row) => {
      if (side === "patient") await refuseGoneDentist(trx, row.dentist_id);
      if (!(await scheduleRepo.isOption(trx, id, chosen)))
        throw validationError([{ path: ["starts_at"], message: APPOINTMENT_MESSAGES.optionUnknown }]);
      if (chosen.getTime() <= now.getTime())
        throw validationError([{ path: ["starts_at"], message: APPOINTMENT_MESSAGES.slotPast }]);
      await refuseTakenTimes(trx, row.dentist_id, [chosen], id);
      await scheduleRepo.confirm(trx, id, chosen, reminderSchedule(chosen, now), now);
    },
  ).catch((error) => {
    if (isDoubleBooking(error)) throw slotTaken(chosen);
    throw error;
  });
  confirmedMails(deps, appointment, chosen);
  return appointment;
}

/**
 * Either side proposes other times — instead of the ones offered, or to move a confirmed
 * appointment: it waits for the other side again, and its reminders are dropped.
 */
export async function proposeTimes(deps: Deps, actor: Actor, id: string, slots: string[]) {
  const times = checkTimes(slots, deps.clock());
  const { appointment, side, before } = await changeAppointment(
    deps,
    actor,
    id,
    WHILE_OPEN,
    async (trx, side, now, row) => {
      if (side === "patient") await refuseGoneDentist(trx, row.dentist_id);
      else await refuseSuspendedPatient(trx, row.patient_id);
      await refuseTakenTimes(trx, row.dentist_id, times, id);
      await scheduleRepo.propose(trx, id, other(side), times, now);
    },
  );
  proposedMail(deps, appointment, side, before.status === "confirmed");
  return appointment;
}

/** Either side cancels a pending or coming appointment; the other side is told. */
export async function cancelAppointment(deps: Deps, actor: Actor, id: string) {
  const { appointment, side, before } = await changeAppointment(
    deps,
    actor,
    id,
    WHILE_OPEN,
    (trx, side, now) => scheduleRepo.cancel(trx, id, side, now),
  );
  cancelledMail(deps, appointment, side, before);
  return appointment;
}

/** The .ics of a confirmed appointment, for the asker's calendar. */
export async function appointmentCalendar(
  deps: Pick<Deps, "db" | "config" | "clock">,
  actor: Actor,
  id: string,
) {
  const appointment = await appointmentsRepo(deps.db, actor).find(id, deps.clock());
  if (appointment?.status !== "confirmed" || !appointment.starts_at)
    throw notFound(APPOINTMENT_MESSAGES.notFound);
  const link = party(deps, appointment, appointment.my_side).link;
  return appointmentIcs({
    id: appointment.id,
    startsAt: new Date(appointment.starts_at),
    updatedAt: new Date(appointment.updated_at),
    title:
      appointment.my_side === "patient"
        ? `Rendez-vous dentaire — Dr ${appointment.dentist.full_name}`
        : `Rendez-vous — ${appointment.patient.full_name}`,
    place: placeOf(appointment),
    link,
    brandName: deps.config.brandName,
    host: new URL(deps.config.publicUrl).hostname,
  });
}
