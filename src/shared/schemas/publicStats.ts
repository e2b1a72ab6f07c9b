import { z } from "zod";

/**
 * GET /api/public/stats: figures the landing page may show to anyone. No personal data: one count,
 * rounded down to a multiple of ten that stays strictly below the real count ("+ de 40" is true).
 */
export const publicStatsSchema = z.object({
  /** Patients who have sent at least one request, rounded down (see roundedDownBelow). */
  patients: z.number().int().nonnegative(),
});
export type PublicStats = z.infer<typeof publicStatsSchema>;

/** The largest multiple of `step` strictly below `count` (0 when there is none): 41 → 40, 40 → 30. */
export function roundedDownBelow(count: number, step = 10): number {
  return count <= 0 ? 0 : Math.floor((count - 1) / step) * step;
}

export const PUBLIC_STATS_MESSAGES = {
  tooMany: "Trop de demandes depuis votre connexion. Veuillez réessayer dans une minute.",
} as const;
