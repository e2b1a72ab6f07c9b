import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  PUBLIC_STATS_MESSAGES,
  type PublicStats,
  publicStatsSchema,
} from "../../../shared/schemas/publicStats";
import { AppError } from "../../errors";
import { systemPublicStats } from "./public-stats.repo";
import { publicStatsWithText } from "./public-stats.service";

/** How long one count serves every visitor (in this process), and browsers and proxies. */
export const PUBLIC_STATS_TTL_MS = 10 * 60 * 1000;
/** Per address and minute: the landing page asks once per visit. */
export const PUBLIC_STATS_PER_MINUTE = 120;

/** Public figures of the landing page (issue 16, item 11): anyone, no session, cached. */
export async function publicStatsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = app.rateLimit({
    max: PUBLIC_STATS_PER_MINUTE,
    timeWindow: 60 * 1000,
    errorResponseBuilder: () => new AppError(429, "RATE_LIMITED", PUBLIC_STATS_MESSAGES.tooMany),
  });
  let cached: { stats: PublicStats; until: number } | null = null;
  let pending: Promise<PublicStats> | null = null;

  const load = async (): Promise<PublicStats> => {
    const now = app.clock().getTime();
    if (cached && cached.until > now) return cached.stats;
    // One query at a time however many visitors arrive together.
    pending ??= systemPublicStats(app.db, app.clock())
      .then(publicStatsWithText)
      .then((stats) => {
        cached = { stats, until: app.clock().getTime() + PUBLIC_STATS_TTL_MS };
        return stats;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };

  r.get(
    "/api/public/stats",
    {
      schema: {
        tags: ["system"],
        summary:
          "Chiffres publics mesurés sur les données de Sourio (patients, délai de première proposition, économie, dentistes vérifiés, note moyenne), et chacun tel que la page d'accueil l'écrit ; null sous 30 cas",
        response: { 200: publicStatsSchema, 429: errorBodySchema },
      },
      onRequest: limit,
    },
    async (_request, reply) => {
      reply.header("cache-control", `public, max-age=${PUBLIC_STATS_TTL_MS / 1000}`);
      return load();
    },
  );
}
