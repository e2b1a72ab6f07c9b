import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "./testing/harness";

let ctx: TestContext;
const AREA_JS = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `mot-${i}`))};`;
const AREA_BR = brotliCompressSync(AREA_JS, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const AREA_GZ = gzipSync(AREA_JS, { level: 9 });
const clientDir = mkdtempSync(path.join(tmpdir(), "sourio-client-"));

beforeAll(async () => {
  mkdirSync(path.join(clientDir, "assets"));
  writeFileSync(
    path.join(clientDir, "index.html"),
    '<!doctype html><html lang="fr"><body><div id="root"></div></body></html>',
  );
  writeFileSync(
    path.join(clientDir, "assets", "app-abc123.js"),
    `console.log(${JSON.stringify("x".repeat(5000))});`,
  );
  // An asset with the build's compressed copies beside it (scripts/lib/precompress.mjs).
  writeFileSync(path.join(clientDir, "assets", "area-def456.js"), AREA_JS);
  writeFileSync(path.join(clientDir, "assets", "area-def456.js.br"), AREA_BR);
  writeFileSync(path.join(clientDir, "assets", "area-def456.js.gz"), AREA_GZ);
  mkdirSync(path.join(clientDir, "prerendered"));
  writeFileSync(
    path.join(clientDir, "prerendered", "faq.html"),
    '<html><head><meta property="og:image" content="/media/hero-poster.webp" /></head><div id="root"><h1>Questions fréquentes</h1></div></html>',
  );
  writeFileSync(
    path.join(clientDir, "prerendered", "dentist__benefits.html"),
    '<div id="root"><h1>Avantages</h1></div>',
  );
  ctx = await createTestContext({ clientDir });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

/** GET `url` from a browser that sends this Accept-Encoding. */
const getAccepting = (url: string, accept: string) =>
  ctx.app.inject({ method: "GET", url, headers: { "accept-encoding": accept } });

describe("API documentation", () => {
  it("documents every API route in /api/openapi.json", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const route of [
      "/api/health",
      "/api/config",
      "/api/me",
      "/api/account/signup",
      "/api/account/login",
      "/api/account/logout",
      "/api/account/forgot-password",
      "/api/account/reset-password",
    ]) {
      expect(paths).toContain(route);
    }
    expect(response.json().paths["/api/account/login"].post.requestBody).toBeDefined();
  });

  it("serves a readable page at /api/docs", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });
});

describe("unknown paths", () => {
  it("answers unknown /api paths with a JSON 404 in the error shape", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("NOT_FOUND");
  });

  it("answers a path that is no page of the app with a 404 and the app (its French 404 page), never cached", async () => {
    for (const url of ["/nimporte-quoi", "/une/page/inconnue", "/patient/nope", "/faq/x?y=1"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain('<div id="root">');
      expect(response.headers["cache-control"]).toContain("no-cache");
    }
  });

  it("serves the app with a 200 for every page of the app, parameters included", async () => {
    for (const url of [
      "/patient/request/abc",
      "/dentist/messages",
      "/dentist/messages/42",
      "/login?next=%2Fpatient%2Fupload",
    ]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
    }
  });
});

describe("pre-rendered public pages", () => {
  it("serves a public page's pre-rendered HTML, never cached, and the plain app elsewhere", async () => {
    for (const url of ["/faq", "/faq/", "/dentist/benefits"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain("<h1>");
      expect(response.headers["cache-control"]).toContain("no-cache");
    }
    const faq = await ctx.app.inject({ method: "GET", url: "/faq" });
    expect(faq.body).toContain('<link rel="canonical" href="http://localhost:3000/faq" />');
    expect(faq.body).toContain('content="http://localhost:3000/media/hero-poster.webp"');
    const area = await ctx.app.inject({ method: "GET", url: "/patient/dashboard" });
    expect(area.body).toContain('<div id="root"></div>');
  });

  it("sends a pre-rendered page compressed as the browser accepts it: brotli, else gzip, else as is", async () => {
    const plain = await ctx.app.inject({ method: "GET", url: "/faq" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("<h1>Questions fréquentes</h1>");
    const cases: [string, string | undefined, (b: Buffer) => Buffer][] = [
      ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
      ["br;q=0, gzip", "gzip", gunzipSync],
      ["*", "br", brotliDecompressSync],
      ["identity", undefined, (b) => b],
    ];
    for (const [accept, encoding, decode] of cases) {
      const response = await getAccepting("/faq", accept);
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers["content-encoding"], accept).toBe(encoding);
      expect(response.headers.vary, accept).toContain("accept-encoding");
      expect(response.headers["content-type"], accept).toBe("text/html; charset=utf-8");
      expect(decode(response.rawPayload).toString("utf8"), accept).toBe(plain.body);
    }
  });
});

describe("static files and headers", () => {
  it("caches hashed assets for a year, immutable, and compresses them", async () => {
    const response = await getAccepting("/assets/app-abc123.js", "br, gzip");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(["br", "gzip"]).toContain(response.headers["content-encoding"]);
  });

  it("sends an asset's compressed copy from the build as it is, as the browser accepts it", async () => {
    // Compressed per request, brotli's default quality here would not give the build's bytes.
    expect(brotliCompressSync(AREA_JS, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })).not.toEqual(
      AREA_BR,
    );
    const cases: [string, string | undefined, Buffer][] = [
      ["gzip, deflate, br, zstd", "br", AREA_BR],
      ["gzip", "gzip", AREA_GZ],
      ["br;q=0, gzip", "gzip", AREA_GZ],
      ["identity", undefined, Buffer.from(AREA_JS)],
    ];
    for (const [accept, encoding, bytes] of cases) {
      const response = await getAccepting("/assets/area-def456.js", accept);
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers["content-encoding"], accept).toBe(encoding);
      expect(response.headers["content-type"], accept).toBe("application/javascript; charset=utf-8");
      expect(response.headers["cache-control"], accept).toBe("public, max-age=31536000, immutable");
      expect(response.headers.vary, accept).toContain("accept-encoding");
      expect(response.rawPayload.equals(bytes), accept).toBe(true);
    }
  });

  it("gives the compressed copies and the pre-rendered files no address of their own", async () => {
    for (const url of ["/assets/area-def456.js.br", "/assets/area-def456.js.gz"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toBe("Fichier introuvable.");
    }
    const raw = await ctx.app.inject({ method: "GET", url: "/prerendered/faq.html" });
    expect(raw.statusCode).toBe(404);
    expect(raw.body).not.toContain("Questions fréquentes");
  });

  it("answers a missing asset with a 404, not the app", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/assets/missing-123.js" });
    expect(response.statusCode).toBe(404);
  });

  it("sends security headers with a CSP that allows only our own origin and no inline script", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBeDefined();
  });

  it("publishes the brand name, the contact e-mail and the dentists' plans at the configured prices", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/config" });
    const body = response.json();
    expect(body).toMatchObject({ brand_name: "Sourio", contact_email: "contact@sourio.fr" });
    // Worked example at the default prices (config: PRICE_MONTHLY_HT 89, PRICE_YEARLY_HT 890): TVA
    // 20 % of 89,00 € is 17,80 €, so 106,80 € TTC; the year, 890,00 € + 178,00 € = 1 068,00 € TTC,
    // 74,17 € HT a month (890 / 12 = 74,166…).
    expect(body.plans).toEqual([
      {
        id: "monthly",
        name: "Sourio Cabinet — mensuel",
        label: "Mensuel",
        period: "par mois",
        ht_cents: 8900,
        vat_cents: 1780,
        ttc_cents: 10680,
        monthly_ht_cents: 8900,
      },
      {
        id: "yearly",
        name: "Sourio Cabinet — annuel",
        label: "Annuel",
        period: "par an",
        ht_cents: 89000,
        vat_cents: 17800,
        ttc_cents: 106800,
        monthly_ht_cents: 7417,
      },
    ]);
  });

  it("names the plans under the configured brand (D18): another BRAND_NAME, another plan name", async () => {
    const branded = await createTestContext({ env: { BRAND_NAME: "Dentalia" } });
    try {
      const body = (await branded.app.inject({ method: "GET", url: "/api/config" })).json();
      expect(body.brand_name).toBe("Dentalia");
      expect(body.plans.map((plan: { name: string }) => plan.name)).toEqual([
        "Dentalia Cabinet — mensuel",
        "Dentalia Cabinet — annuel",
      ]);
    } finally {
      await branded.close();
    }
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("lists the public pages with absolute URLs and keeps the private areas out", async () => {
    const robots = await ctx.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain("Disallow: /patient/");
    expect(robots.body).toContain("Disallow: /admin/");
    expect(robots.body).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    const sitemap = await ctx.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    expect(sitemap.body).toContain("<loc>http://localhost:3000/faq</loc>");
    // The reviews' rules (a legal page, public and pre-rendered) are listed too.
    expect(sitemap.body).toContain("<loc>http://localhost:3000/avis</loc>");
    // Every page of the dentist's area is closed to robots but for its public ones.
    expect(robots.body).toContain("Disallow: /dentist/\n");
    for (const open of ["/dentist/benefits", "/dentist/signup", "/dentist/login"])
      expect(robots.body).toContain(`Allow: ${open}\n`);
    expect(sitemap.body).not.toContain("/patient/");
  });

  it("sends /favicon.ico to the icon the pages name", async () => {
    const ico = await ctx.app.inject({ method: "GET", url: "/favicon.ico" });
    expect(ico.statusCode).toBe(301);
    expect(ico.headers.location).toBe("/favicon.svg");
  });
});
