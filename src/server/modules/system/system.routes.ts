import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const healthSchema = z.object({
  status: z.enum(["ok", "error"]),
  database: z.enum(["ok", "error"]),
  /** On S3: the bucket exists and the credentials may use it; on disk: a file can be written. */
  storage: z.enum(["ok", "error"]),
  /** Present when something is down: what, in French, for the operator. */
  detail: z.string().optional(),
});

/** A check that has not answered in this time counts as down (a load balancer must not hang). */
const HEALTH_TIMEOUT_MS = 3000;

async function withinTimeout(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
const publicConfigSchema = z.object({ brand_name: z.string(), contact_email: z.string() });

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/health",
    {
      schema: {
        tags: ["system"],
        summary: "État du service : 200 si la base et le stockage des fichiers répondent, 503 sinon",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      const [database, storage] = await Promise.all([
        withinTimeout(() => app.database.ping()),
        withinTimeout(() => app.storage.ping()),
      ]);
      const ok = database && storage;
      const down = [
        database ? null : "la base de données ne répond pas",
        storage ? null : "le stockage des fichiers est inaccessible",
      ].filter((part): part is string => part !== null);
      return reply.status(ok ? 200 : 503).send({
        status: ok ? "ok" : "error",
        database: database ? "ok" : "error",
        storage: storage ? "ok" : "error",
        ...(ok ? {} : { detail: `Service indisponible : ${down.join(" et ")}.` }),
      });
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
