import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EventBus } from "../realtime/bus";

/**
 * The response cache (ADR 030): the JSON a signed-in person's list or dashboard answered, kept a few
 * seconds in this process, so that the screens dentists reload all day cost neither queries nor
 * serialization when nothing changed. Safe because:
 * - an entry is one person's answer to one URL (key: account id + method + URL with its query), read
 *   only after the route's own checks (area, verification) passed for this request;
 * - every committed write to a table such a response reads empties the cache at once, here and on
 *   every other instance: the database's statement triggers notify `sourio_changes` (migration 028),
 *   read on the bus's connection;
 * - a hit first waits for a round trip on that connection (`bus.sync()`), so a write committed before
 *   the request arrived, on any instance, has emptied the cache before it is looked up;
 * - a response is stored only when no change arrived since before the request's session was read
 *   (a ticket taken in `onRequest`), so an answer computed from rows already replaced is never kept;
 * - nothing is served while the bus does not listen, nor across a reconnection (changes may have been
 *   missed), nor after `ttlMs` (what depends on the time of day, e.g. upcoming appointments, is at
 *   most that late).
 */

export const RESPONSE_CACHE_TTL_MS = 30_000;
/** What the cache may hold in all (UTF-16 length of the JSON, about its bytes for this content). */
export const RESPONSE_CACHE_MAX_CHARS = 16 * 1024 * 1024;

/** The routes whose answers are kept: lists and counters a dentist reloads (issue 19). */
export const CACHED_ROUTES = new Set([
  "GET /api/dentist/dashboard",
  "GET /api/dentist/todo-count",
  "GET /api/dentist/requests",
  "GET /api/dentist/offers",
  "GET /api/appointments",
]);

interface Entry {
  body: string;
  storedAt: number;
  epoch: number;
}

/** Taken before a response is computed: what the cache knew then. */
export interface CacheTicket {
  generation: number;
  epoch: number | null;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  /** Counts the changes seen; a ticket of an older generation may not store. */
  private generation = 0;
  readonly stats = { hits: 0, misses: 0, stored: 0, cleared: 0 };

  constructor(
    private readonly bus: Pick<EventBus, "sync" | "epoch" | "onTableChange">,
    private readonly options: { ttlMs?: number; maxChars?: number; now?: () => number } = {},
  ) {
    bus.onTableChange(() => this.clear());
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  /** Everything goes: a table changed, or time moved (the browser tests' clock). */
  clear() {
    this.generation += 1;
    if (this.entries.size) this.stats.cleared += 1;
    this.entries.clear();
    this.chars = 0;
  }

  ticket(): CacheTicket {
    return { generation: this.generation, epoch: this.bus.epoch() };
  }

  /** The stored answer, once every change committed before this call has been seen; else undefined. */
  async lookup(key: string): Promise<string | undefined> {
    if (this.bus.epoch() === null || !this.entries.has(key)) {
      this.stats.misses += 1;
      return undefined;
    }
    try {
      await this.bus.sync();
    } catch {
      this.stats.misses += 1;
      return undefined;
    }
    const entry = this.entries.get(key);
    const fresh =
      entry !== undefined &&
      entry.epoch === this.bus.epoch() &&
      this.now() - entry.storedAt < (this.options.ttlMs ?? RESPONSE_CACHE_TTL_MS);
    if (!fresh) {
      if (entry) this.remove(key, entry);
      this.stats.misses += 1;
      return undefined;
    }
    // Most recently used last: the oldest go first when the cache is full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.hits += 1;
    return entry.body;
  }

  store(key: string, ticket: CacheTicket, body: string) {
    const epoch = this.bus.epoch();
    if (ticket.generation !== this.generation || ticket.epoch === null || ticket.epoch !== epoch) return;
    const max = this.options.maxChars ?? RESPONSE_CACHE_MAX_CHARS;
    if (body.length > max / 8) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    for (const [oldKey, old] of this.entries) {
      if (this.chars + body.length <= max) break;
      this.remove(oldKey, old);
    }
    this.entries.set(key, { body, storedAt: this.now(), epoch });
    this.chars += body.length;
    this.stats.stored += 1;
  }

  private remove(key: string, entry: Entry) {
    this.entries.delete(key);
    this.chars -= entry.body.length;
  }

  get size() {
    return this.entries.size;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    responseCacheTicket?: CacheTicket;
  }
}

const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? ""}`;

/**
 * The hooks: a ticket before anything of the request is read (a global `onRequest` runs before the
 * routes' guards resolve the session), the lookup after the route's guards and validation, the store
 * from the serialized body. Registered before compression, whose `onSend` turns the body into a stream.
 * An entry is the signed-in person's own: `userOf` names them (app.ts gives the actor's id, from
 * access/, a layer this plugin does not import).
 */
export function registerResponseCache(
  app: FastifyInstance,
  cache: ResponseCache,
  userOf: (request: FastifyRequest, reply: FastifyReply) => Promise<string>,
): void {
  app.decorate("responseCache", cache);
  app.addHook("onRequest", async (request) => {
    if (CACHED_ROUTES.has(routeOf(request))) request.responseCacheTicket = cache.ticket();
  });
  app.addHook("preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
    const ticket = request.responseCacheTicket;
    if (!ticket) return;
    const key = `${await userOf(request, reply)} ${request.method} ${request.url}`;
    const body = await cache.lookup(key);
    if (body === undefined) return;
    request.responseCacheTicket = undefined;
    reply.header("content-type", "application/json; charset=utf-8");
    return reply.send(body);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const ticket = request.responseCacheTicket;
    if (!ticket || reply.statusCode !== 200 || typeof payload !== "string") return payload;
    cache.store(`${await userOf(request, reply)} ${request.method} ${request.url}`, ticket, payload);
    return payload;
  });
}

declare module "fastify" {
  interface FastifyInstance {
    responseCache: ResponseCache;
  }
}
