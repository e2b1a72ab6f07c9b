import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { type Area, guardDecision } from "../../shared/policies/redirects";
import { ShellSkeleton } from "../components/ui/PageSkeleton";
import { useSession } from "../lib/session";

/**
 * Area guard (protected routes): the shell's skeleton while the session loads; signed out → the
 * area's login page with ?next= the current page; wrong role or not admin → /.
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
    return <Navigate to={decision.redirectTo} replace />;
  }
  return <>{children}</>;
}
