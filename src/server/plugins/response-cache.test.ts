import { describe, expect, it } from "vitest";
import type { TableChange } from "../realtime/bus";
import { ResponseCache } from "./response-cache";

/** A bus whose changes, epoch and sync the test drives. */
function fakeBus() {
  const handlers: Array<(change: TableChange) => void> = [];
  const bus = {
    current: 1 as number | null,
    syncs: 0,
    failSync: false,
    epoch: () => bus.current,
    sync: async () => {
      bus.syncs += 1;
      if (bus.failSync) throw new Error("down");
    },
    onTableChange: (handler: (change: TableChange) => void) => handlers.push(handler),
    /** A committed write concerning these people, or everyone (null). */
    change: (userIds: string[] | null = null, table = "requests") => {
      for (const handler of handlers) handler({ table, userIds });
    },
  };
  return bus;
}

describe("ResponseCache", () => {
  it("serves what it stored, after a round trip on the bus", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("p", "k", cache.ticket(), '{"a":1}');
    expect(await cache.lookup("k")).toBe('{"a":1}');
    expect(bus.syncs).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 1, stored: 1 });
  });

  it("forgets everything when a change names nobody", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("p", "k", cache.ticket(), "{}");
    bus.change();
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("drops the answers of the people a change names, and only theirs", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("martin", "martin GET /a", cache.ticket(), "1");
    cache.store("martin", "martin GET /b", cache.ticket(), "2");
    cache.store("leroy", "leroy GET /a", cache.ticket(), "3");
    cache.store("patient", "patient GET /a", cache.ticket(), "4");
    bus.change(["leroy", "patient"]);
    expect(await cache.lookup("leroy GET /a")).toBeUndefined();
    expect(await cache.lookup("patient GET /a")).toBeUndefined();
    expect(await cache.lookup("martin GET /a")).toBe("1");
    expect(await cache.lookup("martin GET /b")).toBe("2");
    expect(cache.holds("leroy")).toBe(false);
    expect(cache.stats).toMatchObject({ hits: 2, dropped: 2, cleared: 0 });
  });

  it("does not store an answer computed while a change of its person arrived, and stores others'", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    const leroy = cache.ticket();
    const martin = cache.ticket();
    bus.change(["leroy"]);
    cache.store("leroy", "leroy GET /a", leroy, "{}");
    cache.store("martin", "martin GET /a", martin, "{}");
    expect(cache.holds("leroy")).toBe(false);
    expect(cache.holds("martin")).toBe(true);
    // A later ticket of the person changed stores again.
    cache.store("leroy", "leroy GET /a", cache.ticket(), "{}");
    expect(cache.holds("leroy")).toBe(true);
  });

  it("past the people it may remember, forgets everything and refuses the tickets in flight", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus, { maxTracked: 2 });
    cache.store("martin", "martin GET /a", cache.ticket(), "{}");
    const martin = cache.ticket();
    bus.change(["a", "b"]);
    expect(cache.holds("martin")).toBe(true);
    bus.change(["c"]);
    expect(cache.size).toBe(0);
    cache.store("martin", "martin GET /a", martin, "{}");
    expect(cache.size).toBe(0);
  });

  it("does not store an answer computed while a change arrived", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    const ticket = cache.ticket();
    bus.change();
    cache.store("p", "k", ticket, "{}");
    expect(cache.size).toBe(0);
  });

  it("drops what a change seen during the lookup's round trip replaced", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    cache.store("p", "k", cache.ticket(), "{}");
    bus.sync = async () => {
      bus.change();
    };
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("neither stores nor serves while the bus does not listen, nor across a reconnection", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus);
    bus.current = null;
    cache.store("p", "k", cache.ticket(), "{}");
    expect(cache.size).toBe(0);
    bus.current = 1;
    cache.store("p", "k", cache.ticket(), "{}");
    bus.current = 2;
    expect(await cache.lookup("k")).toBeUndefined();
    bus.current = 2;
    cache.store("p", "k", cache.ticket(), "{}");
    bus.failSync = true;
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("keeps an answer for ttlMs at most", async () => {
    const bus = fakeBus();
    let now = 0;
    const cache = new ResponseCache(bus, { ttlMs: 1000, now: () => now });
    cache.store("p", "k", cache.ticket(), "{}");
    now = 999;
    expect(await cache.lookup("k")).toBe("{}");
    now = 1000;
    expect(await cache.lookup("k")).toBeUndefined();
  });

  it("stays within its size, the least recently used going first", async () => {
    const bus = fakeBus();
    const cache = new ResponseCache(bus, { maxChars: 80 });
    const body = "x".repeat(10);
    for (const key of ["a", "b", "c", "d"]) cache.store(key, key, cache.ticket(), body);
    expect(await cache.lookup("a")).toBe(body);
    for (const key of ["e", "f", "g", "h", "i"]) cache.store(key, key, cache.ticket(), body);
    expect(cache.size).toBe(8);
    expect(await cache.lookup("a")).toBe(body);
    expect(await cache.lookup("b")).toBeUndefined();
    // An answer larger than an eighth of the cache is not kept.
    cache.store("big", "big", cache.ticket(), "y".repeat(11));
    expect(cache.size).toBe(8);
  });
});
