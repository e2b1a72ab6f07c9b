import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { Avatar } from "../../../components/ui/Avatar";
import { Button } from "../../../components/ui/Button";
import { Skeleton } from "../../../components/ui/Skeleton";
import type { useThread } from "../api";
import { type ChatArea, otherPartyName } from "../ConversationList";

function BackLink({ to }: { to: string }) {
  return (
    <Button asChild variant="ghost" size="icon" className="md:hidden">
      <Link to={to} aria-label="Retour aux conversations">
        <ArrowLeft aria-hidden="true" />
      </Link>
    </Button>
  );
}

/**
 * The conversation's title bar: back to the list (on a phone), the other party and the treatment,
 * with a link to the request while its page still opens for this person; skeletons while it loads.
 */
export function ChatHeader({
  area,
  backTo,
  headingId,
  thread,
}: {
  area: ChatArea;
  backTo: string;
  /** The id of the other party's name, which names the panel. */
  headingId: string;
  thread: ReturnType<typeof useThread>;
}) {
  const conversation = thread.data?.pages[0]?.conversation;
  const otherName = otherPartyName(area, conversation?.other.full_name ?? "");
  // Only while the request's page still opens for this person: a dentist who was not chosen, or
  // any dentist once it is cancelled, would get a 404 there (ADR 012); the conversation stays.
  const requestPath =
    conversation?.request_visible === true
      ? area === "patient"
        ? `/patient/request/${conversation.request_id}`
        : `/dentist/patient-submission/${conversation.request_id}`
      : null;

  return (
    <div className="flex min-h-16 items-center gap-3 border-b border-slate-200 px-3 py-2">
      <BackLink to={backTo} />
      {conversation ? (
        <>
          {/* Initials from the name itself, as in the list ("JM", not "DM" for "Dr Julien Martin"). */}
          <Avatar name={conversation.other.full_name} src={conversation.other.avatar_url} />
          <div className="grid min-w-0 flex-1">
            <h2 id={headingId} className="truncate font-semibold text-slate-900">
              {otherName}
            </h2>
            <p className="truncate text-sm text-slate-600">
              {treatmentLabel(conversation.treatment_type)}
              {requestPath ? (
                <>
                  {" · "}
                  <Link
                    to={requestPath}
                    className="font-medium text-brand-800 underline-offset-2 hover:underline"
                  >
                    Voir la demande
                  </Link>
                </>
              ) : null}
            </p>
          </div>
        </>
      ) : thread.isPending ? (
        <div className="flex flex-1 items-center gap-3" aria-hidden="true">
          <Skeleton className="size-10 rounded-full" />
          <Skeleton className="h-4 w-40" />
        </div>
      ) : null}
    </div>
  );
}
