import { BOOKING_ANCHOR } from "../../../../shared/domain/journey";
import { drName, theName } from "../../../../shared/format/names";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { RequestAppointment } from "../../../components/appointments/RequestAppointment";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { useAnchorFocus } from "./useAnchorFocus";

type Offer = RequestDetail["offers"][number];

/**
 * The accepted offer's booking, right under the journey (issue 16). '#rendez-vous' (the journey's
 * next action, or after accepting) scrolls there and focuses its title.
 */
export function BookingCard({
  requestId,
  accepted,
  finished = false,
}: {
  requestId: string;
  accepted: Offer;
  /** The request is done: its appointment is shown as past, with no booking form. */
  finished?: boolean;
}) {
  const heading = useAnchorFocus(BOOKING_ANCHOR, accepted.id);
  return (
    <Card className="mb-6" id={BOOKING_ANCHOR}>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="outline-none">
          Votre rendez-vous avec {theName(drName(accepted.dentist.full_name))}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <RequestAppointment requestId={requestId} offer={accepted} finished={finished} />
      </CardContent>
    </Card>
  );
}
