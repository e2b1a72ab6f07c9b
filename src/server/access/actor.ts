import type { FastifyReply, FastifyRequest } from "fastify";
import { isLimited } from "../../shared/domain/subscription";
import { type Area, mayEnterArea } from "../../shared/policies/redirects";
import { SESSION_TIMES } from "../config";
import type { Db } from "../db/index";
import type { ProfileRow } from "../db/types";
import { forbidden, unauthenticated } from "../errors";
import { cookieValue, type SessionCache, sessionCacheOf, sessionKey } from "./session-cache";
import { findSubscription, type SubscriptionRow } from "./subscription";

/**
 * A dentist's subscription row (migration 033), null without one (not verified). Kept with the
 * session in the session cache: every write to the row drops his cached sessions (the table's
 * triggers), so the cache never holds an outdated one, and /api/me shows it without a query.
 */
async function subscriptionRowOf(db: Db, dentistId: string): Promise<SubscriptionRow | null> {
  return (await findSubscription(db, dentistId)) ?? null;
}

/** Whether a dentist with this subscription row is limited at `now` (its `limited_from`). */
const isLimitedAt = (subscription: SubscriptionRow | null, now: Date) =>
  isLimited(subscription?.limited_from ? new Date(subscription.limited_from) : null, now);

/** The signed-in person behind a request. Every repository call that reads people's data takes it. */
export interface Actor {
  userId: string;
  profile: ProfileRow;
  /**
   * A dentist whose subscription lapsed (trial over, payment failed past the grace period, ended):
   * he opens no new request and sends no offer, and keeps what protects his patients (rules.ts).
   * Decided per request at the app's clock, from the subscription's `limited_from`.
   */
  limited?: boolean;
  /**
   * A dentist's subscription row as the session read it (null: none yet), what `limited` is decided
   * from; undefined for anyone else, or an actor built outside getActor.
   */
  subscription?: SubscriptionRow | null;
}

/**
 * The profile row of a signed-in user, created when it is missing (a user signed up through Better
 * Auth alone). The rules of a profile row are the profiles module's: app.ts hands its function to
 * the app as `loadProfile`, so that access, below the modules, does not import one (ADR 031).
 */
export type ProfileLoader = (
  db: Db,
  user: { id: string; email: string | null | undefined; name: string | null | undefined },
) => Promise<ProfileRow | undefined>;

declare module "fastify" {
  interface FastifyRequest {
    actorPromise?: Promise<Actor | null>;
  }
  interface FastifyInstance {
    loadProfile: ProfileLoader;
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

/**
 * Resolves (once per request) the session cookie into an actor with a profile, or null. Most
 * requests are answered from the session cache (ADR 026: no Better Auth, no query); a miss, an
 * entry due for refresh or near its end goes through Better Auth and the profile query, as before.
 */
export function getActor(request: FastifyRequest, reply: FastifyReply): Promise<Actor | null> {
  request.actorPromise ??= (async () => {
    const { auth, db, loadProfile } = request.server;
    const cache = sessionCacheOf(db);
    const key = cache ? await cacheKey(request) : undefined;
    if (cache && key && cache.get(key)) {
      // An invalidation committed by another instance before this request arrived may still be on
      // its way to this one: the bus's round trip makes sure it has been handled (ADR 026).
      const synced = await request.server.bus.sync().then(
        () => true,
        () => false,
      );
      const hit = synced ? cache.get(key) : null;
      // A copy: a handler that changes its actor's profile changes nothing for other requests.
      if (hit)
        return {
          userId: hit.userId,
          profile: { ...hit.profile },
          limited: isLimitedAt(hit.subscription, request.server.clock()),
          ...(hit.profile.role === "dentist" && { subscription: hit.subscription }),
        };
    }
    const ticket = cache?.begin();
    const result = await auth.api.getSession({ headers: authHeaders(request), returnHeaders: true });
    forwardCookies(reply, result.headers);
    const user = result.response?.user;
    if (!user) return null;
    const profile = await loadProfile(db, user);
    // A suspended account has no session (ADR 092: its sessions are deleted with the suspension);
    // one found anyway (restored from a backup, written by hand) opens nothing.
    if (!profile || profile.suspended_at !== null) return null;
    const subscription = profile.role === "dentist" ? await subscriptionRowOf(db, user.id) : null;
    if (cache && key && ticket)
      remember(cache, key, ticket, { userId: user.id, profile, subscription }, result.response);
    return {
      userId: user.id,
      profile,
      limited: isLimitedAt(subscription, request.server.clock()),
      ...(profile.role === "dentist" && { subscription }),
    };
  })();
  return request.actorPromise;
}

/**
 * The cache key of this request's session: a hash of the signed session cookie and of the
 * 'not remembered' cookie (which decides whether Better Auth refreshes the session); none without
 * a session cookie. Cookie names from Better Auth (with __Secure- when cookies are secure).
 */
async function cacheKey(request: FastifyRequest): Promise<string | undefined> {
  const { authCookies } = await request.server.auth.$context;
  const session = cookieValue(request.headers.cookie, authCookies.sessionToken.name);
  if (!session) return undefined;
  const dontRemember = cookieValue(request.headers.cookie, authCookies.dontRememberToken.name) ?? "";
  return sessionKey(`${session}\n${dontRemember}`);
}

function remember(
  cache: SessionCache,
  key: string,
  ticket: ReturnType<SessionCache["begin"]>,
  who: { userId: string; profile: ProfileRow; subscription: SubscriptionRow | null },
  response: { session: { expiresAt: Date | string } } | null,
) {
  if (!response) return;
  const expiresAt = new Date(response.session.expiresAt).getTime();
  const { expiresIn, updateAge } = SESSION_TIMES;
  // Better Auth refreshes a session once expiresAt − expiresIn + updateAge has passed. If that time
  // has passed and it did not refresh, it will not for these cookies (a session not remembered):
  // the entry may then serve until the session ends.
  const dueAt = expiresAt - expiresIn * 1000 + updateAge * 1000;
  cache.set(key, ticket, { ...who, expiresAt, refreshAt: dueAt <= Date.now() ? expiresAt : dueAt });
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
