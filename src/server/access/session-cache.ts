import { createHash, randomUUID } from "node:crypto";
import type { ProfileRow } from "../db/types";
import type { EventBus } from "../realtime/bus";
import type { SubscriptionRow } from "./subscription";

/**
 * The session cache (ADR 026): what a session cookie resolved to (the account and its profile),
 * kept a few seconds in this process so that most authenticated requests need neither Better Auth
 * nor a query. Safe because:
 * - the key is a SHA-256 of the signed cookie value Better Auth verified (never the token itself);
 * - an entry is never served past its session's `expiresAt`, nor once Better Auth would refresh the
 *   session (it then goes through Better Auth again, which refreshes it), nor after `ttlMs`;
 * - every change that ends a session or changes what a person may do (sign-out, password change or
 *   reset, session revoked, erasure, verification decided, profile edited) drops that person's
 *   entries here at once and on every other instance through the bus (`{ kind: "sessions" }`);
 * - so does every committed update or delete of a user, profile or session row, whoever wrote it
 *   (an operator's SQL too): the database's triggers notify the people concerned (migration 030);
 * - a lookup that began before such a change is not stored (it may have read the old rows);
 * - nothing is served while the bus does not listen, and a reconnected bus starts an empty cache
 *   (events may have been missed meanwhile).
 */

export const SESSION_CACHE_TTL_MS = 30_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

export interface CachedSession {
  userId: string;
  profile: ProfileRow;
  /**
   * A dentist's subscription row (null: none, or not a dentist): whether he is limited, and what
   * /api/me shows of it (issue 35), without a query.
   */
  subscription: SubscriptionRow | null;
  /** The session's end (ms since the epoch). */
  expiresAt: number;
  /** When Better Auth would refresh the session (expiresAt − expiresIn + updateAge), in ms. */
  refreshAt: number;
}

interface Entry extends CachedSession {
  storedAt: number;
  epoch: number;
}

/** Taken before a lookup: what the cache knew when the lookup started. */
export interface Ticket {
  seq: number;
  epoch: number | null;
}

/** The cache key of a signed session cookie value: a hash, so no token sits in memory maps or dumps. */
export function sessionKey(cookieValue: string): string {
  return createHash("sha256").update(cookieValue).digest("base64url");
}

/** The raw value of one cookie in a Cookie header (undefined when absent). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysByUser = new Map<string, Set<string>>();
  /** Counts invalidations; a ticket older than a user's last invalidation may not store. */
  private seq = 0;
  private floor = 0;
  private readonly invalidatedAt = new Map<string, number>();
  /** Invalidations this instance sent, waiting to come back through the bus. */
  private readonly echoes = new Map<string, () => void>();
  /** Lookups answered from memory (hits) or not (misses), for the metrics (ADR 047). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly bus: Pick<EventBus, "publish" | "subscribe" | "epoch"> &
      Partial<Pick<EventBus, "onSessionsChange">>,
    private readonly log: { error(obj: object, msg: string): void },
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    bus.subscribe((event) => {
      if (event.kind !== "sessions") return;
      this.dropUser(event.userId);
      if (event.id) this.echoes.get(event.id)?.();
    });
    // Every write to users, profiles or sessions that may change what a session allows, whoever
    // made it (a service, an operator's SQL), from the database's triggers (migration 030).
    bus.onSessionsChange?.((userIds) => {
      if (userIds === null) this.clear();
      else for (const userId of userIds) this.dropUser(userId);
    });
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached resolution of this key, or null when absent, stale, expired or due for refresh. */
  get(key: string): CachedSession | null {
    const entry = this.entries.get(key);
    if (!entry) {
      this.stats.misses += 1;
      return null;
    }
    const now = this.now();
    const fresh =
      now - entry.storedAt < (this.options.ttlMs ?? SESSION_CACHE_TTL_MS) &&
      now < entry.expiresAt &&
      now < entry.refreshAt &&
      entry.epoch === this.bus.epoch();
    if (!fresh) {
      this.remove(key, entry.userId);
      this.stats.misses += 1;
      return null;
    }
    this.stats.hits += 1;
    return entry;
  }

  begin(): Ticket {
    return { seq: this.seq, epoch: this.bus.epoch() };
  }

  /** Stores a lookup's result, unless something changed for that person since the lookup began. */
  set(key: string, ticket: Ticket, value: CachedSession): void {
    const epoch = this.bus.epoch();
    if (ticket.epoch === null || epoch !== ticket.epoch || ticket.seq < this.floor) return;
    if ((this.invalidatedAt.get(value.userId) ?? -1) > ticket.seq) return;
    if (this.entries.size >= (this.options.maxEntries ?? SESSION_CACHE_MAX_ENTRIES)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.remove(oldest, this.entries.get(oldest)?.userId ?? "");
    }
    this.entries.delete(key);
    this.entries.set(key, { ...value, storedAt: this.now(), epoch });
    let keys = this.keysByUser.get(value.userId);
    if (!keys) {
      keys = new Set();
      this.keysByUser.set(value.userId, keys);
    }
    keys.add(key);
  }

  /**
   * A person's sessions or rights changed: their entries go here at once, then on every other
   * instance (the returned promise resolves once the event is sent). Never throws: a failed send is
   * logged, and that instance's entries age out within the TTL.
   */
  async invalidateUser(userId: string): Promise<void> {
    this.dropUser(userId);
    // The answer waits (1 s at most) until the event came back to this instance: PostgreSQL has
    // then delivered it to every listening instance, so the next request finds it done.
    const id = randomUUID();
    const echoed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      this.echoes.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      await this.bus.publish({ kind: "sessions", userId, id });
      await echoed;
    } catch (error) {
      this.log.error(
        { err: { message: (error as Error).message } },
        "invalidation des sessions non diffusée",
      );
    } finally {
      this.echoes.delete(id);
    }
  }

  /** Forgets everything (and any lookup in flight). */
  clear(): void {
    this.seq += 1;
    this.floor = this.seq;
    this.entries.clear();
    this.keysByUser.clear();
    this.invalidatedAt.clear();
  }

  private dropUser(userId: string): void {
    this.seq += 1;
    this.invalidatedAt.set(userId, this.seq);
    // Bounded: past this many, the map restarts and every lookup in flight is refused instead.
    if (this.invalidatedAt.size > (this.options.maxEntries ?? SESSION_CACHE_MAX_ENTRIES)) {
      this.invalidatedAt.clear();
      this.floor = this.seq;
    }
    for (const key of this.keysByUser.get(userId) ?? []) this.entries.delete(key);
    this.keysByUser.delete(userId);
  }

  private remove(key: string, userId: string): void {
    this.entries.delete(key);
    const keys = this.keysByUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByUser.delete(userId);
  }
}

/** The cache of each app, by its root database handle, for services that only hold `db`. */
const caches = new WeakMap<object, SessionCache>();

export function registerSessionCache(db: object, cache: SessionCache): void {
  caches.set(db, cache);
}

/**
 * Tells the session cache of the app owning `db` (the root handle, not a transaction: call it after
 * the commit) that this person's sessions or rights changed. No-op for a db without a cache.
 */
export function sessionCacheOf(db: object): SessionCache | undefined {
  return caches.get(db);
}

export async function sessionsChanged(db: object, userId: string): Promise<void> {
  await caches.get(db)?.invalidateUser(userId);
}
