import { requestStatusLabel, requestStatusTone } from "../../../shared/domain/requests";
import { Badge } from "./Badge";

/** A request's patient-side status (spec §4, D8): its French label on its colour. */
export function RequestStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge tone={requestStatusTone(status)} className={className}>
      {requestStatusLabel(status)}
    </Badge>
  );
}
