/*
 * The public figures' rules and wording, apart from their zod schema (schemas/publicStats.ts): the
 * landing page's figures island is in the pre-rendered pages' initial JavaScript, which must not
 * bring zod (ADR 053).
 */

/**
 * GET /api/public/stats: figures the public pages may show to anyone, every one measured on the
 * platform's own data (issue 36). No personal data: counts, medians and an average. A figure measured
 * on fewer than PUBLIC_FIGURE_MIN_SAMPLE cases is null: the pages then do not show it rather than
 * show a figure that says nothing (or invent one).
 */
export const PUBLIC_FIGURE_MIN_SAMPLE = 30;
/** Below this many patients the patients figure is not shown (a dash). */
export const PATIENTS_FIGURE_MINIMUM = 10;
/** The window of the first-offer delay: the requests of the last this many days. */
export const FIRST_OFFER_WINDOW_DAYS = 90;

/** The largest multiple of `step` strictly below `count` (0 when there is none): 41 → 40, 40 → 30. */
export function roundedDownBelow(count: number, step = 10): number {
  return count <= 0 ? 0 : Math.floor((count - 1) / step) * step;
}

/** "Comment c'est calculé", one line per figure, shown under it (the page and the test read these). */
export const PUBLIC_FIGURE_METHODS = {
  patients: "Patients ayant déposé au moins une demande, arrondi à la dizaine inférieure.",
  first_offer_hours: `Médiane du délai entre le dépôt d'une demande et sa première proposition, sur les demandes des ${FIRST_OFFER_WINDOW_DAYS} derniers jours qui en ont reçu une.`,
  saving:
    "Médiane de l'écart entre le devis du patient et la proposition qu'il a acceptée, sur les demandes dont le patient a donné le montant du devis.",
  verified_dentists: "Dentistes dont l'équipe a vérifié le numéro RPPS et le cabinet, aujourd'hui.",
  rating:
    "Moyenne des notes globales de tous les avis publiés sur les dentistes vérifiés, chacun vérifié et relu par l'équipe.",
} as const;

/**
 * Why a figure is not shown (null), in place of how it is computed: each figure is hidden by its own
 * rule (public-stats.service.ts, public-stats.repo.ts).
 */
export const PUBLIC_FIGURE_UNMEASURED = {
  patients: `Pas encore assez de patients pour ce chiffre (${PATIENTS_FIGURE_MINIMUM} au moins).`,
  first_offer_hours: `Pas encore assez de données pour ce chiffre (${PUBLIC_FIGURE_MIN_SAMPLE} cas au moins).`,
  saving: `Pas encore assez de données pour ce chiffre (${PUBLIC_FIGURE_MIN_SAMPLE} cas au moins).`,
  verified_dentists: "Aucun dentiste n'a encore été vérifié par l'équipe.",
  rating: `Pas encore assez d'avis pour ce chiffre (${PUBLIC_FIGURE_MIN_SAMPLE} au moins).`,
} as const satisfies Record<keyof typeof PUBLIC_FIGURE_METHODS, string>;

/** The public figures' names. */
export type PublicFigureId = keyof typeof PUBLIC_FIGURE_METHODS;
