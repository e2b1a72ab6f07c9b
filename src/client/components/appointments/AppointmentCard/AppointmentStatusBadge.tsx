import {
  APPOINTMENT_VIEW_LABELS,
  APPOINTMENT_VIEW_TONES,
  type AppointmentSide,
  type AppointmentView,
} from "../../../../shared/domain/appointments";
import { cn } from "../../../lib/cn";
import { Badge } from "../../ui/Badge";

/** The appointment's state as its French label (for this side) on its colour. */
export function AppointmentStatusBadge({
  side,
  view,
  className,
}: {
  side: AppointmentSide;
  view: AppointmentView;
  className?: string;
}) {
  return (
    // The longer labels ('En attente de confirmation du dentiste') wrap on a phone: a pill of
    // two lines reads as a blob, a rounded rectangle does not.
    <Badge tone={APPOINTMENT_VIEW_TONES[view] ?? "gray"} className={cn("max-sm:rounded-lg", className)}>
      {APPOINTMENT_VIEW_LABELS[side]?.[view] ?? view}
    </Badge>
  );
}
