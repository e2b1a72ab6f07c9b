import { LifeBuoy } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import type { Area } from "../../../shared/policies/redirects";
import { ContactEmailLink } from "../../components/ContactEmailLink";
import { Logo } from "../../components/Logo";
import { SkipLink } from "../../components/SkipLink";
import { SubscriptionBanner } from "../../components/subscription/SubscriptionBanner";
import { Button } from "../../components/ui/Button";
import { PageSkeleton } from "../../components/ui/PageSkeleton";
import { useDentistNavBadges } from "../../features/dentist/navBadges";
import { useSession } from "../../lib/auth";
import { cn } from "../../lib/cn";
import { useConfig } from "../../lib/config";
import { useRealtimeSync, useSupportUnread, useUnreadTotal } from "../../lib/realtime";
import { useSessionEnded } from "../../lib/session";
import { MainOutlet } from "../MainOutlet";
import { AccountMenu } from "./AccountMenu";
import { AreaNavLinks, CountPill, MobileAreaMenu } from "./AreaNav";
import { AREA_HELP, AREA_LABEL, AREA_NAV, HELP_LABEL, helpLabel } from "./navigation";
import { useSignOut } from "./useSignOut";

/** Loaded only when a call was refused as signed out (its form and the login's code step). */
const SessionEnded = lazy(() => import("./SessionEnded"));

/** The signed-in shell: header with logo, role navigation, account menu; main; small footer. */
export function AppShell({ area }: { area: Area }) {
  const { profile } = useSession();
  const { brand_name } = useConfig();
  const signOut = useSignOut();
  // Patients and dentists: the tab's live channel (messages, read receipts, unread counts).
  const live = area !== "admin" && profile !== null;
  useRealtimeSync(live);
  const unread = useUnreadTotal(live).data ?? 0;
  const supportUnread = useSupportUnread(live).data ?? 0;
  const badges = useDentistNavBadges(live && area === "dentist");
  const ended = useSessionEnded();
  if (!profile) return null;
  const wideNav = AREA_NAV[area].length > 4;
  const help = AREA_HELP[area];
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <SkipLink />
      {ended > 0 ? (
        <Suspense fallback={null}>
          <SessionEnded profile={profile} ended={ended} />
        </Suspense>
      ) : null}
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
          {/* Five entries (admin, dentist) need the room of a large screen; the patient's four fit from 768 px. */}
          <div className={wideNav ? "lg:hidden" : "md:hidden"}>
            <MobileAreaMenu
              area={area}
              onSignOut={signOut}
              unread={unread}
              badges={badges}
              supportUnread={supportUnread}
            />
          </div>
          <Link
            to={AREA_NAV[area][0]?.to ?? "/"}
            className="rounded-md"
            aria-label={`${brand_name} — ${AREA_LABEL[area]}`}
          >
            <Logo brand={brand_name} />
          </Link>
          <nav
            aria-label={AREA_LABEL[area]}
            className={cn("ml-6 hidden items-center gap-1", wideNav ? "lg:flex" : "md:flex")}
          >
            <AreaNavLinks area={area} unread={unread} badges={badges} />
          </nav>
          <div className="ml-auto flex items-center gap-1">
            {help ? (
              <Button asChild variant="ghost" size="sm">
                <Link to={help} aria-label={supportUnread > 0 ? helpLabel(supportUnread) : undefined}>
                  <LifeBuoy aria-hidden="true" />
                  <span className="sr-only xl:not-sr-only">{HELP_LABEL}</span>
                  {supportUnread > 0 ? <CountPill count={supportUnread} /> : null}
                </Link>
              </Button>
            ) : null}
            <AccountMenu area={area} profile={profile} onSignOut={signOut} />
          </div>
        </div>
      </header>
      {area === "dentist" && profile?.is_verified ? <SubscriptionBanner /> : null}
      <MainOutlet className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6" fallback={<PageSkeleton />} />
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-4 text-sm text-slate-600 sm:flex-row sm:justify-between sm:px-6">
          <p>
            Une question ? <ContactEmailLink />
          </p>
          <p className="flex gap-4">
            <Link to="/privacy" className="hover:text-brand-800 hover:underline">
              Confidentialité
            </Link>
            <Link to="/terms" className="hover:text-brand-800 hover:underline">
              Conditions d'utilisation
            </Link>
            <Link to="/avis" className="hover:text-brand-800 hover:underline">
              Avis
            </Link>
          </p>
        </div>
      </footer>
    </div>
  );
}
