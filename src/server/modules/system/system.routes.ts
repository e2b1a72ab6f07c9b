import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { planPriceDtos, planPriceSchema } from "../../../shared/schemas/billing";

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

export async function withinTimeout(check: () => Promise<boolean>): Promise<boolean> {
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
/**
 * One check answers every health request that arrives while it runs and for a second after it (a
 * load balancer asks every few seconds; a burst of probes must not each write a file to the store).
 */
const HEALTH_REUSE_MS = 1000;

function sharedCheck<T>(run: () => Promise<T>, reuseMs: number): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= reuseMs) last = { at: now, result: run() };
    return last.result;
  };
}

const publicConfigSchema = z.object({
  brand_name: z.string(),
  contact_email: z.string(),
  /** The dentists' plans at the configured prices: the public pages show them before any sign-up. */
  plans: z.array(planPriceSchema),
});

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const check = sharedCheck(
    () => Promise.all([withinTimeout(() => app.database.ping()), withinTimeout(() => app.storage.ping())]),
    HEALTH_REUSE_MS,
  );
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
      const [database, storage] = await check();
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
        summary: "Nom de la marque, e-mail de contact et tarifs des dentistes affichés par le site",
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({
      brand_name: app.config.brandName,
      contact_email: app.config.contactEmail,
      plans: planPriceDtos(app.config.planPrices, app.config.brandName),
    }),
  );
}
