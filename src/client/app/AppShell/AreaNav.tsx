import { LifeBuoy, LogOut } from "lucide-react";
import { useId, useState } from "react";
import { NavLink, useLocation } from "react-router";
import type { Area } from "../../../shared/policies/redirects";
import { Button } from "../../components/ui/Button";
import { MenuSheet } from "../../components/ui/Sheet";
import type { NavBadge } from "../../features/dentist/navBadges";
import { cn } from "../../lib/cn";
import { AREA_ACCOUNT_LINKS, AREA_HELP, AREA_LABEL, AREA_NAV, HELP_LABEL, helpLabel } from "./navigation";

/** A counter on a navigation entry ('99+' beyond 99); its meaning is read from the entry's name or description. */
export function CountPill({ count }: { count: number }) {
  return (
    <span
      aria-hidden="true"
      className="min-w-5 rounded-full bg-brand-700 px-1.5 text-center text-xs leading-5 font-semibold text-white tabular-nums"
    >
      {count > 99 ? "99+" : count}
    </span>
  );
}

/** The area's entries, with the 'Demandes' counter and the unread messages beside 'Messages'. */
export function AreaNavLinks({
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
        {badges[item.to] ? <CountPill count={badges[item.to]?.count ?? 0} /> : null}
        {badge ? (
          <>
            <CountPill count={unread} />
            <span id={unreadId} hidden>
              {unread > 1 ? `${unread} messages non lus` : "1 message non lu"}
            </span>
          </>
        ) : null}
      </NavLink>
    );
  });
}

/**
 * On a phone or a small screen: the same navigation in a side sheet, with help (not for the admins)
 * and sign-out; it opens on its first entry.
 */
export function MobileAreaMenu({
  area,
  onSignOut,
  unread,
  badges,
  supportUnread = 0,
}: {
  area: Area;
  onSignOut: () => void;
  unread: number;
  badges: Record<string, NavBadge>;
  /** The team's answers not yet read, beside 'Besoin d'aide ?'. */
  supportUnread?: number;
}) {
  // Open on the page it was opened on: whatever leads elsewhere closes it, including a link followed
  // after a question (a form being written, useLeaveWarning), which its entries' own clicks never see.
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const help = AREA_HELP[area];
  // What the entries' counters say inside, as a dot on the closed menu's button.
  const pending = unread + supportUnread + Object.values(badges).reduce((sum, badge) => sum + badge.count, 0);
  return (
    <MenuSheet
      open={open}
      onOpenChange={setOpen}
      side="left"
      title={AREA_LABEL[area]}
      description="Navigation de votre espace"
      pending={pending}
    >
      <nav aria-label={`Navigation mobile — ${AREA_LABEL[area]}`} className="grid gap-1">
        <AreaNavLinks
          area={area}
          vertical
          unread={unread}
          badges={badges}
          onNavigate={() => setOpen(false)}
        />
        {AREA_ACCOUNT_LINKS[area].map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            onClick={() => setOpen(false)}
            className={({ isActive }) =>
              cn(
                "inline-flex items-center gap-1.5 rounded-md px-3 py-2.5 text-base font-medium transition-colors hover:bg-slate-100 hover:text-slate-900",
                isActive ? "bg-brand-50 text-brand-900" : "text-slate-700",
              )
            }
          >
            {item.label}
          </NavLink>
        ))}
        {help ? (
          <NavLink
            to={help}
            onClick={() => setOpen(false)}
            aria-label={supportUnread > 0 ? helpLabel(supportUnread) : undefined}
            className="inline-flex items-center gap-2 rounded-md px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <LifeBuoy className="size-4" aria-hidden="true" />
            {HELP_LABEL}
            {supportUnread > 0 ? <CountPill count={supportUnread} /> : null}
          </NavLink>
        ) : null}
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
