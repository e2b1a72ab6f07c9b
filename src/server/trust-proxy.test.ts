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

const ipOf = async (ctx: TestContext, remoteAddress: string, forwarded: string) =>
  (
    await ctx.app.inject({
      method: "GET",
      url: "/api/test/ip",
      remoteAddress,
      headers: { "x-forwarded-for": forwarded },
    })
  ).json().ip;

/** Each row: what the test shows, the connection's address, X-Forwarded-For, the address counted. */
type Case = [title: string, remoteAddress: string, forwarded: string, counted: string];

describe.each<{ trusted: string; cases: Case[] }>([
  {
    trusted: "10.0.0.5",
    cases: [
      ["is the address the proxy forwards", "10.0.0.5", "203.0.113.7", "203.0.113.7"],
      [
        "is the one the proxy saw, not the one a client wrote in the header before it",
        "10.0.0.5",
        "198.51.100.1, 203.0.113.7",
        "203.0.113.7",
      ],
      [
        "is the connection's when a client reaches the instance directly",
        "203.0.113.9",
        "198.51.100.1",
        "203.0.113.9",
      ],
    ],
  },
  { trusted: "false", cases: [["ignores X-Forwarded-For", "203.0.113.9", "198.51.100.1", "203.0.113.9"]] },
])("the client's address with TRUST_PROXY=$trusted", ({ trusted, cases }) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await contextTrusting(trusted);
  });
  afterAll(async () => ctx?.close());

  it.each(cases)("%s", async (_title, remoteAddress, forwarded, counted) => {
    expect(await ipOf(ctx, remoteAddress, forwarded)).toBe(counted);
  });
});
