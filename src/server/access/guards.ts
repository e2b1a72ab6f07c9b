import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors";
import { actorOf } from "./actor";
import { isUuid, type VisibleKind, visibleObject } from "./objects";

/**
 * Route guard (layer 2 before the body): the object named by the path parameter exists and the
 * actor may see it, else 404 with the route's French message. Run as a preValidation hook after
 * the area guard, so that a stranger gets 404 and never learns, through a 400, how the body of a
 * route about someone else's object is checked.
 */
export function requireVisible(kind: VisibleKind, message: string, param = "id") {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = (request.params as Record<string, unknown>)[param];
    const actor = await actorOf(request, reply);
    if (!isUuid(id) || !(await visibleObject[kind](request.server.db, actor, id))) throw notFound(message);
  };
}

/** A path id, else 404 with the route's message: an id that is not a uuid names nothing. */
export function pathId(id: string, message: string): string {
  if (!isUuid(id)) throw notFound(message);
  return id;
}

/** What `find` (a read bound to the actor) gives for a path id, else 404 with the route's message. */
export async function foundOr404<T>(
  id: string,
  find: (id: string) => Promise<T | null | undefined>,
  message: string,
): Promise<T> {
  const row = isUuid(id) ? await find(id) : undefined;
  if (!row) throw notFound(message);
  return row;
}
