import { Writable } from "node:stream";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../shared/schemas/cursor";
import { multipart, tinyPng } from "./testing/files";
import { appPerFile, createTestContext, postRequest, sessionCookie, signUpPatient } from "./testing/harness";
import { patient, type Who } from "./testing/people";

/**
 * The request pipeline (issue 13, items 2, 3 and 9): cross-site refusals, every bad input a 4xx in
 * French in one shape, Fastify's own errors mapped, and logs without secrets.
 */

const ctx = appPerFile({
  env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent", CONTACT_RATE_LIMIT_PER_HOUR: "1000" },
  beforeReady(app) {
    // Probes for the error handler: a database-like failure and a third-party 4xx in English.
    app.get("/api/test-probe/crash", async () => {
      throw new Error('invalid input syntax for type uuid: "secret-value"');
    });
    app.get("/api/test-probe/conflict", async () => {
      throw Object.assign(new Error("Conflict with the current state of the target resource"), {
        statusCode: 409,
      });
    });
  },
});
let alice: Who;
let aliceRequest: string;

const SAME_ORIGIN = "http://localhost:3000"; // PUBLIC_URL of the test harness
const OTHER_PORT = "http://localhost:4000"; // same site (cookies ride along), another origin

async function createRequest(cookie: string): Promise<string> {
  const response = await postRequest(ctx.app, cookie, {
    treatment_type: "implant",
    consent: "true",
    urgency: "high",
    description: "Molaire",
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  alice = await patient(ctx.app);
  aliceRequest = await createRequest(alice.cookie);
});

const inject = (options: InjectOptions) => ctx.app.inject(options);
const requestStatus = async (id: string) =>
  (await ctx.app.db.selectFrom("requests").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;
const supportMessageCount = async (patientId: string) =>
  Number(
    (
      await ctx.app.db
        .selectFrom("support_messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("patient_id", "=", patientId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Words of zod's, Fastify's or busboy's English messages. */
const ENGLISH =
  /\b(invalid|expected|received|required|must|too (big|small)|body|request|not found|unsupported|bad|error|cannot|url|unexpected|is not)\b/i;

/** The one error shape, with a French message (and French field messages). */
function expectFrenchError(response: LightMyRequestResponse, status: number, code?: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(typeof body.error.code).toBe("string");
  if (code) expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(/^[A-ZÀ-Ý]/);
  expect(body.error.message).not.toMatch(ENGLISH);
  for (const message of Object.values<string>(body.error.fields ?? {})) expect(message).not.toMatch(ENGLISH);
  return body.error as { code: string; message: string; fields?: Record<string, string> };
}

describe("cross-site requests (onRequest, before any parsing)", () => {
  it("refuses a text/plain POST from another origin of the same site: nothing is cancelled", async () => {
    const response = await inject({
      method: "POST",
      url: `/api/patient/requests/${aliceRequest}/cancel`,
      payload: "x=1",
      headers: { cookie: alice.cookie, origin: OTHER_PORT, "content-type": "text/plain" },
    });
    const error = expectFrenchError(response, 403, "CROSS_SITE");
    expect(error.message).toContain("refusée");
    expect(await requestStatus(aliceRequest)).toBe("new");
  });

  it("refuses Origin: null, and Sec-Fetch-Site same-site or cross-site without an Origin", async () => {
    for (const headers of [
      { origin: "null" },
      { origin: "https://evil.example" },
      { origin: `${SAME_ORIGIN}.evil.example` },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
    ]) {
      const response = await inject({
        method: "POST",
        url: `/api/patient/requests/${aliceRequest}/cancel`,
        headers: { cookie: alice.cookie, ...headers },
      });
      expectFrenchError(response, 403, "CROSS_SITE");
    }
    expect(await requestStatus(aliceRequest)).toBe("new");
  });

  it("refuses a cross-origin multipart POST to the support chat: no message is written", async () => {
    const before = await supportMessageCount(alice.id);
    const body = multipart({ body: "Message d'un autre site" }, [
      { field: "image", name: "photo.png", type: "image/png", content: tinyPng() },
    ]);
    const response = await inject({
      method: "POST",
      url: "/api/support/messages",
      payload: body.payload,
      headers: { ...body.headers, cookie: alice.cookie, origin: OTHER_PORT, "sec-fetch-site": "same-site" },
    });
    expectFrenchError(response, 403, "CROSS_SITE");
    expect(await supportMessageCount(alice.id)).toBe(before);
  });

  it("refuses Better Auth's routes from another origin too", async () => {
    const response = await inject({
      method: "POST",
      url: "/api/auth/sign-out",
      payload: {},
      headers: { cookie: alice.cookie, origin: "https://evil.example" },
    });
    expectFrenchError(response, 403, "CROSS_SITE");
    expect(
      (await inject({ method: "GET", url: "/api/me", headers: { cookie: alice.cookie } })).statusCode,
    ).toBe(200);
  });

  it("lets GETs through whatever their origin", async () => {
    const response = await inject({
      method: "GET",
      url: `/api/patient/requests/${aliceRequest}`,
      headers: { cookie: alice.cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(response.statusCode).toBe(200);
  });

  it("accepts the product's own pages (same origin) and callers that are not browsers", async () => {
    const body = multipart({ body: "Bonjour, une question." });
    const posted = await inject({
      method: "POST",
      url: "/api/support/messages",
      payload: body.payload,
      headers: {
        ...body.headers,
        cookie: alice.cookie,
        origin: SAME_ORIGIN,
        "sec-fetch-site": "same-origin",
      },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    // A typed address or a bookmark: Sec-Fetch-Site none.
    const typed = await inject({
      method: "POST",
      url: "/api/support/read",
      headers: { cookie: alice.cookie, "sec-fetch-site": "none" },
    });
    expect(typed.statusCode, typed.body).toBeLessThan(300);

    const cancelled = await inject({
      method: "POST",
      url: `/api/patient/requests/${aliceRequest}/cancel`,
      headers: { cookie: alice.cookie, origin: SAME_ORIGIN },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await requestStatus(aliceRequest)).toBe("cancelled");
    // Neither Origin nor Sec-Fetch-Site (curl, another server, app.inject): not a browser's cross-site request.
    const other = await createRequest(alice.cookie);
    const plain = await inject({
      method: "POST",
      url: `/api/patient/requests/${other}/cancel`,
      headers: { cookie: alice.cookie },
    });
    expect(plain.statusCode).toBe(200);
  });
});

describe("realtime handshake", () => {
  const realtime = (headers: Record<string, string>) =>
    inject({ method: "GET", url: "/api/realtime", headers });

  it("answers 403 to a page of another origin (Origin: null included), signed in or not, never 500", async () => {
    expectFrenchError(await realtime({ origin: "null" }), 403, "CROSS_SITE");
    expectFrenchError(await realtime({ origin: "null", cookie: alice.cookie }), 403, "CROSS_SITE");
    expectFrenchError(
      await realtime({ origin: "https://evil.example", cookie: alice.cookie }),
      403,
      "CROSS_SITE",
    );
  });

  it("answers 401 without a session from our own origin or without an Origin", async () => {
    expectFrenchError(await realtime({ origin: SAME_ORIGIN }), 401, "UNAUTHENTICATED");
    expectFrenchError(await realtime({}), 401, "UNAUTHENTICATED");
  });
});

describe("control characters (refused with 400 naming the field, before any query)", () => {
  it("refuses NUL and other C0 controls in a JSON body", async () => {
    for (const name of ["Marie\u0000Dupont", "Marie\u0007", "\u001bMarie", "Marie\u007f"]) {
      const response = await inject({
        method: "PATCH",
        url: "/api/me",
        payload: { full_name: name },
        headers: { cookie: alice.cookie },
      });
      const error = expectFrenchError(response, 400, "VALIDATION_ERROR");
      expect(Object.keys(error.fields ?? {})).toEqual(["full_name"]);
    }
    const nested = await inject({
      method: "PATCH",
      url: "/api/me",
      payload: { full_name: "Marie Dupont", specialties: ["Implantologie", "a\u0000b"] },
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(nested, 400).fields).toHaveProperty(["specialties.1"]);
  });

  it("refuses them in query strings and path parameters", async () => {
    const search = await inject({
      method: "GET",
      url: "/api/patient/requests?search=a%00b",
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(search, 400).fields).toEqual({ search: expect.any(String) });
    const conversations = await inject({
      method: "GET",
      url: "/api/conversations?search=%01",
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(conversations, 400).fields).toHaveProperty("search");
    const param = await inject({
      method: "GET",
      url: "/api/patient/requests/a%00b",
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(param, 400).fields).toHaveProperty("id");
  });

  it("checks the session first: a signed-out caller gets 401, not 400", async () => {
    const response = await inject({ method: "PATCH", url: "/api/me", payload: { full_name: "a\u0000" } });
    expectFrenchError(response, 401, "UNAUTHENTICATED");
  });

  it("refuses them in multipart fields (the public contact form): nothing is stored", async () => {
    const count = async () =>
      Number(
        (
          await ctx.app.db
            .selectFrom("contact_submissions")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const body = multipart({ name: "Jean\u0000", email: "jean@example.com", message: "Bonjour" });
    const response = await inject({ method: "POST", url: "/api/contact", ...body });
    expect(expectFrenchError(response, 400).fields).toEqual({ name: expect.any(String) });
    expect(await count()).toBe(before);
    // Tab, line feed and carriage return are text.
    const ok = multipart({ name: "Jean", email: "jean@example.com", message: "Bonjour,\r\n\tmerci." });
    expect((await inject({ method: "POST", url: "/api/contact", ...ok })).statusCode).toBe(201);
  });

  it("refuses them in a support message and a chat message body", async () => {
    const before = await supportMessageCount(alice.id);
    const body = multipart({ body: "Bonjour\u0000" });
    const response = await inject({
      method: "POST",
      url: "/api/support/messages",
      ...body,
      headers: { ...body.headers, cookie: alice.cookie },
    });
    expect(expectFrenchError(response, 400).fields).toEqual({ body: expect.any(String) });
    expect(await supportMessageCount(alice.id)).toBe(before);
  });
});

describe("cursors and ids", () => {
  const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const uuid = "4b6f2a7e-1c1d-4e55-9f0a-2b7c3d4e5f60";

  it("refuses a forged conversation cursor with a French 400", async () => {
    for (const cursor of [
      "n'importe quoi",
      "%%%",
      "AAAA",
      forged(["2026-01-01T00:00:00.000Z", "not-a-uuid"]),
      forged(["2026-01-01T00:00:00.000Z", "1' or '1'='1"]),
      forged(["-010000-01-01T00:00:00.000Z", uuid]),
      forged(["+275760-09-13T00:00:00.000Z", uuid]),
      forged(["0000-01-01T00:00:00.000Z", uuid]),
      forged(["2026-02-31T00:00:00.000Z", uuid]),
      forged(["2026-01-01", uuid]),
      forged([1, uuid]),
      forged(["2026-01-01T00:00:00.000Z", uuid, "extra"]),
      forged({ at: "2026-01-01T00:00:00.000Z", id: uuid }),
      "x".repeat(201),
    ]) {
      const response = await inject({
        method: "GET",
        url: `/api/conversations?cursor=${encodeURIComponent(cursor)}`,
        headers: { cookie: alice.cookie },
      });
      expect(expectFrenchError(response, 400).fields, cursor).toHaveProperty("cursor");
    }
  });

  it("accepts a cursor as the API writes it", async () => {
    const response = await inject({
      method: "GET",
      url: `/api/conversations?cursor=${encodeCursor({ at: "2026-01-01T00:00:00.000123Z", id: uuid })}`,
      headers: { cookie: alice.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("answers 404 to a path id that is not a uuid, or longer than any id", async () => {
    for (const id of ["not-a-uuid", "1' or '1'='1", "4b6f2a7e-1c1d-4e55-9f0a-2b7c3d4e5f6", "x".repeat(101)]) {
      const response = await inject({
        method: "GET",
        url: `/api/patient/requests/${encodeURIComponent(id)}`,
        headers: { cookie: alice.cookie },
      });
      expectFrenchError(response, 404, "NOT_FOUND");
    }
    // A param schema that refuses (documents: z.uuid) also answers 404.
    const document = await inject({
      method: "GET",
      url: "/api/documents/not-a-uuid/file",
      headers: { cookie: alice.cookie },
    });
    expectFrenchError(document, 404, "NOT_FOUND");
  });
});

describe("zod's messages in French", () => {
  it("answers every kind of schema failure in French, field by field", async () => {
    const query = await inject({
      method: "GET",
      url: "/api/patient/requests?page=abc&page_size=1000",
      headers: { cookie: alice.cookie },
    });
    const error = expectFrenchError(query, 400, "VALIDATION_ERROR");
    expect(error.fields).toEqual({
      page: "Ce champ doit être un nombre.",
      page_size: "La valeur ne doit pas dépasser 50.",
    });
    const wrongTypes = await inject({
      method: "PATCH",
      url: "/api/me",
      payload: { full_name: "Marie", specialties: "Implantologie", bio: 12 },
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(wrongTypes, 400).fields).toEqual({
      specialties: "Ce champ doit être une liste.",
      bio: "Ce champ doit être un texte.",
    });
    const notAnObject = await inject({
      method: "PATCH",
      url: "/api/me",
      payload: "[]",
      headers: { cookie: alice.cookie, "content-type": "application/json" },
    });
    expectFrenchError(notAnObject, 400);
  });

  it("keeps the messages written in our schemas", async () => {
    const response = await inject({
      method: "PATCH",
      url: "/api/me",
      payload: { full_name: "" },
      headers: { cookie: alice.cookie },
    });
    expect(expectFrenchError(response, 400).fields?.full_name).toBe("Veuillez saisir votre nom complet");
  });
});

describe("Fastify's and libraries' own errors, in our shape and in French", () => {
  const login = (payload: string | Buffer, contentType = "application/json") =>
    inject({ method: "POST", url: "/api/account/login", payload, headers: { "content-type": contentType } });

  it.each([
    ["malformed JSON", () => login("{"), 400],
    ["JSON that is not JSON at all", () => login("nul"), 400],
    ["an empty JSON body", () => login(""), 400],
    ["a content type nobody parses", () => login("<a/>", "application/xml"), 415],
    ["a body over the 1 MB limit", () => login(JSON.stringify({ email: "a".repeat(1_100_000) })), 413],
    ["a malformed URL", () => inject({ method: "GET", url: "/api/patient/requests/%E0%A4%A" }), 400],
    [
      "a multipart body without boundary",
      () =>
        inject({
          method: "POST",
          url: "/api/contact",
          payload: "x",
          headers: { "content-type": "multipart/form-data" },
        }),
      400,
    ],
    [
      "a truncated multipart body",
      () =>
        inject({
          method: "POST",
          url: "/api/contact",
          payload: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nJean',
          headers: { "content-type": "multipart/form-data; boundary=b" },
        }),
      400,
    ],
    [
      "a multipart part with a forbidden field name",
      () => inject({ method: "POST", url: "/api/contact", ...multipart({ name: "Jean", constructor: "x" }) }),
      400,
    ],
    [
      "JSON to a multipart route",
      () => inject({ method: "POST", url: "/api/contact", payload: { name: "Jean" } }),
      415,
    ],
    ["an unknown API address", () => inject({ method: "DELETE", url: "/api/nope" }), 404],
    [
      "Better Auth's own answer, passed on",
      () => inject({ method: "POST", url: "/api/auth/revoke-other-sessions", payload: {} }),
      401,
    ],
    ["a third-party 4xx in English", () => inject({ method: "GET", url: "/api/test-probe/conflict" }), 409],
  ] as const)("%s", async (_name, call, status) => {
    const response = await call();
    expect(response.statusCode, response.body).toBeLessThan(500);
    expectFrenchError(response, status);
  });

  it("hides a server error's details", async () => {
    const response = await inject({ method: "GET", url: "/api/test-probe/crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: "INTERNAL_ERROR", message: "Une erreur est survenue. Veuillez réessayer plus tard." },
    });
  });
});

describe("logs without secrets", () => {
  it("keeps reset tokens, e-mail addresses, search terms and quoted values out of the logs", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const email = `camille.dupont.${Date.now().toString(36)}@example.com`;
    let token = "";
    const logged = await createTestContext({
      env: { LOG_LEVEL: "trace" },
      logStream: stream,
      beforeReady(app) {
        app.get("/api/test-probe/crash", async () => {
          throw new Error(`invalid input syntax for type uuid: "${email}"`);
        });
      },
    });
    try {
      const { app } = logged;
      const signup = await signUpPatient(app, { email, last_name: "Dupont" });
      expect(signup.response.statusCode).toBe(201);
      const forgot = await app.inject({
        method: "POST",
        url: "/api/account/forgot-password",
        payload: { email },
      });
      expect(forgot.statusCode).toBe(200);
      await expect
        .poll(() => logged.outbox().some((mail) => mail.includes("reset-password?token=")))
        .toBe(true);
      const mail = logged.outbox().find((m) => m.includes("reset-password?token=")) ?? "";
      token = /reset-password\?token=([\w-]+)/.exec(mail)?.[1] ?? "";
      expect(token.length).toBeGreaterThan(10);

      await app.inject({ method: "GET", url: `/reset-password?token=${token}&email=${email}` });
      const reset = await app.inject({
        method: "POST",
        url: "/api/account/reset-password",
        payload: { token, password: "nouveau-secret-1" },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const reused = await app.inject({
        method: "POST",
        url: `/api/account/reset-password?token=${token}`,
        payload: { token, password: "encore-un-autre" },
      });
      expect(reused.statusCode).toBe(400);
      const login = await app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email, password: "nouveau-secret-1" },
      });
      expect(login.statusCode).toBe(200);
      const cookie = sessionCookie(login);
      for (const url of [
        "/api/patient/requests?search=Dupont",
        "/api/conversations?search=Dupont",
        `/api/patient/requests?search=${encodeURIComponent(email)}`,
      ]) {
        expect((await app.inject({ method: "GET", url, headers: { cookie } })).statusCode).toBe(200);
      }
      expect((await app.inject({ method: "GET", url: "/api/test-probe/crash" })).statusCode).toBe(500);
      // A failed login: the e-mail address and the password are in the body only.
      await app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email, password: "faux-mot" },
      });
    } finally {
      await logged.close();
    }

    const output = lines.join("");
    if (process.env.SHOW_LOGS) console.log(output);
    // The requests were logged (the test can fail), by path.
    expect(output).toContain('"url":"/reset-password"');
    expect(output).toContain('"url":"/api/account/reset-password"');
    expect(output).toContain('"url":"/api/patient/requests"');
    expect(output).toContain("erreur serveur");
    // …and nothing of what the person typed or was sent.
    expect(output).not.toContain(token);
    expect(output).not.toContain(email);
    expect(output).not.toContain(encodeURIComponent(email));
    expect(output).not.toContain("Dupont");
    expect(output).not.toContain("search=");
    expect(output).not.toContain("nouveau-secret-1");
    expect(output).not.toContain("faux-mot");
    // Nor the client's address (the requests came from inject's 127.0.0.1).
    expect(output).not.toContain("remoteAddress");
    expect(output).not.toContain("127.0.0.1");
  });
});
