import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { dentistDashboardSchema, dentistRequestListSchema } from "../../shared/schemas/dentist";
import { createTestContext, signUpDentist, type TestContext } from "../testing/harness";
import { compileResponseSerializer, fastSerializerCompiler } from "./fast-serializer";

// The cheap request path (issue 19, ADR 025): compiled serializers that never write a field the
// schema does not name, one log line per request only when it says something, no compression of
// small bodies.

const row = (i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  patient_name: `Patient ${i}`,
  treatment_type: "implant",
  created_at: "2026-11-26T08:00:00.000Z",
  budget: "1000-2000",
  urgency: "medium",
  my_status: "pending",
  is_new: i % 2 === 0,
  set_aside: i % 3 === 0,
  addressed_to_me: i === 2,
  quote_amount_cents: i % 2 ? null : 120_000,
  appointment_status: i === 3 ? "confirmed" : null,
  appointment_starts_at: i === 3 ? "2026-12-02T13:30:00.000Z" : null,
  patient_city: i % 2 ? null : "Lyon",
  distance_km: i % 2 ? null : 12,
});

const routeOf = (schema: unknown) => ({ schema, method: "GET", url: "/x", httpStatus: "200" }) as never;

describe("compiled response serializers", () => {
  const list = {
    items: [0, 1, 2, 3].map((i) => ({
      ...row(i),
      // What a repository could select by mistake: never written.
      patient_email: "camille.secret@example.com",
      password_hash: "scrypt$secret-hash",
      patient_postal_code: "secret-69001",
    })),
    page: 1,
    page_size: 20,
    has_more: false,
    treatments: ["implant"],
    verified: true,
    distance_filter: true,
    internal_note: "secret-note",
  };

  it("writes only the schema's fields, as zod's serializer did", () => {
    const serialize = compileResponseSerializer(dentistRequestListSchema);
    expect(serialize).not.toBeNull();
    const body = serialize?.(list) ?? "";
    expect(body).not.toContain("secret");
    expect(JSON.parse(body)).toEqual(
      JSON.parse(zodSerializerCompiler(routeOf(dentistRequestListSchema))(list)),
    );
    expect(JSON.parse(body).items[3]).toEqual(row(3));
  });

  it("compiles a schema once per process: another app or route on the same schema reuses its serializer", () => {
    const first = compileResponseSerializer(dentistRequestListSchema);
    expect(first).not.toBeNull();
    expect(compileResponseSerializer(dentistRequestListSchema)).toBe(first);
  });

  it("compiles the dashboard's schema too (not left to zod)", () => {
    expect(compileResponseSerializer(dentistDashboardSchema)).not.toBeNull();
  });

  it("refuses a response of the wrong shape like zod did (500, not a coerced value)", () => {
    const serialize = fastSerializerCompiler(routeOf(dentistRequestListSchema));
    expect(() => serialize({ ...list, items: [{ ...row(1), my_status: "sneaky" }] })).toThrow();
    expect(() => serialize({ ...list, page: "1" })).toThrow();
    const { verified: _, ...missing } = list;
    expect(() => serialize(missing)).toThrow();
  });
});

describe("the request path through the app", () => {
  let ctx: TestContext;
  let slowCtx: TestContext;
  const lines: string[] = [];
  const slowLines: string[] = [];
  const capture = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const probes = (app: FastifyInstance) => {
    app.register(async (child) => {
      child.setSerializerCompiler(fastSerializerCompiler);
      const r = child.withTypeProvider<ZodTypeProvider>();
      r.get(
        "/api/test-probe/profile",
        { schema: { response: { 200: z.object({ id: z.string(), name: z.string() }) } } },
        async () => ({ id: "p1", name: "Camille", password: "hunter2-secret" }) as never,
      );
      r.get(
        "/api/test-probe/size/:bytes",
        {
          schema: {
            params: z.object({ bytes: z.coerce.number().int() }),
            response: { 200: z.object({ text: z.string() }) },
          },
        },
        async (request) => ({ text: "a".repeat(request.params.bytes) }),
      );
    });
    app.get("/api/test-probe/boom", async () => {
      throw new Error("boom");
    });
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { LOG_LEVEL: "info" },
      logStream: capture(lines),
      beforeReady: probes,
    });
    slowCtx = await createTestContext({
      env: { LOG_LEVEL: "info", LOG_SLOW_REQUEST_MS: "0" },
      logStream: capture(slowLines),
      beforeReady: probes,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await slowCtx?.close();
  });

  it("never sends a field the route's schema does not name", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/test-probe/profile" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: "p1", name: "Camille" });
    expect(response.body).not.toContain("hunter2");
  });

  it("serves the dentist list and dashboard through the compiled serializers", async () => {
    const { cookie } = await signUpDentist(ctx.app, { first_name: "Anne" });
    for (const url of ["/api/dentist/requests", "/api/dentist/dashboard"]) {
      const response = await ctx.app.inject({ method: "GET", url, headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it("logs failures and 4xx in one line each, not a fast success", async () => {
    const before = lines.length;
    expect((await ctx.app.inject({ method: "GET", url: "/api/test-probe/profile" })).statusCode).toBe(200);
    expect(lines.slice(before).join("")).not.toContain("/api/test-probe/profile");

    expect((await ctx.app.inject({ method: "GET", url: "/api/test-probe/boom" })).statusCode).toBe(500);
    expect((await ctx.app.inject({ method: "GET", url: "/api/nope?secret=1" })).statusCode).toBe(404);
    const logged = lines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.req);
    const boom = logged.filter((entry) => entry.req.url === "/api/test-probe/boom");
    expect(boom).toHaveLength(1);
    expect(boom[0]).toMatchObject({ level: 50, res: { statusCode: 500 } });
    expect(typeof boom[0].responseTime).toBe("number");
    const notFound = logged.filter((entry) => entry.req.url === "/api/nope");
    expect(notFound).toHaveLength(1);
    expect(notFound[0]).toMatchObject({ level: 30, res: { statusCode: 404 } });
    expect(lines.slice(before).join("")).not.toContain("incoming request");
  });

  it("logs a success slower than LOG_SLOW_REQUEST_MS as a warning", async () => {
    const before = slowLines.length;
    expect((await slowCtx.app.inject({ method: "GET", url: "/api/test-probe/profile" })).statusCode).toBe(
      200,
    );
    const slow = slowLines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.req?.url === "/api/test-probe/profile");
    expect(slow).toHaveLength(1);
    expect(slow[0]).toMatchObject({ level: 40, msg: "requête lente", res: { statusCode: 200 } });
  });

  it("does not compress a body under 1 KB, compresses a larger one", async () => {
    const headers = { "accept-encoding": "br, gzip" };
    const small = await ctx.app.inject({ method: "GET", url: "/api/test-probe/size/900", headers });
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json().text).toHaveLength(900);
    const large = await ctx.app.inject({ method: "GET", url: "/api/test-probe/size/4000", headers });
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-encoding"]).toBe("br");
  });
});
