import { z } from "zod";

export {
  FIRST_OFFER_WINDOW_DAYS,
  PUBLIC_FIGURE_METHODS,
  PUBLIC_FIGURE_MIN_SAMPLE,
  roundedDownBelow,
} from "../domain/publicFigures";

/** GET /api/public/stats (its rules and the figures' wording: domain/publicFigures.ts). */
export const publicStatsSchema = z.object({
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
export type PublicStats = z.infer<typeof publicStatsSchema>;

export const PUBLIC_STATS_MESSAGES = {
  tooMany: "Trop de demandes depuis votre connexion. Veuillez réessayer dans une minute.",
} as const;
