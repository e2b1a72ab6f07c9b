import type { FastifyRequest } from "fastify";

/**
 * What the use cases that write, then tell open screens and e-mail after their commit, take from
 * the app serving the request (its logger is the request's).
 */
export function useCaseDeps(request: FastifyRequest) {
  const app = request.server;
  return {
    db: app.db,
    mailer: app.mailer,
    config: app.config,
    clock: app.clock,
    bus: app.bus,
    log: request.log,
  };
}
