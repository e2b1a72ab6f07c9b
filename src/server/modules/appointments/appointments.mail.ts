import type { AppointmentSide } from "../../../shared/domain/appointments";
import { formatAppointmentTime } from "../../../shared/format/dates";
import { drName } from "../../../shared/format/names";
import type { AppConfig } from "../../config";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import {
  appointmentCancelledMail,
  appointmentConfirmedMail,
  appointmentProposedMail,
} from "../../mail/templates";
import type { AppointmentWithContacts } from "./appointments.repo";

/** What the appointments' e-mails need; they go after the commit and never fail the change. */
export interface MailDeps extends MailAfterCommit {
  config: AppConfig;
}

export const other = (side: AppointmentSide): AppointmentSide => (side === "patient" ? "dentist" : "patient");

/** The practice's address on one line, or null. */
export function placeText(p: { address: string | null; postcode: string | null; city: string | null }) {
  const town = [p.postcode, p.city].filter(Boolean).join(" ");
  return [p.address, town].filter(Boolean).join(", ") || null;
}
export const placeOf = (a: AppointmentWithContacts) => placeText(a.dentist);

/** The e-mail contact of one party, with the link to where they act on the appointment. */
export function party(deps: Pick<MailDeps, "config">, a: AppointmentWithContacts, side: AppointmentSide) {
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
        // Named to the patient, with his title (glossary).
        name: drName(a.dentist.full_name),
        link: `${deps.config.publicUrl}/dentist/appointments`,
      };
}

/** After the commit, and never failing the change: a failed send is only logged. */
function send(deps: MailDeps, to: string, mail: { subject: string; text: string }) {
  mailAfterCommit(deps, { to, ...mail }, "e-mail de rendez-vous non envoyé");
}

/** The other side is told of the times proposed (`moved`: a confirmed appointment is moved). */
export function proposedMail(
  deps: MailDeps,
  a: AppointmentWithContacts,
  from: AppointmentSide,
  moved: boolean,
) {
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

/** Both sides are told of the time confirmed. */
export function confirmedMails(deps: MailDeps, a: AppointmentWithContacts, chosen: Date) {
  for (const to of ["patient", "dentist"] as const) {
    const recipient = party(deps, a, to);
    send(
      deps,
      recipient.email,
      appointmentConfirmedMail({
        brandName: deps.config.brandName,
        firstName: recipient.firstName,
        withName: party(deps, a, other(to)).name,
        when: formatAppointmentTime(chosen),
        place: placeOf(a),
        link: recipient.link,
      }),
    );
  }
}

/** The other side is told of the cancellation (and of the time it had, if it was confirmed). */
export function cancelledMail(
  deps: MailDeps,
  a: AppointmentWithContacts,
  by: AppointmentSide,
  previous: { status: string; starts_at: Date | string | null },
) {
  const to = party(deps, a, other(by));
  send(
    deps,
    to.email,
    appointmentCancelledMail({
      brandName: deps.config.brandName,
      firstName: to.firstName,
      byName: party(deps, a, by).name,
      when:
        previous.status === "confirmed" && previous.starts_at
          ? formatAppointmentTime(previous.starts_at)
          : null,
      link: to.link,
    }),
  );
}
