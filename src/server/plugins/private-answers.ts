import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Two headers every answer needs whatever its route (issue 32, ADR 039):
 *
 * - `Cache-Control: private, no-store` on every API answer computed for a person: the route looked
 *   up who is asking (the actor, access/actor.ts: patients' names, treatments, documents), or it set
 *   no caching of its own (a sign-in answers with the profile). No shared cache and no browser cache
 *   keeps it. An answer that looked up nobody keeps the caching its route chose (the public
 *   statistics, the avatars, the health probe).
 * - `Vary: Accept-Encoding` on every answer of a compressible type: compression (@fastify/compress)
 *   adds it only to the answers it compresses (1 KB and more, to a client that accepts it), so a
 *   cache could hand one client's compressed answer to another that cannot read it, or the reverse.
 *   (Also on the few routes that never compress: one rule, and a Vary that never varies costs
 *   nothing.)
 */

/**
 * What @fastify/compress compresses by default (its `defaultCompressibleTypes`), and XML/JSON suffixes,
 * and JavaScript (compressed too: mime-db calls it compressible), the client's assets' type.
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)|^application\/javascript(?:;|$)/u;

function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader("vary");
  const values = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.some((v) => v === "*" || v.toLowerCase() === name)) return;
  reply.header("vary", [...values, name].join(", "));
}

export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.url.startsWith("/api/")) {
      const personal = request.actorPromise !== undefined;
      if (personal || !reply.hasHeader("cache-control")) reply.header("cache-control", "private, no-store");
    }
    // Lower case, as @fastify/compress writes it (it then adds nothing).
    // An answer already encoded (an asset's compressed copy from the build, plugins/static.ts) too.
    if (
      reply.hasHeader("content-encoding") ||
      COMPRESSIBLE.test(String(reply.getHeader("content-type") ?? ""))
    )
      addVary(reply, "accept-encoding");
    return payload;
  });
}
