import { LifeBuoy } from "lucide-react";
import { Link } from "react-router";
import { supportRequestLabel } from "../../../shared/schemas/support";
import { cn } from "../../lib/cn";

/**
 * 'Besoin d'aide ?' on a request page (issue 16, item 7): opens the support chat of the person's area
 * with the request referenced (`?request=<id>`); the first message sent from there names it, and the
 * team sees "À propos de la demande …". The label travels in the navigation state, for the chat to
 * show which request the message will be about.
 */
export function NeedHelpLink({
  area,
  request,
  className,
}: {
  area: "patient" | "dentist";
  request: { id: string; treatment_type: string; created_at: string };
  className?: string | undefined;
}) {
  // "Couronne du 21/11/2026", as the team will read it.
  const requestLabel = supportRequestLabel(request.treatment_type, request.created_at);
  return (
    <Link
      to={`/${area}/help?request=${encodeURIComponent(request.id)}`}
      state={{ requestLabel }}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
        className,
      )}
    >
      <LifeBuoy className="size-4 shrink-0" aria-hidden="true" />
      Besoin d'aide{"\u202f"}?<span className="sr-only"> Écrire à l'équipe à propos de cette demande</span>
    </Link>
  );
}
