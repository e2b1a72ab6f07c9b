import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "./testing/harness";

/*
 * TRUST_PROXY (docs/deploy.md): the client's address, which the login throttle and the rate limits
 * count by, is read from X-Forwarded-For only when the request comes from a trusted proxy.
 */

async function contextTrusting(value: string) {
  return createTestContext({
    env: { TRUST_PROXY: value },
    beforeReady: (app) => {
      app.get("/api/test/ip", async (request) => ({ ip: request.ip }));
    },
  });
}

const ipOf = async (ctx: TestContext, remoteAddress: string, forwarded?: string) =>
  (
    await ctx.app.inject({
      method: "GET",
      url: "/api/test/ip",
      remoteAddress,
      headers: forwarded ? { "x-forwarded-for": forwarded } : {},
    })
  ).json().ip;

describe("the client's address behind a named proxy", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await contextTrusting("10.0.0.5");
  });
  afterAll(async () => ctx?.close());

  it("is the address the proxy forwards", async () => {
    expect(await ipOf(ctx, "10.0.0.5", "203.0.113.7")).toBe("203.0.113.7");
  });

  it("is the one the proxy saw, not the one a client wrote in the header before it", async () => {
    expect(await ipOf(ctx, "10.0.0.5", "198.51.100.1, 203.0.113.7")).toBe("203.0.113.7");
  });

  it("is the connection's when a client reaches the instance directly", async () => {
    expect(await ipOf(ctx, "203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
  });
});

describe("the client's address with no proxy trusted", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await contextTrusting("false");
  });
  afterAll(async () => ctx?.close());

  it("ignores X-Forwarded-For", async () => {
    expect(await ipOf(ctx, "203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
  });
});
