import { MessageSquareHeart } from "lucide-react";
import { Link } from "react-router";
import { formatDetailDate } from "../../../shared/format/dates";
import { drName, theName } from "../../../shared/format/names";
import type { ReviewInvitation } from "../../../shared/schemas/reviews";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { useMyReviews } from "./api";

/** The link to write a review of one past appointment. */
export const reviewFormPath = (appointmentId: string) =>
  `/patient/reviews/new/${encodeURIComponent(appointmentId)}`;

/**
 * The invitations to review a past appointment (issue 36): on the dashboard (all of them) and on a
 * finished request's page (`requestId`: its own). Nothing while loading or when there are none.
 */
export function ReviewInvitations({ requestId }: { requestId?: string }) {
  const mine = useMyReviews();
  const invitations = (mine.data?.invitations ?? []).filter(
    (invitation) => requestId === undefined || invitation.request_id === requestId,
  );
  if (invitations.length === 0) return null;
  return (
    <section aria-label="Avis à donner" className="mb-8 grid gap-3">
      {invitations.map((invitation) => (
        <InvitationCard key={invitation.appointment_id} invitation={invitation} />
      ))}
    </section>
  );
}

function InvitationCard({ invitation }: { invitation: ReviewInvitation }) {
  return (
    <Card className="flex flex-col gap-4 border-brand-200 bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-white text-brand-700">
          <MessageSquareHeart className="size-5" aria-hidden="true" />
        </span>
        <div className="grid gap-0.5">
          <h2 className="font-semibold text-slate-900">
            Comment s'est passé votre rendez-vous avec {theName(drName(invitation.dentist.full_name))} ?
          </h2>
          <p className="text-sm text-slate-700">
            Rendez-vous du {formatDetailDate(invitation.starts_at)}. Votre avis aide d'autres patients à
            choisir.
          </p>
        </div>
      </div>
      <Button asChild>
        <Link to={reviewFormPath(invitation.appointment_id)}>Donner mon avis</Link>
      </Button>
    </Card>
  );
}
