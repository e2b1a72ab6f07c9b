import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import { forbidden, unauthenticated } from "../errors";
import { getActor } from "../session";

/**
 * `/api/realtime`: a WebSocket authenticated by the session cookie (checked before the upgrade;
 * 401 otherwise) and, against cross-site use, by its Origin. Pushes only; the client writes
 * through the REST routes.
 */
export async function realtimeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 4096 } });
  app.get(
    "/api/realtime",
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        const origin = request.headers.origin;
        if (origin && new URL(origin).host !== request.headers.host && origin !== app.config.publicUrl)
          throw forbidden();
        const actor = await getActor(request, reply);
        if (!actor) throw unauthenticated();
      },
    },
    async (socket, request) => {
      const actor = await request.actorPromise;
      if (!actor) return socket.close(4401, "non connecté");
      // The client sends nothing; anything it sends is ignored.
      socket.on("message", () => {});
      app.hub.add(actor.userId, socket, actor.profile.is_admin);
    },
  );
}
