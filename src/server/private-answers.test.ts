import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueInvoice } from "./modules/invoices/invoices.service";
import { createWorld, type PersonName, type World } from "./testing/world";

/**
 * Issue 32: every authenticated API answer says `Cache-Control: private, no-store` (patients'
 * names and treatments must stay in no shared cache nor in the browser's), and every compressible
 * answer says `Vary: Accept-Encoding`. Driven from the OpenAPI document: each GET route that
 * refuses an anonymous caller (401) is called by every person of the world (testing/world.ts), on
 * the world's objects; at least one must be allowed (2xx), and each answer, allowed or refused, is
 * checked, twice (the second may come from the response cache, ADR 030).
 */

let world: World;
let paths: string[];
/** The required query of each path (an enum's first value), from the document. */
const queries: Record<string, string> = {};
type Parameter = { in: string; name: string; required?: boolean; schema?: { enum?: string[] } };
const PEOPLE: PersonName[] = ["patientA", "chosen", "admin", "patientB", "notChosen", "unverified"];

beforeAll(async () => {
  world = await createWorld();
  const openapi = (await world.call("anonymous", { method: "GET", url: "/api/openapi.json" })).json() as {
    paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  };
  paths = Object.entries(openapi.paths)
    .filter(([path, methods]) => path.startsWith("/api/") && "get" in methods)
    .map(([path]) => path);
  for (const path of paths) {
    const required = (openapi.paths[path]?.get?.parameters ?? []).filter(
      (p) => p.in === "query" && p.required,
    );
    const pairs = required.map((p) => {
      const value = p.schema?.enum?.[0];
      if (value === undefined) throw new Error(`donnez une valeur pour ?${p.name} de GET ${path}`);
      return `${p.name}=${encodeURIComponent(value)}`;
    });
    if (pairs.length > 0) queries[path] = `?${pairs.join("&")}`;
  }
  // A's open request: its devis read (one page), so that its page preview answers.
  const reading = await world.ctx.app.db
    .selectFrom("quote_readings")
    .select("id")
    .where("request_id", "=", world.requests.openA)
    .executeTakeFirstOrThrow();
  await world.ctx.app.db
    .updateTable("quote_readings")
    .set({
      status: "done",
      kind: "text_pdf",
      pages: 1,
      result: JSON.stringify({ lines: [] }),
      finished_at: new Date(),
    })
    .where("id", "=", reading.id)
    .execute();
  readingOfA = reading.id;
  // An invoice of the chosen dentist (issue 35), for the invoices' PDF routes.
  const invoice = await world.ctx.app.db.transaction().execute((trx) =>
    issueInvoice(
      trx,
      {
        dentistId: world.people.chosen.id,
        paymentRef: "private_answers_chosen",
        planLabel: "Abonnement Sourio Cabinet — mensuel",
        periodStart: "2026-11-01",
        periodEnd: "2026-11-30",
        amountHtCents: 8900,
        issuedAt: new Date("2026-11-01T08:00:00Z"),
      },
      { seller: world.ctx.app.config.invoiceSeller },
    ),
  );
  invoiceOfChosen = invoice.id;
}, 180_000);
afterAll(async () => world?.ctx.close());

let readingOfA = "";
let invoiceOfChosen = "";

/** The world's object for a path parameter of this route. */
function objectFor(path: string, param: string): string {
  const w = world;
  if (param === "readingId") return readingOfA;
  if (param === "page") return "1";
  if (param === "documentId") return w.documents.openA;
  if (param === "patientId") return w.people.patientA.id;
  if (param === "id") {
    if (/^\/api\/(patient|dentist)\/requests\//.test(path)) return w.requests.openA;
    if (path.startsWith("/api/documents/")) return w.documents.openA;
    if (path.startsWith("/api/appointments/")) return w.appointmentA;
    if (path.startsWith("/api/conversations/attachments/")) return w.attachments.fromChosenToA;
    if (path.startsWith("/api/conversations/")) return w.conversations.chosenOpenA;
    if (path.startsWith("/api/support/messages/")) return w.support.imageA;
    if (path.startsWith("/api/admin/contact/")) return w.contact.withFile;
    if (/^\/api\/(dentist|admin)\/invoices\//.test(path)) return invoiceOfChosen;
    if (/^\/api\/(admin\/)?dentists\/\{id\}\/(invoices|reviews)$/.test(path)) return w.people.chosen.id;
  }
  throw new Error(`donnez un objet du monde pour {${param}} de GET ${path}`);
}

const urlOf = (path: string) =>
  path.startsWith("/api/avatars/")
    ? world.avatars.chosen
    : path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(objectFor(path, param)));

const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript)|[^;]*\+(json|xml))/;

function checkHeaders(response: LightMyRequestResponse, what: string) {
  expect(response.headers["cache-control"], what).toBe("private, no-store");
  const type = String(response.headers["content-type"] ?? "");
  if (COMPRESSIBLE.test(type))
    expect(String(response.headers.vary ?? "").toLowerCase(), `${what} (${type})`).toContain(
      "accept-encoding",
    );
}

describe("headers of the authenticated answers", () => {
  it("private, no-store and Vary: Accept-Encoding on every authenticated GET route of the OpenAPI document", async () => {
    const checked: string[] = [];
    for (const path of paths) {
      const url = urlOf(path) + (queries[path] ?? "");
      const anonymous = await world.call("anonymous", { method: "GET", url });
      if (anonymous.statusCode !== 401) continue;
      checkHeaders(anonymous, `GET ${url} anonyme`);
      let allowed: PersonName | undefined;
      for (const person of PEOPLE) {
        for (const encoding of [undefined, "gzip, br"]) {
          const headers = encoding ? { "accept-encoding": encoding } : {};
          for (let i = 0; i < 2; i++) {
            const response = await world.call(person, { method: "GET", url, headers });
            checkHeaders(response, `GET ${path} (${person}, ${response.statusCode})`);
            if (response.statusCode < 300) allowed ??= person;
          }
        }
        if (allowed) break;
      }
      expect(allowed, `personne n'a obtenu GET ${url}`).toBeDefined();
      checked.push(path);
    }
    // The document lists them all: the lists, the details, the files.
    expect(checked.length).toBeGreaterThan(30);
  }, 120_000);

  it("keeps the public answers' own caching (statistics, avatars)", async () => {
    const stats = await world.call("patientA", { method: "GET", url: "/api/public/stats" });
    expect(stats.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
    const avatar = await world.call("patientA", { method: "GET", url: world.avatars.chosen });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("private, no-store on the answers that hand a person their profile (sign-in, sign-up)", async () => {
    const { email, password } = world.people.patientB;
    const login = await world.call("anonymous", {
      method: "POST",
      url: "/api/account/login",
      payload: { email, password },
    });
    expect(login.statusCode).toBe(200);
    checkHeaders(login, "POST /api/account/login");
  });
});
