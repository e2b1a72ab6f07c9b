import type { FastifyReply, FastifyRequest } from "fastify";
import { type Area, mayEnterArea } from "../../shared/policies/redirects";
import type { ProfileRow } from "../db/types";
import { forbidden, unauthenticated } from "../errors";
import { systemEnsureProfile } from "../modules/profiles/profiles.repo";

/** The signed-in person behind a request. Every repository call that reads people's data takes it. */
export interface Actor {
  userId: string;
  profile: ProfileRow;
}

declare module "fastify" {
  interface FastifyRequest {
    actorPromise?: Promise<Actor | null>;
  }
}

/**
 * The headers handed to Better Auth: the cookie, the user agent and the client IP (so its records
 * and throttling see the real address), nothing else.
 */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  if (request.headers.cookie) headers.set("cookie", request.headers.cookie);
  if (request.headers["user-agent"]) headers.set("user-agent", request.headers["user-agent"]);
  headers.set("x-forwarded-for", request.ip);
  return headers;
}

/** Copies the Set-Cookie headers Better Auth produced onto our reply. */
export function forwardCookies(reply: FastifyReply, headers: Headers | null | undefined): void {
  const cookies = headers?.getSetCookie?.() ?? [];
  for (const cookie of cookies) reply.header("set-cookie", cookie);
}

/** Resolves (once per request) the session cookie into an actor with a profile, or null. */
export function getActor(request: FastifyRequest, reply: FastifyReply): Promise<Actor | null> {
  request.actorPromise ??= (async () => {
    const { auth, db } = request.server;
    const result = await auth.api.getSession({ headers: authHeaders(request), returnHeaders: true });
    forwardCookies(reply, result.headers);
    const user = result.response?.user;
    if (!user) return null;
    const profile = await systemEnsureProfile(db, user);
    return profile ? { userId: user.id, profile } : null;
  })();
  return request.actorPromise;
}

/** Area guard (layer 1): 401 when signed out, 403 when the role or the admin flag is missing. */
export function requireArea(area: Area | "signed-in") {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = await getActor(request, reply);
    if (!actor) throw unauthenticated();
    if (area !== "signed-in" && !mayEnterArea(actor.profile, area)) throw forbidden();
  };
}

/** The actor of a request that passed an area guard. */
export async function actorOf(request: FastifyRequest, reply: FastifyReply): Promise<Actor> {
  const actor = await getActor(request, reply);
  if (!actor) throw unauthenticated();
  return actor;
}
