import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EventBus } from "../realtime/bus";

/**
 * The response cache (ADR 030, ADR 052): the JSON a signed-in person's list or dashboard answered,
 * kept a few seconds in this process, so that the screens dentists reload all day cost neither
 * queries nor serialization when nothing of theirs changed. Safe because:
 * - an entry is one person's answer to one URL (key: account id + method + URL with its query), read
 *   only after the route's own checks (area, verification) passed for this request;
 * - every committed write to a table such a response reads drops, here and on every other instance,
 *   the entries of the people it concerns, or all of them when it cannot name them: the database's
 *   statement triggers notify `sourio_changes` with the table and those people's ids (migration 037,
 *   ADR 052), read on the bus's connection;
 * - a hit first waits for a round trip on that connection (`bus.sync()`), so a write committed before
 *   the request arrived, on any instance, has dropped the entry before it is looked up;
 * - a response is stored only when no change concerning its person (nor everyone) arrived since
 *   before the request's session was read (a ticket taken in `onRequest`), so an answer computed from
 *   rows already replaced is never kept;
 * - nothing is served while the bus does not listen, nor across a reconnection (changes may have been
 *   missed), nor after `ttlMs` (what depends on the time of day, e.g. upcoming appointments, is at
 *   most that late).
 */

export const RESPONSE_CACHE_TTL_MS = 30_000;
/** What the cache may hold in all (UTF-16 length of the JSON, about its bytes for this content). */
export const RESPONSE_CACHE_MAX_CHARS = 16 * 1024 * 1024;
/**
 * The people whose latest change the cache remembers for the tickets in flight; past this number it
 * forgets them all and refuses every ticket taken before (as if everything had changed).
 */
export const RESPONSE_CACHE_MAX_TRACKED = 20_000;

/** The routes whose answers are kept: lists and counters a dentist reloads (issue 19). */
export const CACHED_ROUTES = new Set([
  "GET /api/dentist/dashboard",
  "GET /api/dentist/todo-count",
  "GET /api/dentist/requests",
  "GET /api/dentist/offers",
  "GET /api/appointments",
]);

interface Entry {
  account: string;
  body: string;
  storedAt: number;
  epoch: number;
}

/** Taken before a response is computed: what the cache knew then. */
export interface CacheTicket {
  /** The number of changes seen when it was taken. */
  seen: number;
  epoch: number | null;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Each person's keys. */
  private readonly keysOf = new Map<string, Set<string>>();
  private chars = 0;
  /** Counts the changes seen. */
  private seen = 0;
  /** The count when everything last changed: a ticket taken before may not store. */
  private clearedAt = 0;
  /** The count when each person's answers last changed: a ticket of theirs taken before may not store. */
  private readonly changedAt = new Map<string, number>();
  readonly stats = { hits: 0, misses: 0, stored: 0, cleared: 0, dropped: 0 };

  constructor(
    private readonly bus: Pick<EventBus, "sync" | "epoch" | "onTableChange">,
    private readonly options: {
      ttlMs?: number;
      maxChars?: number;
      maxTracked?: number;
      now?: () => number;
    } = {},
  ) {
    bus.onTableChange((change) => {
      if (change.userIds === null) this.clear();
      else this.forget(change.userIds);
    });
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  /** Everything goes: a change whose people are not named, or time moved (the browser tests' clock). */
  clear() {
    this.seen += 1;
    this.clearedAt = this.seen;
    this.changedAt.clear();
    if (this.entries.size) this.stats.cleared += 1;
    this.entries.clear();
    this.keysOf.clear();
    this.chars = 0;
  }

  /** These people's answers go; everyone else's stay. */
  forget(accounts: readonly string[]) {
    if (accounts.length === 0) return;
    if (this.changedAt.size + accounts.length > (this.options.maxTracked ?? RESPONSE_CACHE_MAX_TRACKED)) {
      this.clear();
      return;
    }
    this.seen += 1;
    for (const account of accounts) {
      this.changedAt.set(account, this.seen);
      const keys = this.keysOf.get(account);
      if (!keys) continue;
      for (const key of keys) {
        const entry = this.entries.get(key);
        if (entry) this.remove(key, entry);
        this.stats.dropped += 1;
      }
    }
  }

  ticket(): CacheTicket {
    return { seen: this.seen, epoch: this.bus.epoch() };
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

  /** Keeps `account`'s answer under `key`, unless something of theirs changed since the ticket. */
  store(account: string, key: string, ticket: CacheTicket, body: string) {
    const epoch = this.bus.epoch();
    if (ticket.epoch === null || ticket.epoch !== epoch) return;
    if (this.clearedAt > ticket.seen || (this.changedAt.get(account) ?? 0) > ticket.seen) return;
    const max = this.options.maxChars ?? RESPONSE_CACHE_MAX_CHARS;
    if (body.length > max / 8) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    for (const [oldKey, old] of this.entries) {
      if (this.chars + body.length <= max) break;
      this.remove(oldKey, old);
    }
    this.entries.set(key, { account, body, storedAt: this.now(), epoch });
    let keys = this.keysOf.get(account);
    if (!keys) {
      keys = new Set();
      this.keysOf.set(account, keys);
    }
    keys.add(key);
    this.chars += body.length;
    this.stats.stored += 1;
  }

  private remove(key: string, entry: Entry) {
    this.entries.delete(key);
    const keys = this.keysOf.get(entry.account);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOf.delete(entry.account);
    this.chars -= entry.body.length;
  }

  get size() {
    return this.entries.size;
  }

  /** Whether this person has an answer kept (tests). */
  holds(account: string) {
    return this.keysOf.has(account);
  }
}

declare module "fastify" {
  interface FastifyRequest {
    responseCacheTicket?: CacheTicket;
  }
}

const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? ""}`;

/** Whose answer a request gets: the account id (what changes name), and what else tells answers apart. */
export interface CacheUser {
  id: string;
  variant?: string;
}

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
  userOf: (request: FastifyRequest, reply: FastifyReply) => Promise<CacheUser>,
): void {
  const keyOf = (user: CacheUser, request: FastifyRequest) =>
    `${user.id}${user.variant ? `:${user.variant}` : ""} ${request.method} ${request.url}`;
  app.decorate("responseCache", cache);
  app.addHook("onRequest", async (request) => {
    if (CACHED_ROUTES.has(routeOf(request))) request.responseCacheTicket = cache.ticket();
  });
  app.addHook("preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
    const ticket = request.responseCacheTicket;
    if (!ticket) return;
    const body = await cache.lookup(keyOf(await userOf(request, reply), request));
    if (body === undefined) return;
    request.responseCacheTicket = undefined;
    reply.header("content-type", "application/json; charset=utf-8");
    return reply.send(body);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const ticket = request.responseCacheTicket;
    if (!ticket || reply.statusCode !== 200 || typeof payload !== "string") return payload;
    const user = await userOf(request, reply);
    cache.store(user.id, keyOf(user, request), ticket, payload);
    return payload;
  });
}

declare module "fastify" {
  interface FastifyInstance {
    responseCache: ResponseCache;
  }
}
