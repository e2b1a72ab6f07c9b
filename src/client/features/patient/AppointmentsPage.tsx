import { Link } from "react-router";
import { drName, theName } from "../../../shared/format/names";
import type { Appointment } from "../../../shared/schemas/appointments";
import {
  AppointmentsScreen,
  type AppointmentsScreenOptions,
} from "../../components/appointments/AppointmentsScreen";
import { Button } from "../../components/ui/Button";
import { useMyReviews } from "./api";
import { reviewFormPath } from "./ReviewInvitations";

const OPTIONS: AppointmentsScreenOptions = {
  title: "Mes rendez-vous",
  description:
    "Vos rendez-vous avec les dentistes, ceux à venir et ceux qui ont eu lieu, à l'heure de Paris.",
  noneComing: {
    description:
      "Après avoir accepté la proposition d'un dentiste, choisissez votre rendez-vous depuis votre demande.",
    action: (
      <Button asChild variant="outline">
        <Link to="/patient/requests">Voir mes demandes</Link>
      </Button>
    ),
  },
  requestLink: (appointment) => ({
    to: `/patient/request/${appointment.request_id}`,
    label: `Voir la demande du rendez-vous avec ${theName(drName(appointment.dentist.full_name))}`,
  }),
  moreActions: (appointment) =>
    appointment.view === "past" ? <ReviewAction appointment={appointment} /> : null,
};

/** /patient/appointments 'Mes rendez-vous': every appointment, beyond the dashboard's next three. */
export function PatientAppointmentsPage() {
  return <AppointmentsScreen options={OPTIONS} />;
}

/** « Donner mon avis » on a past appointment the patient is invited to review (issue 36), else nothing. */
function ReviewAction({ appointment }: { appointment: Appointment }) {
  const mine = useMyReviews();
  const invited = mine.data?.invitations.some((i) => i.appointment_id === appointment.id);
  if (!invited) return null;
  return (
    <Button asChild size="sm">
      <Link
        to={reviewFormPath(appointment.id)}
        aria-label={`Donner mon avis sur le rendez-vous avec ${theName(drName(appointment.dentist.full_name))}`}
      >
        Donner mon avis
      </Link>
    </Button>
  );
}
