import { homePathFor } from "../../shared/policies/redirects";
import { useSession } from "../lib/session";

/** Links of the public top bar and of its mobile menu. */
export const PUBLIC_NAV_LINKS = [
  { to: "/", label: "Accueil", end: true },
  { to: "/how-it-works", label: "Comment ça marche", end: false },
  { to: "/faq", label: "FAQ", end: false },
  { to: "/dentist/benefits", label: "Avantages", end: false },
  { to: "/contact", label: "Contact", end: false },
] as const;

/**
 * 'Connexion' when signed out; 'Mon espace' (the person's home) when signed in. An island on
 * pre-rendered pages (ADR 027): a plain link, which loads the page it names.
 */
export function AccountLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  const { status, profile } = useSession();
  if (status === "signed-in" && profile) {
    return (
      <a href={homePathFor(profile, "login")} className={className} onClick={onClick}>
        Mon espace
      </a>
    );
  }
  return (
    <a href="/login" className={className} onClick={onClick}>
      Connexion
    </a>
  );
}
