import {
  DENTIST_STATUS_LABELS,
  DENTIST_STATUS_TONES,
  type DentistStatus,
} from "../../../shared/domain/dentist";
import { requestStatusLabel, requestStatusTone } from "../../../shared/domain/requests";
import { Badge } from "./Badge";

/** A request's patient-side status (ADR 007): its French label on its colour. */
export function RequestStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge tone={requestStatusTone(status)} className={className}>
      {requestStatusLabel(status)}
    </Badge>
  );
}

/** A dentist's own status on a request (ADR 007): 'En attente' yellow, 'Répondu' blue, 'Confirmé' green. */
export function DentistStatusBadge({ status, className }: { status: DentistStatus; className?: string }) {
  return (
    <Badge tone={DENTIST_STATUS_TONES[status] ?? "gray"} className={className}>
      {DENTIST_STATUS_LABELS[status] ?? DENTIST_STATUS_LABELS.pending}
    </Badge>
  );
}

/** The 'Nouvelle' mark of a request this dentist has not opened yet. */
export function NewBadge({ className }: { className?: string }) {
  return (
    <Badge tone="brand" className={className}>
      Nouvelle
    </Badge>
  );
}
