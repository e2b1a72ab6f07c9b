import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";

/**
 * The security headers (helmet: CSP, HSTS, X-Frame-Options…) of every answer, computed once (issue
 * 38, ADR 058).
 *
 * @fastify/helmet builds helmet's middleware again on every request (`helmet(configuration)` in its
 * onRequest hook: the CSP directives parsed again, a dozen middlewares made, then run), ~0.06 ms of
 * CPU per request, about a third of what `/api/me` costs on its own. Our options have no nonce and no
 * directive computed per request, so the headers are the same for every answer: @fastify/helmet
 * itself computes them once, at start, on a throwaway Fastify instance, and each request gets them
 * set as it set them (on the raw response, in an onRequest hook: what a route sets later wins, as
 * before). `security-headers.test.ts` compares them with @fastify/helmet's own, on every kind of answer.
 */

/** The app's helmet options: our own origin only, no inline script; HSTS behind HTTPS. */
export function helmetOptions(secureCookies: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and sonner set style attributes at run time; scripts stay strictly 'self'.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(secureCookies ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: secureCookies,
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers @fastify/helmet sets with `options`, names as it writes them, in its order. */
export async function helmetHeaders(
  options: FastifyHelmetOptions,
): Promise<[string, number | string | string[]][]> {
  const probe = Fastify();
  await probe.register(helmet, options);
  let headers: [string, number | string | string[]][] = [];
  probe.get("/", async (_request, reply) => {
    // Only helmet's onRequest hooks have run: the raw response holds its headers and nothing else.
    // Names as helmet wrote them (Node's OutgoingMessage.getRawHeaderNames, missing from its types).
    const raw = reply.raw as typeof reply.raw & { getRawHeaderNames(): string[] };
    headers = raw.getRawHeaderNames().map((name) => [name, raw.getHeader(name) ?? ""]);
    return "";
  });
  await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  if (headers.length === 0) throw new Error("en-têtes de sécurité : helmet n'en a posé aucun");
  return headers;
}

/** Sets the security headers on every answer (404s and errors included), computed once. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
