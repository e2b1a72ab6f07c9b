import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const healthSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["ok", "unreachable"]),
});
const publicConfigSchema = z.object({ brand_name: z.string(), contact_email: z.string() });

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/health",
    {
      schema: {
        tags: ["system"],
        summary: "État du service : 200 si la base répond, 503 sinon",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      const ok = await app.database.ping();
      return reply
        .status(ok ? 200 : 503)
        .send({ status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable" });
    },
  );
  r.get(
    "/api/config",
    {
      schema: {
        tags: ["system"],
        summary: "Nom de la marque et e-mail de contact affichés par le site",
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({ brand_name: app.config.brandName, contact_email: app.config.contactEmail }),
  );
}
