import { CreditCard, LifeBuoy, LogOut, Star, UserRound } from "lucide-react";
import { Link } from "react-router";
import type { Area } from "../../../shared/policies/redirects";
import type { Profile } from "../../../shared/schemas/profile";
import { Avatar } from "../../components/ui/Avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/DropdownMenu";
import { AREA_ACCOUNT_LINKS, AREA_HELP, HELP_LABEL, profilePathFor } from "./navigation";

const ICONS: Record<string, typeof CreditCard> = {
  "/dentist/subscription": CreditCard,
  "/dentist/reviews": Star,
};

/**
 * The avatar's menu: who is signed in, 'Profil' (and the area's own entries), 'Besoin d'aide ?' (not
 * for the admins), 'Déconnexion'.
 */
export function AccountMenu({
  area,
  profile,
  onSignOut,
}: {
  area: Area;
  profile: Profile;
  onSignOut: () => void;
}) {
  const help = AREA_HELP[area];
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
        {AREA_ACCOUNT_LINKS[area].map((item) => {
          const Icon = ICONS[item.to] ?? UserRound;
          return (
            <DropdownMenuItem key={item.to} asChild>
              <Link to={item.to}>
                <Icon aria-hidden="true" />
                {item.label}
              </Link>
            </DropdownMenuItem>
          );
        })}
        {help ? (
          <DropdownMenuItem asChild>
            <Link to={help}>
              <LifeBuoy aria-hidden="true" />
              {HELP_LABEL}
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Déconnexion
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
