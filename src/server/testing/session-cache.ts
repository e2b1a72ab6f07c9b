import { expect } from "vitest";
import { sessionCacheOf } from "../access/session-cache";
import type { TestContext } from "./harness";
import { api } from "./people";

/**
 * Both instances answer `url` with 200 twice, the second time from their session cache (no Better Auth
 * lookup), and each holds the session: the starting point of the session-cache scenarios.
 */
export async function cachedOnBoth(
  instances: { a: TestContext; b: TestContext },
  url: string,
  cookie: string,
) {
  const { a, b } = instances;
  // Writes made before (sign-up, sign-in) notify on their own time on PostgreSQL: handled first, so
  // they cannot empty the entries this stores.
  await Promise.all([a.app.bus.sync(), b.app.bus.sync()]);
  for (const ctx of [a, b]) {
    expect((await api(ctx).get(url, cookie)).statusCode).toBe(200);
    expect((await api(ctx).get(url, cookie)).statusCode).toBe(200);
  }
  expect(sessionCacheOf(a.app.db)?.size).toBeGreaterThan(0);
  expect(sessionCacheOf(b.app.db)?.size).toBeGreaterThan(0);
}
