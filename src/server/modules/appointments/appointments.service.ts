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
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import { AppError, loggableError, notFound, validationError } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import {
  appointmentCancelledMail,
  appointmentConfirmedMail,
  appointmentProposedMail,
  appointmentReminderMail,
} from "../../mail/templates";
import type { EventBus } from "../../realtime/bus";
import { type AppointmentWithContacts, appointmentsRepo } from "./appointments.repo";
import { appointmentIcs } from "./calendar";

interface Deps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  clock: () => Date;
  bus: EventBus;
  log: { error(obj: object, msg: string): void };
}

/** Both parties' open screens reload the appointment (after the commit; a failure is only logged). */
function announce(deps: Deps, a: AppointmentWithContacts) {
  deps.bus
    .publish({
      kind: "appointment",
      appointmentId: a.id,
      requestId: a.request_id,
      userIds: [a.patient.id, a.dentist.id],
    })
    .catch((error) => deps.log.error({ err: loggableError(error) }, "rendez-vous non diffusé"));
}

const other = (side: AppointmentSide): AppointmentSide => (side === "patient" ? "dentist" : "patient");

/** The practice's address on one line, or null. */
function placeText(p: { address: string | null; postcode: string | null; city: string | null }) {
  const town = [p.postcode, p.city].filter(Boolean).join(" ");
  return [p.address, town].filter(Boolean).join(", ") || null;
}
const placeOf = (a: AppointmentWithContacts) => placeText(a.dentist);

/** The e-mail contact of one party, with the link to where they act on the appointment. */
function party(deps: Pick<Deps, "config">, a: AppointmentWithContacts, side: AppointmentSide) {
  return side === "patient"
    ? {
        email: a.row.patient_email,
        firstName: a.row.patient_first_name || a.patient.full_name,
        name: a.patient.full_name,
        link: `${deps.config.publicUrl}/patient/request/${a.request_id}`,
      }
    : {
        email: a.row.dentist_email,
        firstName: a.row.dentist_first_name || a.dentist.full_name,
        name: a.dentist.full_name,
        link: `${deps.config.publicUrl}/dentist/appointments`,
      };
}

/** After the commit, and never failing the change (D15). */
function send(deps: Deps, to: string, mail: { subject: string; text: string }) {
  deps.mailer
    .send({ to, ...mail })
    .catch((error) =>
      deps.log.error({ err: { message: (error as Error).message } }, "e-mail de rendez-vous non envoyé"),
    );
}

function checkTimes(slots: readonly string[], now: Date): Date[] {
  const issues = appointmentTimingIssues(slots, now);
  if (issues.length > 0) throw validationError(issues);
  return slots.map(parisLocalToDate);
}

async function reload(deps: Deps, actor: Actor, id: string, now: Date) {
  const appointment = await appointmentsRepo(deps.db, actor).find(id, now);
  if (!appointment) throw new Error("rendez-vous enregistré introuvable");
  return appointment;
}

function proposedMail(deps: Deps, a: AppointmentWithContacts, from: AppointmentSide, moved: boolean) {
  const to = party(deps, a, other(from));
  send(
    deps,
    to.email,
    appointmentProposedMail({
      brandName: deps.config.brandName,
      firstName: to.firstName,
      fromName: party(deps, a, from).name,
      times: a.options.map(formatAppointmentTime),
      moved,
      link: to.link,
    }),
  );
}

/**
 * The patient asks for an appointment on their accepted offer (D14): one of the dentist's
 * proposed slots or up to three times of their own; the dentist then confirms one.
 */
export async function bookAppointment(deps: Deps, actor: Actor, offerId: string, slots: string[]) {
  const now = deps.clock();
  const times = checkTimes(slots, now);
  const id = await deps.db.transaction().execute(async (trx) => {
    const offer = await trx
      .selectFrom("offers as o")
      .innerJoin("requests as r", "r.id", "o.request_id")
      .select(["o.id", "o.status", "o.request_id", "o.dentist_id"])
      .where("o.id", "=", offerId)
      .where("r.patient_id", "=", actor.userId)
      .forUpdate("o")
      .executeTakeFirst();
    if (!offer) throw notFound(OFFER_MESSAGES.notFound);
    if (offer.status !== "accepted")
      throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.offerNotAccepted);
    const live = await trx
      .selectFrom("appointments")
      .select("id")
      .where("offer_id", "=", offerId)
      .where("status", "in", ["pending", "confirmed"])
      .executeTakeFirst();
    if (live) throw new AppError(409, "CONFLICT", APPOINTMENT_MESSAGES.alreadyBooked);
    const created = await trx
      .insertInto("appointments")
      .values({
        request_id: offer.request_id,
        offer_id: offer.id,
        patient_id: actor.userId,
        dentist_id: offer.dentist_id,
        status: "pending",
        awaiting: "dentist",
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("appointment_options")
      .values(times.map((starts_at) => ({ appointment_id: created.id, starts_at })))
      .execute();
    return created.id;
  });
  const appointment = await reload(deps, actor, id, now);
  announce(deps, appointment);
  proposedMail(deps, appointment, "patient", false);
  return appointment;
}

type LockedRow = NonNullable<Awaited<ReturnType<ReturnType<typeof appointmentsRepo>["lock"]>>>;

/**
 * One change of an appointment by one of its parties, in one transaction on its locked row: 404
 * for anyone else, 409 when the rule says no. Once committed, both parties' screens are told.
 */
async function changeAppointment<T>(
  deps: Deps,
  actor: Actor,
  id: string,
  rule: { allowed: (row: LockedRow, side: AppointmentSide, now: Date) => boolean; refusal: string },
  work: (trx: Transaction<Database>, row: LockedRow, side: AppointmentSide, now: Date) => Promise<T>,
) {
  const now = deps.clock();
  const repo = appointmentsRepo(deps.db, actor);
  const side = repo.side;
  if (!side) throw notFound(APPOINTMENT_MESSAGES.notFound);
  const result = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.lock(trx, id);
    if (!row) throw notFound(APPOINTMENT_MESSAGES.notFound);
    if (!rule.allowed(row, side, now)) throw new AppError(409, "CONFLICT", rule.refusal);
    return work(trx, row, side, now);
  });
  const appointment = await reload(deps, actor, id, now);
  announce(deps, appointment);
  return { appointment, result, side };
}

/** The proposed times and the reminders go with any change of the appointment's state. */
async function clearSchedule(trx: Transaction<Database>, id: string) {
  await trx.deleteFrom("appointment_options").where("appointment_id", "=", id).execute();
  await trx.deleteFrom("appointment_reminders").where("appointment_id", "=", id).execute();
}

/** The awaited side picks one of the proposed times: confirmed, and its reminders scheduled. */
export async function confirmAppointment(deps: Deps, actor: Actor, id: string, startsAt: string) {
  const chosen = new Date(startsAt);
  const { appointment } = await changeAppointment(
    deps,
    actor,
    id,
    { allowed: mayConfirmAppointment, refusal: APPOINTMENT_MESSAGES.notAwaitingYou },
    async (trx, _row, _side, now) => {
      const option = await trx
        .selectFrom("appointment_options")
        .select("starts_at")
        .where("appointment_id", "=", id)
        .where("starts_at", "=", chosen)
        .executeTakeFirst();
      if (!option)
        throw validationError([{ path: ["starts_at"], message: APPOINTMENT_MESSAGES.optionUnknown }]);
      if (chosen.getTime() <= now.getTime())
        throw validationError([{ path: ["starts_at"], message: APPOINTMENT_MESSAGES.slotPast }]);
      await trx
        .updateTable("appointments")
        .set({ status: "confirmed", awaiting: null, starts_at: chosen, updated_at: now })
        .where("id", "=", id)
        .execute();
      await clearSchedule(trx, id);
      const reminders = reminderSchedule(chosen, now);
      if (reminders.length > 0)
        await trx
          .insertInto("appointment_reminders")
          .values(reminders.map((r) => ({ appointment_id: id, kind: r.kind, due_at: r.due_at })))
          .execute();
    },
  );
  for (const to of ["patient", "dentist"] as const) {
    const recipient = party(deps, appointment, to);
    send(
      deps,
      recipient.email,
      appointmentConfirmedMail({
        brandName: deps.config.brandName,
        firstName: recipient.firstName,
        withName: party(deps, appointment, other(to)).name,
        when: formatAppointmentTime(chosen),
        place: placeOf(appointment),
        link: recipient.link,
      }),
    );
  }
  return appointment;
}

/**
 * Either side proposes other times — instead of the ones offered, or to move a confirmed
 * appointment: it waits for the other side again, and its reminders are dropped.
 */
export async function proposeTimes(deps: Deps, actor: Actor, id: string, slots: string[]) {
  const times = checkTimes(slots, deps.clock());
  const {
    appointment,
    result: moved,
    side,
  } = await changeAppointment(
    deps,
    actor,
    id,
    { allowed: mayChangeAppointment, refusal: APPOINTMENT_MESSAGES.closed },
    async (trx, row, side, now) => {
      await trx
        .updateTable("appointments")
        .set({ status: "pending", awaiting: other(side), starts_at: null, updated_at: now })
        .where("id", "=", id)
        .execute();
      await clearSchedule(trx, id);
      await trx
        .insertInto("appointment_options")
        .values(times.map((starts_at) => ({ appointment_id: id, starts_at })))
        .execute();
      return row.status === "confirmed";
    },
  );
  proposedMail(deps, appointment, side, moved);
  return appointment;
}

/** Either side cancels a pending or coming appointment; the other side is told. */
export async function cancelAppointment(deps: Deps, actor: Actor, id: string) {
  const {
    appointment,
    result: previous,
    side,
  } = await changeAppointment(
    deps,
    actor,
    id,
    { allowed: mayChangeAppointment, refusal: APPOINTMENT_MESSAGES.closed },
    async (trx, row, side, now) => {
      await trx
        .updateTable("appointments")
        .set({ status: "cancelled", awaiting: null, cancelled_by: side, updated_at: now })
        .where("id", "=", id)
        .execute();
      await clearSchedule(trx, id);
      return row;
    },
  );
  const to = party(deps, appointment, other(side));
  send(
    deps,
    to.email,
    appointmentCancelledMail({
      brandName: deps.config.brandName,
      firstName: to.firstName,
      byName: party(deps, appointment, side).name,
      when:
        previous.status === "confirmed" && previous.starts_at
          ? formatAppointmentTime(previous.starts_at)
          : null,
      link: to.link,
    }),
  );
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
        ? `Rendez-vous dentaire — ${appointment.dentist.full_name}`
        : `Rendez-vous — ${appointment.patient.full_name}`,
    place: placeOf(appointment),
    link,
    brandName: deps.config.brandName,
    host: new URL(deps.config.publicUrl).hostname,
  });
}

/**
 * Reminder e-mails that are due (7 days and 1 day before a confirmed appointment still ahead):
 * each row is claimed by a conditional update before its e-mail goes, so a restart or a second
 * instance never sends it twice (a failed send is released for the next run). The patient is
 * reminded; the dentist has the appointments page.
 */
export async function sendAppointmentReminders(deps: {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}): Promise<number> {
  const claimed = await deps.db
    .updateTable("appointment_reminders as ar")
    .from("appointments as a")
    .set({ sent_at: deps.now })
    .whereRef("a.id", "=", "ar.appointment_id")
    .where("ar.sent_at", "is", null)
    .where("ar.due_at", "<=", deps.now)
    .where("a.status", "=", "confirmed")
    .where("a.starts_at", ">", deps.now)
    .returning([
      "ar.appointment_id",
      "ar.kind",
      "a.starts_at",
      "a.patient_id",
      "a.dentist_id",
      "a.request_id",
    ])
    .execute();
  if (claimed.length === 0) return 0;
  const people = await deps.db
    .selectFrom("profiles")
    .select(["id", "email", "first_name", "full_name", "practice_address", "practice_postcode", "city"])
    .where("id", "in", [...new Set(claimed.flatMap((c) => [c.patient_id, c.dentist_id]))])
    .execute();
  const byId = new Map(people.map((p) => [p.id, p]));
  await Promise.all(
    claimed.map(async (reminder) => {
      const patient = byId.get(reminder.patient_id);
      const dentist = byId.get(reminder.dentist_id);
      if (!patient || !dentist || !reminder.starts_at) return;
      const place = placeText({
        address: dentist.practice_address,
        postcode: dentist.practice_postcode,
        city: dentist.city,
      });
      try {
        await deps.mailer.send({
          to: patient.email,
          ...appointmentReminderMail({
            brandName: deps.config.brandName,
            firstName: patient.first_name || patient.full_name,
            withName: dentist.full_name,
            when: formatAppointmentTime(reminder.starts_at),
            place,
            kind: reminder.kind,
            link: `${deps.config.publicUrl}/patient/request/${reminder.request_id}`,
          }),
        });
      } catch (error) {
        // Released: the next run tries again.
        deps.log.error(
          { err: loggableError(error), kind: reminder.kind },
          "rappel de rendez-vous non envoyé",
        );
        await deps.db
          .updateTable("appointment_reminders")
          .set({ sent_at: null })
          .where("appointment_id", "=", reminder.appointment_id)
          .where("kind", "=", reminder.kind)
          .execute();
      }
    }),
  );
  return claimed.length;
}
