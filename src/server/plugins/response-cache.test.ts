import { describe, expect, it } from "vitest";
import { ResponseCache } from "./response-cache";

/** A bus whose changes, epoch and sync the test drives. */
function fakeBus() {
  const handlers: Array<(table: string) => void> = [];
  const bus = {
    current: 1 as number | null,
    syncs: 0,
    failSync: false,
    epoch: () => bus.current,
    sync: async () => {
      bus.syncs += 1;
      if (bus.failSync) throw new Error("down");
    },
    onTableChange: (handler: (table: string) => void) => handlers.push(handler),
    change: (table = "requests") => {
      for (const handler of handlers) handler(table);
    },
  };
  return bus;
}

describe("ResponseCache", () => {
  it("serves what it stored, after a round trip on the bus", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("k", cache.ticket(), '{"a":1}');
    expect(await cache.lookup("k")).toBe('{"a":1}');
    expect(bus.syncs).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 1, stored: 1 });
  });

  it("forgets everything when a table changes", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("k", cache.ticket(), "{}");
    bus.change();
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("does not store an answer computed while a change arrived", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    const ticket = cache.ticket();
    bus.change();
    cache.store("k", ticket, "{}");
    expect(cache.size).toBe(0);
  });

  it("drops what a change seen during the lookup's round trip replaced", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("k", cache.ticket(), "{}");
    bus.sync = async () => {
      bus.change();
    };
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("neither stores nor serves while the bus does not listen, nor across a reconnection", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    bus.current = null;
    cache.store("k", cache.ticket(), "{}");
    expect(cache.size).toBe(0);
    bus.current = 1;
    cache.store("k", cache.ticket(), "{}");
    bus.current = 2;
    expect(await cache.lookup("k")).toBeUndefined();
    bus.current = 2;
    cache.store("k", cache.ticket(), "{}");
    bus.failSync = true;
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("keeps an answer for ttlMs at most", async () => {
    const bus = fakeBus();
    let now = 0;
    const cache = new ResponseCache(bus, { ttlMs: 1000, now: () => now });
    cache.store("k", cache.ticket(), "{}");
    now = 999;
    expect(await cache.lookup("k")).toBe("{}");
    now = 1000;
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("stays within its size, the least recently used going first", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus, { maxChars: 80 });
    const body = "x".repeat(10);
    for (const key of ["a", "b", "c", "d"]) cache.store(key, cache.ticket(), body);
    expect(await cache.lookup("a")).toBe(body);
    for (const key of ["e", "f", "g", "h", "i"]) cache.store(key, cache.ticket(), body);
    expect(cache.size).toBe(8);
    expect(await cache.lookup("a")).toBe(body);
    expect(await cache.lookup("b")).toBeUndefined();
    // An answer larger than an eighth of the cache is not kept.
    cache.store("big", cache.ticket(), "y".repeat(11));
    expect(cache.size).toBe(8);
  });
});
