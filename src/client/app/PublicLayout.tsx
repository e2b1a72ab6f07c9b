import { Link, NavLink, useLocation } from "react-router";
import { UPLOAD_INTENT_PATH } from "../../shared/uploadIntent";
import { ContactEmailLink } from "../components/ContactEmailLink";
import { Logo } from "../components/Logo";
import { SkipLink } from "../components/SkipLink";
import { Button } from "../components/ui/Button";
import { PageSpinner } from "../components/ui/Spinner";
import { useConfig } from "../lib/config";
import { cx } from "../lib/cx";
import { Island } from "./Island";
import { MainOutlet } from "./MainOutlet";
import { MobileMenu } from "./MobileMenu";
import { AccountLink, PUBLIC_NAV_LINKS } from "./publicNav";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    "rounded-md px-2.5 py-2 text-sm font-medium transition-colors hover:bg-slate-100 hover:text-slate-900",
    isActive ? "text-brand-800" : "text-slate-700",
  );

function PublicHeader() {
  const { brand_name } = useConfig();
  const { pathname } = useLocation();
  const accountClass =
    "rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900";
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="rounded-md" aria-label={`${brand_name} — accueil`}>
          <Logo brand={brand_name} />
        </Link>
        <nav aria-label="Navigation principale" className="hidden items-center gap-0.5 md:flex">
          {PUBLIC_NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.end} className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
          <Island name="account-link" props={{ className: accountClass }}>
            <AccountLink className={accountClass} />
          </Island>
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden lg:block">
            <Button asChild variant="accent" size="sm">
              <Link to={UPLOAD_INTENT_PATH}>Déposer votre devis</Link>
            </Button>
          </div>
          <Island name="mobile-menu" props={{ pathname }}>
            <MobileMenu pathname={pathname} />
          </Island>
        </div>
      </div>
    </header>
  );
}

const FOOTER_GROUPS = [
  {
    title: "Patients",
    links: [
      { to: "/", label: "Accueil" },
      { to: "/how-it-works", label: "Comment ça marche" },
      { to: "/upload-devis", label: "Déposer un devis" },
      { to: "/faq", label: "FAQ" },
    ],
  },
  {
    title: "Dentistes",
    links: [
      { to: "/dentist/signup", label: "Rejoindre le réseau" },
      { to: "/dentist/benefits", label: "Avantages" },
    ],
  },
  {
    title: "Compte",
    links: [
      { to: "/login", label: "Connexion" },
      { to: "/signup", label: "Créer un compte" },
    ],
  },
  {
    title: "Informations",
    links: [
      { to: "/contact", label: "Contact" },
      { to: "/privacy", label: "Confidentialité" },
      { to: "/terms", label: "Conditions d'utilisation" },
      { to: "/avis", label: "Avis des patients" },
    ],
  },
] as const;

function PublicFooter() {
  const { brand_name } = useConfig();
  return (
    <footer className="below-fold border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.2fr_3fr]">
        <div className="grid content-start gap-3">
          <Logo brand={brand_name} />
          <p className="text-sm text-slate-700">
            La mutuelle dentaire numérique : comparez votre devis avec les propositions de dentistes vérifiés.
          </p>
          <p className="text-sm text-slate-700">
            Écrivez-nous : <ContactEmailLink />
          </p>
        </div>
        <nav aria-label="Liens du pied de page" className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {FOOTER_GROUPS.map((group) => (
            <div key={group.title}>
              <h2 className="text-sm font-semibold text-slate-900">{group.title}</h2>
              <ul className="mt-3 grid gap-2">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      className="text-sm text-slate-700 hover:text-brand-800 hover:underline"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-slate-600 sm:px-6">
          © {new Date().getFullYear()} {brand_name}. Gratuit pour les patients.
        </p>
      </div>
    </footer>
  );
}

/** Public pages and auth pages: sticky top bar, main, footer. */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <PublicHeader />
      {/* At least a screen tall: while a page loads, the footer waits below the fold and nothing shifts. */}
      <MainOutlet className="min-h-dvh flex-1" fallback={<PageSpinner />} />
      <PublicFooter />
    </div>
  );
}
