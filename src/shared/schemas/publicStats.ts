import { z } from "zod";

export {
  FIRST_OFFER_WINDOW_DAYS,
  PATIENTS_FIGURE_MINIMUM,
  PUBLIC_FIGURE_METHODS,
  PUBLIC_FIGURE_MIN_SAMPLE,
  PUBLIC_FIGURE_UNMEASURED,
  roundedDownBelow,
} from "../domain/publicFigures";

/** The figures measured by GET /api/public/stats (its rules and the figures' wording: domain/publicFigures.ts). */
export const measuredFiguresSchema = z.object({
  /** Patients who have sent at least one request, rounded down (see roundedDownBelow). */
  patients: z.number().int().nonnegative(),
  /** Median hours from a request to its first offer, requests of the last 90 days that got one. */
  first_offer_hours: z.object({ median: z.number(), sample: z.number().int() }).nullable(),
  /** Median saving of accepted offers against the patient's devis, on requests with a devis amount. */
  saving: z
    .object({ median_percent: z.number(), median_cents: z.number().int(), sample: z.number().int() })
    .nullable(),
  /** Dentists verified by the team (RPPS and practice checked), at this moment. */
  verified_dentists: z.number().int().nonnegative(),
  /** Average of the published reviews' overall marks (one decimal). */
  rating: z.object({ average: z.number(), sample: z.number().int() }).nullable(),
});
export type MeasuredFigures = z.infer<typeof measuredFiguresSchema>;

/**
 * GET /api/public/stats: the measured figures, and each as the landing page writes it (French, null
 * when it is not shown). The server writes them so that the landing page makes no Intl formatter: the
 * first one a page makes costs tens of milliseconds of its main thread (ADR 071).
 */
export const publicStatsSchema = measuredFiguresSchema.extend({
  text: z.object({
    patients: z.string().nullable(),
    first_offer_hours: z.string().nullable(),
    saving: z.string().nullable(),
    verified_dentists: z.string().nullable(),
    rating: z.string().nullable(),
  }),
});
export type PublicStats = z.infer<typeof publicStatsSchema>;

export const PUBLIC_STATS_MESSAGES = {
  tooMany: "Trop de demandes depuis votre connexion. Veuillez réessayer dans une minute.",
} as const;
