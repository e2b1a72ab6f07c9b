import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { getActor } from "../../access/actor";
import { isVerifiedDentist } from "../../access/rules";
import { unauthenticated } from "../../errors";
import { crossSiteRefused, isCrossSite, trustedOrigins } from "../../plugins/cross-site";
import type { UpgradeMark } from "./hub";

/**
 * `/api/realtime`: a WebSocket authenticated by the session cookie (checked before the upgrade;
 * 401 otherwise) and, against cross-site use, by its Origin (403 first). Pushes only; the client writes
 * through the REST routes.
 */
export async function realtimeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const trusted = trustedOrigins(app.config);
  const marks = new WeakMap<FastifyRequest, UpgradeMark>();
  app.get(
    "/api/realtime",
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        // The cross-site rule of every state-changing route (plugins/cross-site.ts), before the
        // session: a page of another origin (`Origin: null` included) gets 403, never a 500.
        if (isCrossSite(request, trusted)) throw crossSiteRefused();
        // Before the session is checked: a change of it meanwhile closes the socket as it is added.
        marks.set(request, app.hub.mark());
        const actor = await getActor(request, reply);
        if (!actor) throw unauthenticated();
      },
    },
    async (socket, request) => {
      const actor = await request.actorPromise;
      if (!actor) return socket.close(4401, "non connecté");
      // The client sends nothing; anything it sends is ignored.
      socket.on("message", () => {});
      const dentist =
        actor.profile.role !== "dentist"
          ? null
          : isVerifiedDentist(actor.profile)
            ? "verified"
            : "unverified";
      app.hub.add(actor.userId, socket, { isAdmin: actor.profile.is_admin, dentist }, marks.get(request));
    },
  );
}
