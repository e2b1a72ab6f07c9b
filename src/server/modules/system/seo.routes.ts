import type { FastifyInstance } from "fastify";

/** Public pages listed in the sitemap (the areas behind login are not for search engines). */
export const PUBLIC_PAGES = [
  "/",
  "/how-it-works",
  "/faq",
  "/dentist/benefits",
  "/contact",
  "/upload-devis",
  "/privacy",
  "/terms",
  "/avis",
  "/signup",
  "/dentist/signup",
  "/login",
] as const;

/** robots.txt and sitemap.xml, with absolute URLs built from PUBLIC_URL; /favicon.ico. */
export async function seoRoutes(app: FastifyInstance): Promise<void> {
  const base = app.config.publicUrl;
  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) => {
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600");
    return [
      "User-agent: *",
      "Disallow: /api/",
      "Disallow: /patient/",
      "Disallow: /admin/",
      // The dentist's area is behind login, but for its public pages (the longest rule wins).
      "Disallow: /dentist/",
      ...PUBLIC_PAGES.filter((p) => p.startsWith("/dentist/")).map((p) => `Allow: ${p}`),
      "Allow: /dentist/login",
      "Disallow: /reset-password",
      "Allow: /",
      `Sitemap: ${base}/sitemap.xml`,
      "",
    ].join("\n");
  });
  // The pages name /favicon.svg; what has no page (a PDF opened in a tab, old clients) asks for the
  // .ico by convention: sent to the same icon rather than a 404.
  app.get("/favicon.ico", { schema: { hide: true } }, async (_request, reply) =>
    reply.header("cache-control", "public, max-age=86400").redirect("/favicon.svg", 301),
  );
  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
    reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600");
    const urls = PUBLIC_PAGES.map((p) => `  <url><loc>${base}${p === "/" ? "/" : p}</loc></url>`).join("\n");
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  });
}
