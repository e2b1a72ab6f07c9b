import { describe, expect, it } from "vitest";
import type { ProfileRow } from "../db/types";
import type { BusEvent } from "../realtime/bus";
import { type CachedSession, cookieValue, SessionCache, sessionKey } from "./session-cache";

/** A bus that delivers what others publish when the test says so, and whose epoch the test sets. */
function fakeBus() {
  const handlers: Array<(event: BusEvent) => void> = [];
  const bus = {
    published: [] as BusEvent[],
    current: 1 as number | null,
    async publish(event: BusEvent) {
      bus.published.push(event);
    },
    subscribe(handler: (event: BusEvent) => void) {
      handlers.push(handler);
    },
    epoch: () => bus.current,
    deliver(event: BusEvent) {
      for (const handler of handlers) handler(event);
    },
  };
  return bus;
}

const DAY = 24 * 60 * 60_000;
const log = { error() {} };

function setup() {
  const bus = fakeBus();
  let now = 1_000_000;
  const cache = new SessionCache(bus, log, { ttlMs: 30_000, now: () => now });
  const value = (userId = "u1", over: Partial<CachedSession> = {}): CachedSession => ({
    userId,
    profile: { id: userId } as ProfileRow,
    subscription: null,
    expiresAt: now + 30 * DAY,
    refreshAt: now + DAY,
    ...over,
  });
  return { bus, cache, value, advance: (ms: number) => (now += ms), now: () => now };
}

describe("session cache", () => {
  it("keys by a hash of the cookie value, never the value itself", () => {
    const key = sessionKey("abc.signature");
    expect(key).not.toContain("abc");
    expect(key).toBe(sessionKey("abc.signature"));
    expect(key).not.toBe(sessionKey("abc.signaturf"));
    expect(cookieValue("a=1; sourio.session_token=t.s%3D; b=2", "sourio.session_token")).toBe("t.s%3D");
    expect(cookieValue("xsourio.session_token=t", "sourio.session_token")).toBeUndefined();
  });

  it("serves an entry within its TTL, and not after", () => {
    const { cache, value, advance } = setup();
    cache.set("k", cache.begin(), value());
    expect(cache.get("k")?.userId).toBe("u1");
    advance(29_999);
    expect(cache.get("k")).not.toBeNull();
    advance(1);
    expect(cache.get("k")).toBeNull();
  });

  it.each<{ title: string; field: "expiresAt" | "refreshAt"; inMs: number }>([
    { title: "never serves a session past its end, even within the TTL", field: "expiresAt", inMs: 5_000 },
    {
      title: "lets Better Auth refresh a session that is due (no hit from then on)",
      field: "refreshAt",
      inMs: 1_000,
    },
  ])("$title", ({ field, inMs }) => {
    const { cache, value, advance, now } = setup();
    cache.set("k", cache.begin(), value("u1", { [field]: now() + inMs }));
    advance(inMs - 1);
    expect(cache.get("k")).not.toBeNull();
    advance(1);
    expect(cache.get("k")).toBeNull();
  });

  it("drops a person's entries when told here, and tells the other instances", async () => {
    const { bus, cache, value } = setup();
    cache.set("k1", cache.begin(), value("u1"));
    cache.set("k2", cache.begin(), value("u1"));
    cache.set("k3", cache.begin(), value("u2"));
    await cache.invalidateUser("u1");
    expect(cache.get("k1")).toBeNull();
    expect(cache.get("k2")).toBeNull();
    expect(cache.get("k3")).not.toBeNull();
    expect(bus.published).toMatchObject([{ kind: "sessions", userId: "u1" }]);
  });

  it("drops a person's entries when another instance says so", () => {
    const { bus, cache, value } = setup();
    cache.set("k", cache.begin(), value("u1"));
    bus.deliver({ kind: "sessions", userId: "u1" });
    expect(cache.get("k")).toBeNull();
  });

  it("does not store a lookup that began before the person's sessions changed", () => {
    const { bus, cache, value } = setup();
    const early = cache.begin();
    bus.deliver({ kind: "sessions", userId: "u1" });
    cache.set("k", early, value("u1"));
    expect(cache.get("k")).toBeNull();
    // Another person's lookup is not concerned; a lookup begun after the change is stored.
    cache.set("k2", early, value("u2"));
    expect(cache.get("k2")).not.toBeNull();
    cache.set("k", cache.begin(), value("u1"));
    expect(cache.get("k")).not.toBeNull();
  });

  it("serves nothing while the bus does not listen, and forgets what was stored before a reconnection", () => {
    const { bus, cache, value } = setup();
    cache.set("k", cache.begin(), value());
    bus.current = null;
    expect(cache.get("k")).toBeNull();
    cache.set("k", cache.begin(), value());
    expect(cache.size).toBe(0);
    bus.current = 1;
    cache.set("k", cache.begin(), value());
    const before = cache.begin();
    bus.current = 2;
    expect(cache.get("k")).toBeNull();
    cache.set("k", before, value());
    expect(cache.get("k")).toBeNull();
  });

  it("holds at most maxEntries, dropping the oldest", () => {
    const bus = fakeBus();
    const cache = new SessionCache(bus, log, { maxEntries: 2 });
    const value = (userId: string): CachedSession => ({
      userId,
      profile: { id: userId } as ProfileRow,
      subscription: null,
      expiresAt: Date.now() + DAY,
      refreshAt: Date.now() + DAY,
    });
    cache.set("a", cache.begin(), value("u1"));
    cache.set("b", cache.begin(), value("u2"));
    cache.set("c", cache.begin(), value("u3"));
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBeNull();
    expect(cache.get("c")).not.toBeNull();
  });
});
