// An unverified dentist sees the same explanation as on 'Demandes de devis'.
import { ofName } from "../../../shared/format/names";
import {
  AppointmentsScreen,
  type AppointmentsScreenOptions,
} from "../../components/appointments/AppointmentsScreen";
import { VerifiedOnly } from "../../components/dashboard/VerificationPending";

const OPTIONS: AppointmentsScreenOptions = {
  title: "Rendez-vous",
  description:
    "Les rendez-vous demandés par vos patients, ceux à venir et ceux qui ont eu lieu, à l'heure de Paris.",
  noneComing: {
    description:
      "Quand un patient accepte votre proposition, il choisit un créneau : sa demande de rendez-vous apparaîtra ici.",
  },
  requestLink: (appointment) => ({
    to: `/dentist/patient-submission/${appointment.request_id}`,
    label: `Voir la demande ${ofName(appointment.patient.full_name)}`,
  }),
  wrap: (tabs) => <VerifiedOnly>{tabs}</VerifiedOnly>,
};

/** /dentist/appointments 'Rendez-vous'. */
export function DentistAppointmentsPage() {
  return <AppointmentsScreen options={OPTIONS} />;
}
