import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { meResponseSchema } from "../../../shared/schemas/profile";
import { actorOf, requireArea } from "../../session";
import { toProfileDto } from "./profiles.repo";

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/me",
    {
      schema: {
        tags: ["profiles"],
        summary: "Mon profil (la session en cours)",
        response: { 200: meResponseSchema, 401: errorBodySchema },
      },
      preHandler: requireArea("signed-in"),
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const actor = await actorOf(request, reply);
      return { profile: toProfileDto(actor.profile) };
    },
  );
}
