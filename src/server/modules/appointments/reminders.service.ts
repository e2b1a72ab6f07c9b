import { formatAppointmentTime } from "../../../shared/format/dates";
import { drName } from "../../../shared/format/names";
import { emailPreferencesPath } from "../../../shared/schemas/profile";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { type Mailer, sendEach } from "../../mail/mailer";
import { appointmentDentistAwayMail, appointmentReminderMail } from "../../mail/templates";
import { loggableError } from "../../redact";
import { placeText } from "./appointments.mail";
import { remindersRepo, systemSettleDentistAwayMails } from "./schedule.repo";

interface AppointmentMailDeps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  now: Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * Reminder e-mails that are due (7 days and 1 day before a confirmed appointment still ahead):
 * each row is claimed by a conditional update before its e-mail goes, so a restart or a second
 * instance never sends it twice (a failed send is released for the next run). The patient is
 * reminded (unless she stopped reminders, ADR 081); the dentist has the appointments page.
 */
export async function sendAppointmentReminders(deps: AppointmentMailDeps): Promise<number> {
  const claimed = await remindersRepo.claimDue(deps.db, deps.now);
  if (claimed.length === 0) return 0;
  const people = await remindersRepo.people(deps.db, [
    ...new Set(claimed.flatMap((c) => [c.patient_id, c.dentist_id])),
  ]);
  const byId = new Map(people.map((p) => [p.id, p]));
  await Promise.all(
    claimed.map(async (reminder) => {
      const patient = byId.get(reminder.patient_id);
      const dentist = byId.get(reminder.dentist_id);
      // A patient who stopped reminders (ADR 081): claimed, so none is sent later about this one.
      if (!patient || !dentist || !reminder.starts_at || !patient.email_reminders) return;
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
            withName: drName(dentist.full_name),
            when: formatAppointmentTime(reminder.starts_at),
            place,
            kind: reminder.kind,
            link: `${deps.config.publicUrl}/patient/request/${reminder.request_id}`,
            preferencesLink: `${deps.config.publicUrl}${emailPreferencesPath("patient")}`,
          }),
        });
      } catch (error) {
        // Released: the next run tries again.
        deps.log.error(
          { err: loggableError(error), kind: reminder.kind },
          "rappel de rendez-vous non envoyé",
        );
        await remindersRepo.release(deps.db, reminder.appointment_id, reminder.kind);
      }
    }),
  );
  return claimed.length;
}

/**
 * The mail job's e-mails to patients whose appointment still stands while its dentist is no longer
 * verified (ADR 093): one per appointment settled in this run, once per withdrawal, linking to its
 * request. A service e-mail: sent whatever her notification settings. A failed e-mail is logged (its
 * error only) and not sent again; her appointment's card says the same. Resolves to the number sent.
 */
export async function sendDentistAwayEmails(deps: AppointmentMailDeps): Promise<number> {
  const settled = await systemSettleDentistAwayMails(deps.db, deps.now);
  return sendEach(
    deps,
    settled,
    (appointment) => ({
      to: appointment.patient_email,
      ...appointmentDentistAwayMail({
        brandName: deps.config.brandName,
        firstName: appointment.patient_first_name,
        withName: drName(appointment.dentist_name),
        when:
          appointment.status === "confirmed" && appointment.starts_at
            ? formatAppointmentTime(appointment.starts_at)
            : null,
        // Where to reach him: his practice's address (verified with him, ADR 075); a town alone says nothing.
        place: appointment.practice_address
          ? placeText({
              address: appointment.practice_address,
              postcode: appointment.practice_postcode,
              city: appointment.practice_city,
            })
          : null,
        link: `${deps.config.publicUrl}/patient/request/${appointment.request_id}`,
      }),
    }),
    "e-mail au patient sur son rendez-vous avec un dentiste non vérifié non envoyé",
  );
}
