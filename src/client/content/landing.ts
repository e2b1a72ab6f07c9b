import type { PublicFigureId } from "../../shared/domain/publicFigures";

/**
 * The landing page's figures and testimonials, in one place (issue 16, item 11): plain data an
 * operator may change without touching a component. Wording rules: docs/glossary.md (the wording
 * test reads this file too).
 */

export interface Figure {
  id: PublicFigureId;
  /**
   * The pre-rendered value, shown until GET /api/public/stats answers: null (a dash) unless an
   * operator writes a figure measured on the platform, with its date. Never a figure not measured.
   */
  value: string | null;
  label: string;
}

/**
 * The figures under the hero (issue 36): every one measured on the platform's own data by
 * GET /api/public/stats, with its "comment c'est calculé" (PUBLIC_FIGURE_METHODS). A figure measured
 * on too few cases is not shown (a dash), never invented.
 */
export const FIGURES: readonly Figure[] = [
  { id: "patients", value: null, label: "patients accompagnés" },
  { id: "first_offer_hours", value: null, label: "délai médian avant la première proposition" },
  { id: "saving", value: null, label: "d'économie médiane sur le devis" },
  { id: "verified_dentists", value: null, label: "dentistes vérifiés" },
  { id: "rating", value: null, label: "note moyenne des avis vérifiés" },
];

export interface Testimonial {
  id: string;
  content: string;
  author: string;
  role: "Patient" | "Patiente" | "Dentiste";
  /** 1 to 5. */
  rating: number;
}

/** The testimonials section: its title, its introduction and the note shown under the carousel. */
export const TESTIMONIALS_SECTION = {
  title: "Ce que le service change",
  intro: "Quelques parcours typiques, racontés du côté des patients et d'un dentiste du réseau.",
  /**
   * The testimonials below are written for illustration, not said by real people: the page says so.
   * Replace them with real, consented testimonials (and set `illustrative` to false) when there are.
   */
  illustrative: true,
  illustrativeNote:
    "Témoignages illustratifs : ces parcours sont des exemples rédigés par notre équipe, pas des avis de personnes réelles.",
} as const;

/** Four testimonials, three by patients rated 5 and one by a dentist rated 4 (ADR 021). */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    id: "sophie",
    content:
      "J'avais un devis de 4 200 € pour deux implants. J'ai reçu trois propositions en deux jours, j'ai pu poser mes questions avant de choisir, et j'ai économisé près de 1 500 €.",
    author: "Sophie L., Lyon",
    role: "Patiente",
    rating: 5,
  },
  {
    id: "karim",
    content:
      "J'hésitais à envoyer mes radiographies en ligne. On m'a bien expliqué qui pouvait les voir, et je vois dans mon espace chaque fois qu'un dentiste les a consultées.",
    author: "Karim B., Toulouse",
    role: "Patient",
    rating: 5,
  },
  {
    id: "monique",
    content:
      "Mon dentiste me proposait trois couronnes. Un deuxième avis m'a confirmé le plan de traitement, pour un prix plus raisonnable. Tout s'est fait depuis chez moi.",
    author: "Monique R., Nantes",
    role: "Patiente",
    rating: 5,
  },
  {
    id: "julien",
    content:
      "Les demandes arrivent complètes, avec le devis et les radios : je sais tout de suite si je peux aider. Pas de commission sur mes soins. J'aimerais seulement pouvoir proposer plus de créneaux.",
    author: "Julien M., Bordeaux",
    role: "Dentiste",
    rating: 4,
  },
];
