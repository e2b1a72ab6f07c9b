import { useQueryClient } from "@tanstack/react-query";
import { LifeBuoy, LogOut, UserRound } from "lucide-react";
import { Suspense, useId, useState } from "react";
import { flushSync } from "react-dom";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { toast } from "sonner";
import type { Area } from "../../shared/policies/redirects";
import type { Profile } from "../../shared/schemas/profile";
import { ContactEmailLink } from "../components/ContactEmailLink";
import { Logo } from "../components/Logo";
import { SkipLink } from "../components/SkipLink";
import { Avatar } from "../components/ui/Avatar";
import { Button } from "../components/ui/Button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../components/ui/DropdownMenu";
import { PageSkeleton } from "../components/ui/PageSkeleton";
import { MenuSheet } from "../components/ui/Sheet";
import { type NavBadge, useDentistNavBadges } from "../features/dentist/navBadges";
import { clearSessionCache, useLogout, useSession } from "../lib/auth";
import { cn } from "../lib/cn";
import { useConfig } from "../lib/config";
import { ReadyMarker } from "../lib/hydrated";
import { useRealtimeSync, useUnreadTotal } from "../lib/realtime";

interface NavItem {
  to: string;
  label: string;
}

/** The authenticated shell: each role's navigation (dentists have no Documents entry). */
export const AREA_NAV: Record<Area, NavItem[]> = {
  patient: [
    { to: "/patient/dashboard", label: "Accueil" },
    { to: "/patient/requests", label: "Mes demandes" },
    { to: "/patient/upload", label: "Déposer un devis" },
    { to: "/patient/messages", label: "Messages" },
    { to: "/patient/profile", label: "Profil" },
  ],
  dentist: [
    { to: "/dentist/dashboard", label: "Accueil" },
    { to: "/dentist/quote-requests", label: "Demandes" },
    { to: "/dentist/messages", label: "Messages" },
    { to: "/dentist/offers", label: "Mes propositions" },
    { to: "/dentist/appointments", label: "Rendez-vous" },
    { to: "/dentist/profile", label: "Profil" },
  ],
  admin: [
    { to: "/admin/dashboard", label: "Administration" },
    { to: "/admin/verifications", label: "Vérifications" },
    { to: "/admin/chat-messages", label: "Support" },
    { to: "/admin/contact", label: "Contact" },
    { to: "/admin/audit", label: "Audit" },
    { to: "/admin/retention", label: "Conservation" },
  ],
};

/**
 * 'Besoin d'aide ?' in every area, in the header (desktop and phone) and in the phone menu:
 * patients and dentists reach the support chat, admins the support inbox.
 */
export const AREA_HELP: Record<Area, string> = {
  patient: "/patient/help",
  dentist: "/dentist/help",
  admin: "/admin/chat-messages",
};
export const HELP_LABEL = "Besoin d'aide\u202f?";

const AREA_LABEL: Record<Area, string> = {
  patient: "Espace patient",
  dentist: "Espace dentiste",
  admin: "Administration",
};

function profilePathFor(area: Area, profile: Profile): string {
  if (area === "admin") {
    // An administrator's own patient or dentist profile if they have one, else their admin account.
    if (profile.role === "dentist") return "/dentist/profile";
    if (profile.role === "patient") return "/patient/profile";
    return "/admin/account";
  }
  return `/${area}/profile`;
}

function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success("Déconnexion réussie");
        // Leave the protected page first, so its guard never sends the visitor to a login page.
        // flushSync commits "/" before the session is cleared: otherwise both updates could be
        // rendered apart and the protected page could render signed out before "/" is committed.
        // (The router's updates are urgent, see <BrowserRouter useTransitions={false}> in main.tsx.)
        flushSync(() => navigate("/", { replace: true }));
        clearSessionCache(queryClient);
      },
      onError: (error) => toast.error("Erreur de déconnexion", { description: error.message }),
    });
}

function AccountMenu({ area, profile, onSignOut }: { area: Area; profile: Profile; onSignOut: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          aria-label={`Mon compte : ${profile.full_name || profile.email}`}
        >
          <Avatar name={profile.full_name || profile.email} src={profile.avatar_url} />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Mon compte</span>
          <span className="font-medium text-slate-900">{profile.full_name}</span>
          <span className="break-all text-slate-600">{profile.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={profilePathFor(area, profile)}>
            <UserRound aria-hidden="true" />
            Profil
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={AREA_HELP[area]}>
            <LifeBuoy aria-hidden="true" />
            {HELP_LABEL}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Déconnexion
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function AreaNavLinks({
  area,
  onNavigate,
  vertical,
  unread = 0,
  badges = {},
}: {
  area: Area;
  onNavigate?: () => void;
  vertical?: boolean;
  /** Counters by path, read after the name ("Demandes, 3 à traiter"). */
  badges?: Record<string, NavBadge>;
  /** Unread messages, shown beside 'Messages' (its name stays 'Messages'; the count is its description). */
  unread?: number;
}) {
  const unreadId = useId();
  return AREA_NAV[area].map((item) => {
    const badge = unread > 0 && item.to === `/${area}/messages`;
    return (
      <NavLink
        key={item.to}
        to={item.to}
        onClick={onNavigate}
        aria-describedby={badge ? unreadId : undefined}
        // "Demandes, 3 à traiter": one name (a hidden span beside a flex item would be read apart).
        aria-label={badges[item.to] ? `${item.label}, ${badges[item.to]?.text}` : undefined}
        className={({ isActive }) =>
          cn(
            "inline-flex items-center gap-1.5 rounded-md font-medium transition-colors hover:bg-slate-100 hover:text-slate-900",
            vertical ? "px-3 py-2.5 text-base" : "px-3 py-2 text-sm whitespace-nowrap",
            isActive ? "bg-brand-50 text-brand-900" : "text-slate-700",
          )
        }
      >
        {item.label}
        {badges[item.to] ? (
          <span
            aria-hidden="true"
            className="min-w-5 rounded-full bg-brand-700 px-1.5 text-center text-xs leading-5 font-semibold text-white tabular-nums"
          >
            {(badges[item.to]?.count ?? 0) > 99 ? "99+" : badges[item.to]?.count}
          </span>
        ) : null}
        {badge ? (
          <>
            <span
              aria-hidden="true"
              className="min-w-5 rounded-full bg-brand-700 px-1.5 text-center text-xs leading-5 font-semibold text-white tabular-nums"
            >
              {unread > 99 ? "99+" : unread}
            </span>
            <span id={unreadId} hidden>
              {unread > 1 ? `${unread} messages non lus` : "1 message non lu"}
            </span>
          </>
        ) : null}
      </NavLink>
    );
  });
}

function MobileAreaMenu({
  area,
  onSignOut,
  unread,
  badges,
}: {
  area: Area;
  onSignOut: () => void;
  unread: number;
  badges: Record<string, NavBadge>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <MenuSheet
      open={open}
      onOpenChange={setOpen}
      side="left"
      title={AREA_LABEL[area]}
      description="Navigation de votre espace"
    >
      <nav aria-label={`Navigation mobile — ${AREA_LABEL[area]}`} className="grid gap-1">
        <AreaNavLinks
          area={area}
          vertical
          unread={unread}
          badges={badges}
          onNavigate={() => setOpen(false)}
        />
        <NavLink
          to={AREA_HELP[area]}
          onClick={() => setOpen(false)}
          className="inline-flex items-center gap-2 rounded-md px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        >
          <LifeBuoy className="size-4" aria-hidden="true" />
          {HELP_LABEL}
        </NavLink>
      </nav>
      <Button
        variant="outline"
        className="mt-auto"
        onClick={() => {
          setOpen(false);
          onSignOut();
        }}
      >
        <LogOut aria-hidden="true" />
        Déconnexion
      </Button>
    </MenuSheet>
  );
}

/** The signed-in shell: header with logo, role navigation, account menu; main; small footer. */
export function AppShell({ area }: { area: Area }) {
  const { profile } = useSession();
  const { brand_name } = useConfig();
  const signOut = useSignOut();
  // Patients and dentists: the tab's live channel (messages, read receipts, unread counts).
  const live = area !== "admin" && profile !== null;
  useRealtimeSync(live);
  const unread = useUnreadTotal(live).data ?? 0;
  const badges = useDentistNavBadges(live && area === "dentist");
  if (!profile) return null;
  const wideNav = AREA_NAV[area].length > 4;
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
          {/* Five entries (admin, dentist) need the room of a large screen; the patient's four fit from 768 px. */}
          <div className={wideNav ? "lg:hidden" : "md:hidden"}>
            <MobileAreaMenu area={area} onSignOut={signOut} unread={unread} badges={badges} />
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
            <Button asChild variant="ghost" size="sm">
              <Link to={AREA_HELP[area]}>
                <LifeBuoy aria-hidden="true" />
                <span className="sr-only xl:not-sr-only">{HELP_LABEL}</span>
              </Link>
            </Button>
            <AccountMenu area={area} profile={profile} onSignOut={signOut} />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
          <ReadyMarker />
        </Suspense>
      </main>
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
          </p>
        </div>
      </footer>
    </div>
  );
}
