import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { multipart } from "./testing/files";
import { appPerFile, newRequestId } from "./testing/harness";
import {
  bigJpeg,
  deepTree,
  flateBomb,
  heavyImage,
  hugeBox,
  jpegBomb,
  operators,
  pngBomb,
  tallPage,
  tenThousandPages,
  thinPage,
} from "./testing/hostile-files";
import { type As, api, peoplePerFile, postForm, type Who } from "./testing/people";
import { expectServerUnaffected, whileProbing } from "./testing/probe";

/**
 * Every route that takes an uploaded file (found in the route files, checked against the OpenAPI
 * document) is
 * sent each hostile file of issue 32 (hostile-files.ts: page boxes, operators, flate bombs, page trees,
 * 10 000 pages, pixel bombs, huge real images) as a caller allowed to use it. Each answer is a success
 * or a refusal below 500 with a French message; a refusal leaves neither a stored file nor a row; and
 * `/api/health` keeps answering (p99 < 200 ms, none over 1 s) while the server's memory grows by less
 * than 150 MB. (How the devis among them are then read: reading/hostile.test.ts.)
 */

const ctx = appPerFile({ env: { CONTACT_RATE_LIMIT_PER_HOUR: "1000" } });
const who = peoplePerFile(ctx);
const { get, post } = api(ctx);

type Files = NonNullable<Parameters<typeof multipart>[1]>;
interface HostileFile {
  name: string;
  type: string;
  content: Buffer;
}

interface UploadRoute {
  /** The caller allowed to use it. */
  as: () => As;
  url: () => string;
  /** The form's text fields, valid. */
  fields: Record<string, string>;
  /** The multipart field of its file. */
  field: string;
  /** What the route writes, to compare before and after a refusal. */
  state: () => Promise<unknown>;
}

let conversationId: string;

const count = async (table: string) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(ctx.app.db)).rows[0]?.n,
  );
const counts = (...tables: string[]) => Promise.all(tables.map(count));

/** The multipart routes of the API, each with how an allowed caller sends it a file. */
const ROUTES: Record<string, UploadRoute> = {
  "POST /api/patient/requests": {
    as: () => who.Paula,
    url: () => "/api/patient/requests",
    fields: { treatment_type: "crown", consent: "true", document_types: '["quote"]' },
    field: "files",
    state: () => counts("requests", "documents", "quote_readings"),
  },
  "POST /api/conversations/{id}/messages": {
    as: () => who.Paula,
    url: () => `/api/conversations/${conversationId}/messages`,
    fields: { body: "Voici le document" },
    field: "files",
    state: () => counts("messages", "message_attachments"),
  },
  "POST /api/support/messages": {
    as: () => who.Quentin,
    url: () => "/api/support/messages",
    fields: { body: "Voici une capture d'écran" },
    field: "image",
    state: () => counts("support_threads", "support_messages"),
  },
  "POST /api/contact": {
    as: () => undefined,
    url: () => "/api/contact",
    fields: { name: "Marie Dupont", email: "marie.dupont@example.com", message: "Mon devis en pièce jointe" },
    field: "file",
    state: () => counts("contact_submissions"),
  },
  "POST /api/me/avatar": {
    as: () => who.drA,
    url: () => "/api/me/avatar",
    fields: {},
    field: "avatar",
    state: async () => (await get("/api/me", who.drA)).json().profile.avatar_url,
  },
};

const pdf = (name: string, content: Buffer): HostileFile => ({ name, type: "application/pdf", content });
const png = (name: string, content: Buffer): HostileFile => ({ name, type: "image/png", content });
const jpeg = (name: string, content: Buffer): HostileFile => ({ name, type: "image/jpeg", content });

/** The hostile set, generated once. */
async function hostileSet(): Promise<HostileFile[]> {
  return [
    pdf("page-5000pt.pdf", hugeBox()),
    pdf("page-1x14400pt.pdf", thinPage()),
    pdf("page-20x2000pt.pdf", tallPage()),
    pdf("operateurs.pdf", await operators()),
    pdf("bombe-flate.pdf", await flateBomb()),
    pdf("arbre-profond.pdf", deepTree()),
    pdf("10000-pages.pdf", tenThousandPages()),
    png("bombe.png", await pngBomb()),
    jpeg("bombe.jpg", await jpegBomb()),
    jpeg("12000px.jpg", await bigJpeg()),
    png("7000px-entrelace.png", await heavyImage("png", 7000)),
  ];
}

/** A French message: none of zod's or Fastify's English, and some French (as input.fuzz.test.ts). */
const ENGLISH =
  /\b(invalid|expected|received|required|bad request|must|should|not found|unauthorized|forbidden|too (big|small|long|short|many)|unexpected|unsupported|payload|internal server error|is not|does not|cannot|body\/)\b/i;
const FRENCH =
  /[àâçéèêëîïôûùüœ]|\b(le|la|les|de|des|du|un|une|est|ce|cette|doit|pas|veuillez|votre|vous|au|aux|et|ou|trop|fichier|image|introuvable)\b/i;
const looksFrench = (message: unknown) =>
  typeof message === "string" && message.trim() !== "" && !ENGLISH.test(message) && FRENCH.test(message);

/**
 * The routes declaring `consumes: ["multipart/form-data"]` in the server's route files (the OpenAPI
 * document has no request body for a multipart form): each declaration's route is the last
 * `.post("…"` / `.put("…"` / `.patch("…"` before it.
 */
function multipartRoutesInSources(): string[] {
  const root = fileURLToPath(new URL("./modules", import.meta.url));
  const routes: string[] = [];
  for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".routes.ts")) continue;
    const source = readFileSync(path.join(root, file), "utf8");
    const declarations = [...source.matchAll(/\.(post|put|patch)\(\s*"([^"]+)"/g)];
    for (const consumes of source.matchAll(/consumes: \["multipart\/form-data"\]/g)) {
      const route = declarations.filter((d) => (d.index ?? 0) < (consumes.index ?? 0)).at(-1);
      if (route?.[1] && route[2])
        routes.push(`${route[1].toUpperCase()} ${route[2].replace(/:(\w+)/g, "{$1}")}`);
    }
  }
  return routes;
}

let files: HostileFile[];
let openapi: { paths: Record<string, Record<string, { requestBody?: { content?: object } }>> };

beforeAll(async () => {
  files = await hostileSet();
  openapi = (await get("/api/openapi.json")).json();
  const requestId = await newRequestId(ctx.app, (who.Paula as Who).cookie);
  const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour Paula" }, who.drA);
  conversationId = reply.json().conversation_id;
  // The preview's process (which squares avatars) started beforehand: its start is not a file's doing.
  await ctx.app.readings.previewSandbox.warm();
}, 60_000);

describe("hostile files on every route that takes one", () => {
  it("the table holds every route that reads a multipart form (from the sources), each in the OpenAPI document", () => {
    const documented = new Set(
      Object.entries(openapi.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const found = multipartRoutesInSources();
    expect(found.length).toBeGreaterThan(0);
    for (const route of found) expect(documented.has(route), `${route} dans l'OpenAPI`).toBe(true);
    expect(found.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(Object.entries(ROUTES))(
    "%s: each hostile file answered below 500, in French, the server unaffected",
    async (name, route) => {
      const outcomes: string[] = [];
      for (const file of files) {
        const label = `${name} ← ${file.name}`;
        const before = { state: await route.state(), keys: ctx.storedKeys().sort() };
        const sent: Files = [{ field: route.field, ...file }];
        const measured = await whileProbing(ctx.app, () =>
          postForm(ctx.app, route.url(), route.as(), route.fields, sent),
        );
        expectServerUnaffected(label, measured);
        const response = measured.value;
        outcomes.push(`${file.name} ${response.statusCode}`);
        expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
        expect(
          ctx.storedKeys().filter((key) => key.endsWith(".part")),
          label,
        ).toEqual([]);
        if (response.statusCode >= 400) {
          const message = response.json().error?.message;
          expect(looksFrench(message), `${label}: ${message}`).toBe(true);
          expect(await route.state(), `${label}: nothing saved`).toEqual(before.state);
          expect(ctx.storedKeys().sort(), `${label}: no file left`).toEqual(before.keys);
        } else {
          expect(response.statusCode, label).toBeGreaterThanOrEqual(200);
        }
      }
      console.info(`${name}: ${outcomes.join(", ")}`);
    },
  );
});
