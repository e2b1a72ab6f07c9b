import { type ReactNode, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { toast } from "sonner";
import { type Area, guardDecision } from "../../shared/policies/redirects";
import { ShellSkeleton } from "../components/ui/PageSkeleton";
import { useSession } from "../lib/session";

/**
 * Area guard (protected routes): the shell's skeleton while the session loads; signed out → the
 * area's login page with ?next= the current page; wrong role or not admin → /, told why.
 */
export function RequireArea({ area, children }: { area: Area; children: ReactNode }) {
  const { status, profile } = useSession();
  const location = useLocation();
  if (status === "loading") return <ShellSkeleton />;
  const decision = guardDecision(profile, area);
  if (!decision.allow) {
    if (!profile) {
      // The section too (#notifications, the link of the e-mails one may stop, ADR 081).
      const next = `${location.pathname}${location.search}${location.hash}`;
      return <Navigate to={`${decision.redirectTo}?next=${encodeURIComponent(next)}`} replace />;
    }
    return <NotYourArea area={area} to={decision.redirectTo} />;
  }
  return <>{children}</>;
}

/** Why a signed-in person was sent away (a link of another account's, an old bookmark). */
const RESERVED: Record<Area, string> = {
  patient: "Cette page est réservée aux patients.",
  dentist: "Cette page est réservée aux dentistes.",
  admin: "Cette page est réservée à l'équipe.",
};

function NotYourArea({ area, to }: { area: Area; to: string }) {
  useEffect(() => {
    toast.error(RESERVED[area], { id: "not-your-area" });
  }, [area]);
  return <Navigate to={to} replace />;
}
