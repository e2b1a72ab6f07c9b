import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { retentionPreviewSchema } from "../../../shared/schemas/admin";
import { errorBodySchema } from "../../../shared/schemas/common";
import { actorOf, requireArea } from "../../access/actor";
import { forbidden } from "../../errors";
import { retentionPreview } from "./retention.service";

/**
 * The admins' view of the retention periods: what their next run will erase. It lives with the
 * retention module, whose data it reads, rather than in admin/ (ADR 031). Admins only (ADR 003),
 * checked by the area guard and again here.
 */
export async function retentionRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/admin/retention",
    {
      schema: {
        tags: ["admin"],
        summary: "Ce que la prochaine application des durées de conservation effacera",
        response: {
          200: retentionPreviewSchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
      onRequest: requireArea("admin"),
    },
    async (request, reply) => {
      if (!(await actorOf(request, reply)).profile.is_admin) throw forbidden();
      return retentionPreview(app.db, app.clock());
    },
  );
}
