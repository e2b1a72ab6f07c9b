import helmet from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { helmetOptions, registerSecurityHeaders } from "./security-headers";

/*
 * The security headers computed once (ADR 058) are the ones @fastify/helmet sets on each request,
 * names, values and order, on every kind of answer: a route's, one whose route sets its own frame
 * header (it wins, as before), a 404, an error; with and without HTTPS (HSTS, upgrade-insecure-requests).
 */

async function appWith(register: (app: FastifyInstance) => Promise<void>) {
  const app = Fastify();
  await register(app);
  app.get("/ok", async () => ({ ok: true }));
  app.get("/framed", async (_request, reply) => {
    reply.header("X-Frame-Options", "DENY");
    return "framed";
  });
  app.get("/boom", async () => {
    throw new Error("boom");
  });
  return app;
}

async function answers(app: FastifyInstance) {
  const out: Record<string, { status: number; headers: string[]; sent: Record<string, unknown> }> = {};
  for (const url of ["/ok", "/framed", "/missing", "/boom"]) {
    const response = await app.inject({ method: "GET", url });
    // Header lines as written (names' case, order), without those that change between two calls.
    const res = response.raw.res as typeof response.raw.res & { getRawHeaderNames(): string[] };
    const lines = res
      .getRawHeaderNames()
      .filter((name) => !/^(date|content-length)$/i.test(name))
      .map((name) => `${name}: ${String(res.getHeader(name))}`);
    // And the headers as sent (a route's own, given to writeHead, win over those set before).
    const { date: _, "content-length": __, ...sent } = response.headers;
    out[url] = { status: response.statusCode, headers: lines, sent };
  }
  await app.close();
  return out;
}

describe("security headers computed once", () => {
  it.each([false, true])("are @fastify/helmet's own on every answer (HTTPS: %s)", async (secure) => {
    const options = helmetOptions(secure);
    const expected = await answers(
      await appWith(async (app) => {
        await app.register(helmet, options);
      }),
    );
    const actual = await answers(await appWith((app) => registerSecurityHeaders(app, options)));
    expect(actual).toEqual(expected);
    const ok = (expected["/ok"] as { headers: string[] }).headers.join("\n");
    expect(ok).toContain("Content-Security-Policy: default-src 'self';");
    expect(ok).toContain("X-Frame-Options: SAMEORIGIN");
    expect(expected["/framed"]?.sent["x-frame-options"]).toBe("DENY");
    if (secure) expect(ok).toContain("Strict-Transport-Security: max-age=");
    else expect(ok).not.toContain("Strict-Transport-Security");
  });
});
