import type { Area } from "../../../shared/policies/redirects";
import type { Profile } from "../../../shared/schemas/profile";

/** Where each area's navigation leads, and what it is called. */

export interface NavItem {
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
    { to: "/patient/appointments", label: "Rendez-vous" },
    { to: "/patient/reviews", label: "Mes avis" },
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
    { to: "/admin/reviews", label: "Avis" },
    { to: "/admin/chat-messages", label: "Support" },
    { to: "/admin/contact", label: "Contact" },
    { to: "/admin/audit", label: "Audit" },
    { to: "/admin/retention", label: "Conservation" },
    { to: "/admin/subscriptions", label: "Abonnements" },
  ],
};

/**
 * The account menu's own entries after 'Profil' (issues 35 and 36): the dentist's subscription and the
 * reviews patients published about him, kept out of the bar, which holds six entries on one line.
 */
export const AREA_ACCOUNT_LINKS: Record<Area, NavItem[]> = {
  patient: [],
  dentist: [
    { to: "/dentist/subscription", label: "Abonnement" },
    { to: "/dentist/reviews", label: "Avis des patients" },
  ],
  admin: [],
};

/**
 * 'Besoin d'aide ?' in the header (desktop and phone), the account menu and the phone menu: patients
 * and dentists reach their support chat with the team. None for the admins: they are the team, and
 * the patients' and dentists' messages are their 'Support' entry (it led there too, a second name
 * for one page).
 */
export const AREA_HELP: Record<Area, string | null> = {
  patient: "/patient/help",
  dentist: "/dentist/help",
  admin: null,
};
export const HELP_LABEL = "Besoin d'aide\u202f?";

/** The help link's name with the team's unread answers: "Besoin d'aide ?, 2 réponses non lues". */
export function helpLabel(unread: number): string {
  if (unread <= 0) return HELP_LABEL;
  return `${HELP_LABEL}, ${unread > 1 ? `${unread} réponses non lues` : "1 réponse non lue"}`;
}

export const AREA_LABEL: Record<Area, string> = {
  patient: "Espace patient",
  dentist: "Espace dentiste",
  admin: "Administration",
};

/** The account menu's 'Profil'. */
export function profilePathFor(area: Area, profile: Profile): string {
  if (area === "admin") {
    // An administrator's own patient or dentist profile if they have one, else their admin account.
    if (profile.role === "dentist") return "/dentist/profile";
    if (profile.role === "patient") return "/patient/profile";
    return "/admin/account";
  }
  return `/${area}/profile`;
}
